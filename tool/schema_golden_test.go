package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files")

type goldenSearch struct {
	Service string `json:"service" jsonschema:"the service whose logs to search, such as checkout"`
	Window  string `json:"window,omitempty" jsonschema:"how far back to look, such as 2h"`
	Limit   int    `json:"limit,omitempty"`
}

type goldenNested struct {
	Host   string `json:"host"`
	Checks []struct {
		Name     string  `json:"name" jsonschema:"what to check"`
		Critical bool    `json:"critical,omitempty"`
		Weight   float64 `json:"weight"`
	} `json:"checks" jsonschema:"the checks to run, in order"`
	Labels  map[string]string `json:"labels,omitempty"`
	Since   time.Time         `json:"since"`
	Retries uint8             `json:"retries,omitempty"`
	Owner   *struct {
		Team string `json:"team"`
	} `json:"owner,omitempty"`
	//lint:ignore U1000 an unexported field the schema must leave out
	internal string
	Skipped  string `json:"-"`
}

type goldenEmpty struct{}

type goldenJSONTypes struct {
	Filter json.RawMessage  `json:"filter" jsonschema:"any JSON value, passed on as written"`
	Count  json.Number      `json:"count"`
	Extra  *json.RawMessage `json:"extra,omitempty"`
	When   time.Time        `json:"when,omitzero"`
}

// inferredSchema builds a tool for In and returns its schema, indented.
func inferredSchema[In any](t *testing.T) []byte {
	t.Helper()
	tl, err := New("golden", "A tool for golden files.", func(context.Context, In) (string, error) { return "", nil })
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, tl.Declaration().InputSchema, "", "  "); err != nil {
		t.Fatalf("indent: %v", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

func TestInferredSchemaGolden(t *testing.T) {
	tests := []struct {
		name string
		got  func(*testing.T) []byte
	}{
		{"search", inferredSchema[goldenSearch]},
		{"nested", inferredSchema[goldenNested]},
		{"empty", inferredSchema[goldenEmpty]},
		{"map", inferredSchema[map[string]int]},
		{"jsontypes", inferredSchema[goldenJSONTypes]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.got(t)
			path := filepath.Join("testdata", "schema", tt.name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("schema for %s differs from %s:\n got %s\nwant %s", tt.name, path, got, want)
			}
		})
	}
}

func TestJSONTypesValidateAndDecode(t *testing.T) {
	var got goldenJSONTypes
	tl := Must(New("jsontypes", "JSON types.", func(_ context.Context, in goldenJSONTypes) (string, error) {
		got = in
		return "", nil
	}))
	d := tl.Declaration()
	args := json.RawMessage(`{"filter":{"a":[1,2]},"count":3.25,"extra":{"b":true}}`)
	if issues, err := d.Check(args); issues != nil || err != nil {
		t.Fatalf("issues %+v, err %v", issues, err)
	}
	if _, err := d.Func(context.Background(), args); err != nil {
		t.Fatal(err)
	}
	if string(got.Filter) != `{"a":[1,2]}` || got.Count != "3.25" || got.Extra == nil || string(*got.Extra) != `{"b":true}` {
		t.Fatalf("decoded %+v", got)
	}
	issues, err := d.Check(json.RawMessage(`{"filter":null,"count":"3"}`))
	if err != nil || len(issues) != 1 || issues[0] != (Issue{Path: "/count", Keyword: "type", Expected: "number", Got: "string"}) {
		t.Fatalf("issues %+v, err %v", issues, err)
	}
}
