// Tests of raw schemas written to older drafts of JSON Schema.

package tool

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Raw schemas may name any draft from 4 to 2020-12; each keeps its own
// meaning of the keywords that changed between drafts.
func TestRawSchemaDrafts(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		args   string
		want   []Issue
	}{
		{"draft-04 boolean exclusiveMaximum", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","maximum":10,"exclusiveMaximum":true}}}`,
			`{"n":10}`, []Issue{{Path: "/n", Keyword: "exclusiveMaximum", Expected: "< 10", Got: "integer"}}},
		{"draft-07 items array", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"pair":{"type":"array","items":[{"type":"string"},{"type":"integer"}],"additionalItems":false}}}`,
			`{"pair":["a","b",3]}`, []Issue{{Path: "/pair", Keyword: "additionalItems", Expected: "no items beyond those listed", Got: "array"}, {Path: "/pair/1", Keyword: "type", Expected: "integer", Got: "string"}}},
		{"2019-09 dependentRequired", `{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object","properties":{"a":{},"b":{}},"dependentRequired":{"a":["b"]}}`,
			`{"a":1}`, []Issue{{Path: "/b", Keyword: "dependentRequired", Expected: `a value when "a" is present`, Got: "missing"}}},
		{"2020-12 prefixItems (default draft)", `{"type":"object","properties":{"pair":{"type":"array","prefixItems":[{"type":"string"}],"items":false}}}`,
			`{"pair":["a",1]}`, []Issue{{Path: "/pair/1", Keyword: "false", Expected: "nothing (no value is allowed here)", Got: "integer"}}},
		{"oneOf flattened to the branches' leaves", `{"type":"object","properties":{"id":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`,
			`{"id":true}`, []Issue{{Path: "/id", Keyword: "type", Expected: "integer", Got: "boolean"}, {Path: "/id", Keyword: "type", Expected: "string", Got: "boolean"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, err := NewRaw("drafted", "Drafted.", json.RawMessage(tt.schema), noop)
			if err != nil {
				t.Fatal(err)
			}
			issues, err := tl.Declaration().Check(json.RawMessage(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, issues); diff != "" {
				t.Fatalf("issues (-want +got):\n%s", diff)
			}
		})
	}
}
