// Tests of argument validation as a dispatcher runs it: the issues and
// their order, the cap, the text the model reads, one argument's check, the
// modes, and arguments that are not JSON.

package toolrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

type orderLine struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

type orderIn struct {
	Customer struct {
		ID    string `json:"id"`
		Email string `json:"email,omitempty"`
	} `json:"customer"`
	Lines    []orderLine `json:"lines"`
	Priority uint8       `json:"priority,omitempty"`
	Note     string      `json:"note,omitempty"`
}

func newOrderTool(t *testing.T, opts ...tool.Option) *tool.Tool {
	t.Helper()
	tl, err := tool.New("place_order", "Place an order.", func(_ context.Context, in orderIn) (string, error) {
		return fmt.Sprintf("placed %d lines for %s", len(in.Lines), in.Customer.ID), nil
	}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func TestValidateIssues(t *testing.T) {
	tl := newOrderTool(t)
	tests := []struct {
		name    string
		args    string
		argsErr string
		want    *Rejection
	}{
		{"valid", `{"customer":{"id":"c1"},"lines":[{"sku":"a","quantity":2}]}`, "", nil},
		{"valid with null lines", `{"customer":{"id":"c1"},"lines":null}`, "", nil},
		{"empty args read as {}", ``, "", &Rejection{Tool: "place_order", Total: 2, Issues: []tool.Issue{
			{Path: "/customer", Keyword: "required", Expected: "object", Got: "missing"},
			{Path: "/lines", Keyword: "required", Expected: "null or array", Got: "missing"},
		}}},
		{"missing nested required", `{"customer":{},"lines":[]}`, "", &Rejection{Tool: "place_order", Total: 1, Issues: []tool.Issue{
			{Path: "/customer/id", Keyword: "required", Expected: "string", Got: "missing"},
		}}},
		{"wrong types in array items", `{"customer":{"id":7},"lines":[{"sku":"a","quantity":"two"},{"sku":3,"quantity":1.5}]}`, "", &Rejection{Tool: "place_order", Total: 4, Issues: []tool.Issue{
			{Path: "/customer/id", Keyword: "type", Expected: "string", Got: "integer"},
			{Path: "/lines/0/quantity", Keyword: "type", Expected: "integer", Got: "string"},
			{Path: "/lines/1/quantity", Keyword: "type", Expected: "integer", Got: "number"},
			{Path: "/lines/1/sku", Keyword: "type", Expected: "string", Got: "integer"},
		}}},
		{"extra members at two depths", `{"customer":{"id":"c","vip":true},"lines":[],"coupon":{"code":"X"}}`, "", &Rejection{Tool: "place_order", Total: 2, Issues: []tool.Issue{
			{Path: "/coupon", Keyword: "additionalProperties", Expected: "no such property", Got: "object"},
			{Path: "/customer/vip", Keyword: "additionalProperties", Expected: "no such property", Got: "boolean"},
		}}},
		{"bounds", `{"customer":{"id":"c"},"lines":[],"priority":300}`, "", &Rejection{Tool: "place_order", Total: 1, Issues: []tool.Issue{
			{Path: "/priority", Keyword: "maximum", Expected: "<= 255", Got: "integer"},
		}}},
		{"array where object", `{"customer":["c"],"lines":{}}`, "", &Rejection{Tool: "place_order", Total: 2, Issues: []tool.Issue{
			{Path: "/customer", Keyword: "type", Expected: "object", Got: "array"},
			{Path: "/lines", Keyword: "type", Expected: "null or array", Got: "object"},
		}}},
		{"root not object", `[1,2]`, "", &Rejection{Tool: "place_order", Total: 1, Issues: []tool.Issue{
			{Path: "", Keyword: "type", Expected: "object", Got: "array"},
		}}},
		{"unparsable text", `{"customer":`, "", &Rejection{Tool: "place_order", Total: 1, ParseError: "unexpected EOF", Issues: []tool.Issue{
			{Path: "", Keyword: "json", Expected: "one JSON object", Got: "unparsable"},
		}}},
		{"provider parse error", `whatever`, "invalid character 'w'", &Rejection{Tool: "place_order", Total: 1, ParseError: "invalid character 'w'", Issues: []tool.Issue{
			{Path: "", Keyword: "json", Expected: "one JSON object", Got: "unparsable"},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Validate(tl.Declaration(), json.RawMessage(tt.args), tt.argsErr)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Validate (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateRawSchemaKeywords(t *testing.T) {
	tl, err := newSearch()
	if err != nil {
		t.Fatal(err)
	}
	got := Validate(tl.Declaration(), json.RawMessage(`{"service":"","window":"3h","limit":0,"tags":["a",2]}`), "")
	want := &Rejection{Tool: "search_logs", Total: 3, Issues: []tool.Issue{
		{Path: "/limit", Keyword: "minimum", Expected: ">= 1", Got: "integer"},
		{Path: "/tags/1", Keyword: "type", Expected: "string", Got: "integer"},
		{Path: "/window", Keyword: "enum", Expected: `one of ["1h","2h","24h","7d"]`, Got: "string"},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Validate (-want +got):\n%s", diff)
	}
}

func TestValidateCapsAtTwenty(t *testing.T) {
	tl := newOrderTool(t)
	var lines []string
	for i := 0; i < 25; i++ {
		lines = append(lines, `{"sku":1,"quantity":1}`)
	}
	args := `{"customer":{"id":"c"},"lines":[` + strings.Join(lines, ",") + `]}`
	got := Validate(tl.Declaration(), json.RawMessage(args), "")
	if got == nil || got.Total != 25 || len(got.Issues) != maxIssues || got.omitted() != 5 {
		t.Fatalf("got total %d, listed %d; want 25 and %d", got.Total, len(got.Issues), maxIssues)
	}
	// Sorted by pointer, array indexes as numbers: /lines/0 … /lines/19.
	if got.Issues[0].Path != "/lines/0/sku" || got.Issues[2].Path != "/lines/2/sku" || got.Issues[19].Path != "/lines/19/sku" {
		t.Fatalf("issues not sorted by path: %v", got.Issues[:3])
	}
	if !strings.HasSuffix(got.Text(), "\n- and 5 more issue(s) not listed") {
		t.Fatalf("text does not count the omitted issues:\n%s", got.Text())
	}
}

func TestRejectionTextNeverShowsValues(t *testing.T) {
	tl := newOrderTool(t)
	secret := "s3cr3t-value"
	rej := Validate(tl.Declaration(), json.RawMessage(`{"customer":{"id":7,"`+secret+`":1},"lines":"`+secret+`"}`), "")
	if rej == nil {
		t.Fatal("no rejection")
	}
	text := rej.Text()
	for _, line := range []string{
		"The place_order tool was not run: its arguments do not match its input schema (3 issues). Correct all of them and call it again.",
		"- /customer/id: type expects string, got integer",
		"- /lines: type expects null or array, got string",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("text lacks %q:\n%s", line, text)
		}
	}
	// The extra member's name is the path, which the model wrote; the
	// value behind it must not appear anywhere but in that path.
	if strings.Count(text, secret) != 1 {
		t.Errorf("text shows the value:\n%s", text)
	}
}

func TestRequiredNamesTheMemberType(t *testing.T) {
	schema := `{"type":"object","$defs":{"id":{"type":"string","minLength":1}},"properties":{"id":{"$ref":"#/$defs/id"},"n":{"type":["integer","null"]},"any":{}},"required":["id","n","any"]}`
	tl := tool.Must(tool.NewRaw("refs", "Refs.", json.RawMessage(schema), noop))
	got := Validate(tl.Declaration(), json.RawMessage(`{}`), "")
	want := &Rejection{Tool: "refs", Total: 3, Issues: []tool.Issue{
		{Path: "/any", Keyword: "required", Expected: "a value", Got: "missing"},
		{Path: "/id", Keyword: "required", Expected: "string", Got: "missing"},
		{Path: "/n", Keyword: "required", Expected: "null or integer", Got: "missing"},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Validate (-want +got):\n%s", diff)
	}
}

func TestCheckArgument(t *testing.T) {
	tl := tool.Must(newSearch())
	order := newOrderTool(t)
	tests := []struct {
		name  string
		tl    *tool.Tool
		arg   string
		value any
		want  *Rejection
	}{
		{"enum member", tl, "window", "24h", nil},
		{"integer as float", tl, "limit", 2.0, nil},
		{"outside enum", tl, "window", "3h", &Rejection{Tool: "search_logs", Total: 1, Issues: []tool.Issue{{Path: "/window", Keyword: "enum", Expected: `one of ["1h","2h","24h","7d"]`, Got: "string"}}}},
		{"fraction for integer", tl, "limit", 2.5, &Rejection{Tool: "search_logs", Total: 1, Issues: []tool.Issue{{Path: "/limit", Keyword: "type", Expected: "integer", Got: "number"}}}},
		{"below minimum", tl, "limit", 0, &Rejection{Tool: "search_logs", Total: 1, Issues: []tool.Issue{{Path: "/limit", Keyword: "minimum", Expected: ">= 1", Got: "integer"}}}},
		{"unknown argument", tl, "zone", "UTC", &Rejection{Tool: "search_logs", Total: 1, Issues: []tool.Issue{{Path: "/zone", Keyword: "properties", Expected: "an argument the tool declares", Got: "unknown"}}}},
		{"nested object", order, "customer", map[string]any{"id": 3, "x": true}, &Rejection{Tool: "place_order", Total: 2, Issues: []tool.Issue{
			{Path: "/customer/id", Keyword: "type", Expected: "string", Got: "integer"},
			{Path: "/customer/x", Keyword: "additionalProperties", Expected: "no such property", Got: "boolean"},
		}}},
		{"unencodable", tl, "service", func() {}, &Rejection{Tool: "search_logs", Total: 1, Issues: []tool.Issue{{Path: "/service", Keyword: "json", Expected: "a JSON value", Got: "unencodable"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, CheckArgument(tt.tl.Declaration(), tt.arg, tt.value)); diff != "" {
				t.Errorf("CheckArgument (-want +got):\n%s", diff)
			}
		})
	}
}

func TestModes(t *testing.T) {
	bad := json.RawMessage(`{"customer":{"id":"c1"},"lines":[{"sku":"a","quantity":2}],"extra":1}`)
	tests := []struct {
		mode       tool.Mode
		wantRej    bool
		wantRan    bool
		wantOutput string
	}{
		{tool.ModeEnforce, true, false, ""},
		{tool.ModeWarn, true, true, "placed 1 lines for c1"},
		{tool.ModeOff, false, true, "placed 1 lines for c1"},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			tl := newOrderTool(t, tool.WithValidation(tt.mode))
			if tl.Declaration().Validation != tt.mode {
				t.Fatalf("ValidationMode() = %q", tl.Declaration().Validation)
			}
			o := Invoke(context.Background(), tl.Declaration(), bad, "")
			if (o.Rejection != nil) != tt.wantRej || o.Ran != tt.wantRan || (o.Rejection == nil && !o.Ran) {
				t.Fatalf("outcome %+v: want rejection=%v ran=%v", o, tt.wantRej, tt.wantRan)
			}
			if o.Err != nil || o.Output.Value != any(tt.wantOutput) && tt.wantRan {
				t.Fatalf("output %#v, err %v; want %q", o.Output.Value, o.Err, tt.wantOutput)
			}
		})
	}
}

func TestIntegralNumbersDecodeIntoIntegers(t *testing.T) {
	var got orderIn
	tl, err := tool.New("place_order", "Place an order.", func(_ context.Context, in orderIn) (string, error) {
		got = in
		return "", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"customer":{"id":"c"},"lines":[{"sku":"a","quantity":2.0}],"priority":1e2}`)
	if rej := Validate(tl.Declaration(), args, ""); rej != nil {
		t.Fatalf("JSON Schema counts 2.0 and 1e2 as integers; got %v", rej.Issues)
	}
	if _, err := Execute(context.Background(), tl.Declaration(), args); err != nil {
		t.Fatal(err)
	}
	if got.Lines[0].Quantity != 2 || got.Priority != 100 {
		t.Fatalf("decoded %+v", got)
	}
	// A real fraction still fails to decode, naming the type.
	_, err = Execute(context.Background(), tl.Declaration(), json.RawMessage(`{"customer":{"id":"c"},"lines":[{"sku":"a","quantity":2.5}]}`))
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), `tool "place_order": the arguments do not decode into toolrun.orderIn`) {
		t.Fatalf("err = %v, want the decode error naming the tool and type, wrapping *json.UnmarshalTypeError", err)
	}
}

func TestUnparsableArgumentsStopEveryMode(t *testing.T) {
	for _, mode := range []tool.Mode{tool.ModeEnforce, tool.ModeWarn, tool.ModeOff} {
		t.Run(string(mode), func(t *testing.T) {
			ran := false
			tl := tool.Must(tool.NewRaw("raw", "Raw.", json.RawMessage(`{"type":"object"}`), func(context.Context, json.RawMessage) (any, error) {
				ran = true
				return "", nil
			}, tool.WithValidation(mode)))
			o := Invoke(context.Background(), tl.Declaration(), json.RawMessage(`{"a":`), "unexpected end of JSON input")
			if o.Ran || ran || o.Rejection == nil || o.Rejection.ParseError != "unexpected end of JSON input" || !o.Rejection.Stops(mode) {
				t.Fatalf("outcome %+v, fn ran %v", o, ran)
			}
			// Even a dispatcher that skips validation cannot hand the
			// func text that is not JSON.
			_, err := Execute(context.Background(), tl.Declaration(), json.RawMessage(`{"a":`))
			if err == nil || !strings.Contains(err.Error(), "the arguments are not valid JSON") || ran {
				t.Fatalf("Execute on broken JSON: err %v, fn ran %v", err, ran)
			}
		})
	}
	var none *Rejection
	if none.Stops(tool.ModeEnforce) {
		t.Fatal("a nil rejection stops a call")
	}
	if (&Rejection{}).Stops(tool.ModeWarn) {
		t.Fatal("a schema rejection stops a call in warn mode")
	}
}

func TestDefaultModeIsEnforce(t *testing.T) {
	tl := newOrderTool(t)
	if tl.Declaration().Validation != tool.ModeEnforce {
		t.Fatalf("default mode %q, want enforce", tl.Declaration().Validation)
	}
}
