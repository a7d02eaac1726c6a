package tool

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// searchSchema is the base tool of the argument-rule tests: service and window, both
// required, window an enum of look-backs.
const searchSchema = `{"type":"object","properties":{"service":{"type":"string"},"window":{"type":"string","enum":["1h","2h","24h","7d"]},"limit":{"type":"integer","minimum":1},"verbose":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}},"since":{"type":["string","null"]}},"required":["service","window"]}`

func noop(context.Context, json.RawMessage) (any, error) { return "ok", nil }

func newSearch(opts ...Option) (*Tool, error) {
	return NewRaw("search_logs", "Search a service's logs.", json.RawMessage(searchSchema), noop, opts...)
}

func TestDefinitionRefusals(t *testing.T) {
	many := map[string]Rule{}
	props := map[string]any{}
	for i := 0; i < 33; i++ {
		name := "a" + strings.Repeat("x", i)
		many[name] = Rule{Ask: "Which?"}
		props[name] = map[string]any{"type": "string"}
	}
	manySchema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	hundredOne := make([]Choice, 101)
	for i := range hundredOne {
		hundredOne[i] = Choice{Value: i}
	}

	tests := []struct {
		name     string
		toolName string
		desc     string
		schema   string
		opts     []Option
		wantPath string
	}{
		{"bad name chars", "search logs", "d", searchSchema, nil, "name"},
		{"empty name", "", "d", searchSchema, nil, "name"},
		{"name too long", strings.Repeat("a", 65), "d", searchSchema, nil, "name"},
		{"blank description", "t", "  \n", searchSchema, nil, "description"},
		{"schema not json", "t", "d", `{"type":`, nil, "schema"},
		{"schema not object", "t", "d", `[1]`, nil, "schema"},
		{"root not object type", "t", "d", `{"type":"string"}`, nil, "schema.type"},
		{"root type union", "t", "d", `{"type":["object","null"]}`, nil, "schema.type"},
		{"schema does not compile", "t", "d", `{"type":"object","properties":{"a":{"type":12}}}`, nil, "schema"},
		{"remote ref", "t", "d", `{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`, nil, "schema"},
		{"ceiling zero", "t", "d", searchSchema, []Option{WithResultCeiling(0, "")}, "resultCeiling.maxChars"},
		{"nil check-in", "t", "d", searchSchema, []Option{WithCheckIn(nil)}, "checkIn"},
		{"unknown mode", "t", "d", searchSchema, []Option{WithValidation("strict")}, "validation"},
		{"empty rules", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{})}, "askOrAssume"},
		{"33 asks", "t", "d", string(manySchema), []Option{WithAskOrAssume(many)}, "askOrAssume"},
		{"rule not a property", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"zone": {Assume: "UTC"}})}, "askOrAssume.zone"},
		{"rule on array", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"tags": {Assume: "x"}})}, "askOrAssume.tags"},
		{"rule on nullable union", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"since": {Assume: "x"}})}, "askOrAssume.since"},
		{"ask and assume", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h", Ask: "How far?"}})}, "askOrAssume.window"},
		{"neither", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {}})}, "askOrAssume.window"},
		{"assume outside enum", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "9h"}})}, "askOrAssume.window.assume"},
		{"assume wrong type", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"limit": {Assume: "ten"}})}, "askOrAssume.limit.assume"},
		{"assume below minimum", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"limit": {Assume: 0}})}, "askOrAssume.limit.assume"},
		{"assume non-scalar", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"service": {Assume: []string{"a"}}})}, "askOrAssume.service.assume"},
		{"blank question", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"service": {Ask: " ", Choices: []Choice{{Value: "a"}}}})}, "askOrAssume.service.ask"},
		{"question too long", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"service": {Ask: strings.Repeat("é", 4097)}})}, "askOrAssume.service.ask"},
		{"empty choices", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"service": {Ask: "Which?", Choices: []Choice{}}})}, "askOrAssume.service.choices"},
		{"101 choices", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"limit": {Ask: "How many?", Choices: hundredOne}})}, "askOrAssume.limit.choices"},
		{"repeated choice", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"service": {Ask: "Which?", Choices: []Choice{{Value: "Check-out"}, {Value: "check out"}}}})}, "askOrAssume.service.choices[1]"},
		{"choice outside enum", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Ask: "How far?", Choices: []Choice{{Value: "1h"}, {Value: "3h"}}}})}, "askOrAssume.window.choices[1]"},
		{"blank said", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Ask: "How far?", Choices: []Choice{{Value: "1h", Said: []string{""}}}}})}, "askOrAssume.window.choices[0].said"},
		{"said too long", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Ask: "How far?", Choices: []Choice{{Value: "1h", Said: []string{strings.Repeat("x", 121)}}}}})}, "askOrAssume.window.choices[0].said"},
		{"said on two choices", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Ask: "How far?", Choices: []Choice{{Value: "1h", Said: []string{"an hour"}}, {Value: "2h", Said: []string{"An hour!"}}}}})}, "askOrAssume.window.choices[1].said"},
		{"17 said", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Ask: "How far?", Choices: []Choice{{Value: "1h", Said: make([]string, 17)}}}})}, "askOrAssume.window.choices[0].said"},
		{"period blank argument", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Spelling: SpellingLookback})}, "period.argument"},
		{"period unruled argument", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "service", Spelling: SpellingLookback})}, "period.argument"},
		{"period without rules", "t", "d", searchSchema, []Option{WithPeriod(Period{Argument: "window", Spelling: SpellingLookback})}, "period.argument"},
		{"period on integer", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"limit": {Assume: 10}}), WithPeriod(Period{Argument: "limit", Spelling: SpellingLookback})}, "period.argument"},
		{"period unknown argument", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "span", Spelling: SpellingLookback})}, "period.argument"},
		{"period unknown spelling", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: "duration"})}, "period.spelling"},
		{"period default does not parse", "t", "d", `{"type":"object","properties":{"window":{"type":"string"}}}`, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2 hours"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback})}, "period.spelling"},
		{"period choice does not parse", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Ask: "How far?", Choices: []Choice{{Value: "1h"}, {Value: "2h"}}}}), WithPeriod(Period{Argument: "window", Spelling: SpellingSignedLookback})}, "period.spelling"},
		{"period units repeat", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback, Units: "mm"})}, "period.units"},
		{"period units unknown", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback, Units: "hy"})}, "period.units"},
		{"period default outside units", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback, Units: "dw"})}, "period.spelling"},
		{"period retention", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback, Retention: "30 days"})}, "period.retention"},
		{"period granularity", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback, Granularity: "0s"})}, "period.granularity"},
		{"period max range", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback, MaxRange: "1y"})}, "period.maxRange"},
		{"period direction", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback, Direction: "back"})}, "period.direction"},
		{"period accepts unknown", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback, Accepts: []PeriodSpelling{"iso"}})}, "period.accepts[0]"},
		{"hidden unknown", "t", "d", searchSchema, []Option{WithHiddenArguments("token")}, "hiddenArguments[0]"},
		{"hidden blank", "t", "d", searchSchema, []Option{WithHiddenArguments("service", " ")}, "hiddenArguments[1]"},
		{"hidden twice in one option", "t", "d", searchSchema, []Option{WithHiddenArguments("service", "service")}, "hiddenArguments[1]"},
		{"hidden twice across options", "t", "d", searchSchema, []Option{WithHiddenArguments("service"), WithHiddenArguments("window", "service")}, "hiddenArguments[2]"},
		{"period accepts repeat", "t", "d", searchSchema, []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback, Accepts: []PeriodSpelling{SpellingISORange, SpellingLookback}})}, "period.accepts[1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, err := NewRaw(tt.toolName, tt.desc, json.RawMessage(tt.schema), noop, tt.opts...)
			if err == nil {
				t.Fatalf("NewRaw accepted the definition (%v), want a refusal at %s", tl.Name(), tt.wantPath)
			}
			var de *DefinitionError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v is not a *DefinitionError", err, err)
			}
			if de.Path != tt.wantPath {
				t.Errorf("Path = %q, want %q (error: %v)", de.Path, tt.wantPath, err)
			}
			if de.Tool != tt.toolName {
				t.Errorf("Tool = %q, want %q", de.Tool, tt.toolName)
			}
			if de.Fix == "" || !strings.Contains(err.Error(), "fix: ") {
				t.Errorf("error names no fix: %v", err)
			}
		})
	}
}

func TestDefinitionAccepts(t *testing.T) {
	tests := []struct {
		name string
		opts []Option
	}{
		{"plain", nil},
		{"assume in enum", []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}})}},
		{"assume integer", []Option{WithAskOrAssume(map[string]Rule{"limit": {Assume: 10}})}},
		{"assume boolean", []Option{WithAskOrAssume(map[string]Rule{"verbose": {Assume: false}})}},
		{"free ask", []Option{WithAskOrAssume(map[string]Rule{"service": {Ask: "Which service?"}})}},
		{"ask with choices and said", []Option{WithAskOrAssume(map[string]Rule{"window": {Ask: "How far back?", Choices: []Choice{{Value: "1h", Said: []string{"an hour"}}, {Value: "24h", Said: []string{"a day", "since yesterday"}}}}})}},
		{"question of 4096 units", []Option{WithAskOrAssume(map[string]Rule{"service": {Ask: strings.Repeat("q", 4096)}})}},
		{"period lookback", []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback})}},
		{"period full facts", []Option{WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback, Accepts: []PeriodSpelling{SpellingISORange}, Units: "smhdw", Retention: "30d", Granularity: "1s", MaxRange: "7d", Direction: DirectionPast})}},
		{"period option first", []Option{WithPeriod(Period{Argument: "window", Spelling: SpellingLookback}), WithAskOrAssume(map[string]Rule{"window": {Assume: "24h"}})}},
		{"ceiling", []Option{WithResultCeiling(1, "")}},
		{"check-in", []Option{WithCheckIn(func(json.RawMessage) bool { return true })}},
		{"warn", []Option{WithValidation(ModeWarn)}},
		{"nil option", []Option{nil}},
		{"hidden", []Option{WithHiddenArguments("service", "window")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := newSearch(tt.opts...); err != nil {
				t.Fatalf("refused: %v", err)
			}
		})
	}
}

func TestExternalReferencesAreNeverLoaded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.json")
	if err := os.WriteFile(path, []byte(`{"type":"string"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"file://" + filepath.ToSlash(path), path, "s.json"} {
		schema := `{"type":"object","properties":{"a":{"$ref":` + strconv.Quote(ref) + `}}}`
		_, err := NewRaw("t", "d", json.RawMessage(schema), noop)
		var de *DefinitionError
		if !errors.As(err, &de) || de.Path != "schema" || !strings.Contains(err.Error(), "not loaded") {
			t.Errorf("$ref %q: err = %v, want a schema refusal saying the reference is not loaded", ref, err)
		}
	}
	// References inside the document still work.
	if _, err := NewRaw("t", "d", json.RawMessage(`{"type":"object","$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"}}}`), noop); err != nil {
		t.Errorf("internal $ref refused: %v", err)
	}
}

func TestNewRefusesNonObjectInput(t *testing.T) {
	tests := []struct {
		name string
		mk   func() (*Tool, error)
		path string
	}{
		{"string input", func() (*Tool, error) {
			return New("t", "d", func(context.Context, string) (string, error) { return "", nil })
		}, "schema.type"},
		{"pointer input", func() (*Tool, error) {
			return New("t", "d", func(context.Context, *goldenSearch) (string, error) { return "", nil })
		}, "schema.type"},
		{"slice input", func() (*Tool, error) {
			return New("t", "d", func(context.Context, []int) (string, error) { return "", nil })
		}, "schema.type"},
		{"key=value tag", func() (*Tool, error) {
			type in struct {
				A string `json:"a" jsonschema:"description=the a"`
			}
			return New("t", "d", func(context.Context, in) (string, error) { return "", nil })
		}, "schema"},
		{"chan field", func() (*Tool, error) {
			type in struct {
				C chan int `json:"c"`
			}
			return New("t", "d", func(context.Context, in) (string, error) { return "", nil })
		}, "schema"},
		{"nil fn", func() (*Tool, error) {
			return New[goldenSearch, string]("t", "d", nil)
		}, "fn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.mk()
			var de *DefinitionError
			if !errors.As(err, &de) || de.Path != tt.path {
				t.Fatalf("err = %v, want *DefinitionError at %q", err, tt.path)
			}
		})
	}
}

func TestMust(t *testing.T) {
	tl := Must(newSearch())
	if tl.Name() != "search_logs" || tl.Declaration().Description != "Search a service's logs." {
		t.Fatalf("Must returned %q %q", tl.Name(), tl.Declaration().Description)
	}
	defer func() {
		r := recover()
		var de *DefinitionError
		if err, ok := r.(error); !ok || !errors.As(err, &de) || de.Path != "name" {
			t.Fatalf("Must panicked with %v, want the *DefinitionError for name", r)
		}
	}()
	Must(NewRaw("bad name", "d", json.RawMessage(searchSchema), noop))
}

func TestNothingPassedIsMutatedOrShared(t *testing.T) {
	schema := json.RawMessage(searchSchema)
	rules := map[string]Rule{"window": {Ask: "How far?", Choices: []Choice{{Value: "1h", Said: []string{"an hour"}}, {Value: "24h"}}}}
	accepts := []PeriodSpelling{SpellingISORange}
	p := Period{Argument: "window", Spelling: SpellingLookback, Accepts: accepts}
	tl, err := NewRaw("search_logs", "Search.", schema, noop, WithAskOrAssume(rules), WithPeriod(p))
	if err != nil {
		t.Fatal(err)
	}
	if string(schema) != searchSchema {
		t.Fatalf("schema argument was modified")
	}
	// Change everything the caller still holds.
	schema[0] = '['
	rules["window"].Choices[0].Said[0] = "changed"
	rules["service"] = Rule{Assume: "x"}
	accepts[0] = SpellingLookback
	d := tl.Declaration()
	if string(d.InputSchema) != searchSchema {
		t.Fatalf("tool schema changed with the caller's bytes: %s", d.InputSchema)
	}
	want := map[string]Rule{"window": {Ask: "How far?", Choices: []Choice{{Value: "1h", Said: []string{"an hour"}}, {Value: "24h"}}}}
	if diff := cmp.Diff(want, d.AskOrAssume); diff != "" {
		t.Fatalf("rules (-want +got):\n%s", diff)
	}
	if d.Period == nil || d.Period.Accepts[0] != SpellingISORange {
		t.Fatalf("period changed with the caller's slice: %+v", d.Period)
	}
	hidden := []string{"service"}
	h := Must(NewRaw("search_logs", "Search.", json.RawMessage(searchSchema), noop, WithHiddenArguments(hidden...)))
	hidden[0] = "window"
	if diff := cmp.Diff([]string{"service"}, h.Declaration().HiddenArguments); diff != "" {
		t.Fatalf("hidden arguments changed with the caller's slice (-want +got):\n%s", diff)
	}
	// One Option value may define several tools; none sees another's
	// declarations.
	opt := WithHiddenArguments("service")
	h1 := Must(NewRaw("one", "One.", json.RawMessage(searchSchema), noop, opt, WithHiddenArguments("window")))
	h2 := Must(NewRaw("two", "Two.", json.RawMessage(searchSchema), noop, opt))
	if diff := cmp.Diff([]string{"service"}, h2.Declaration().HiddenArguments); diff != "" {
		t.Fatalf("second tool's hidden arguments (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"service", "window"}, h1.Declaration().HiddenArguments); diff != "" {
		t.Fatalf("first tool's hidden arguments (-want +got):\n%s", diff)
	}
}

// TestDeclarationIsBuiltOnce: the declaration is computed at definition, so
// fetching it allocates nothing, and every fetch holds the same values.
func TestDeclarationIsBuiltOnce(t *testing.T) {
	tl := Must(newSearch(WithAskOrAssume(map[string]Rule{"window": {Assume: "2h"}}), WithPeriod(Period{Argument: "window", Spelling: SpellingLookback}),
		WithResultCeiling(100, "fewer services"), WithCheckIn(func(json.RawMessage) bool { return true }), WithHiddenArguments("service")))
	if n := testing.AllocsPerRun(100, func() { _ = tl.Declaration() }); n != 0 {
		t.Errorf("Declaration() allocates %v times, want 0", n)
	}
	a, b := tl.Declaration(), tl.Declaration()
	if a.Period != b.Period || &a.InputSchema[0] != &b.InputSchema[0] || a.ResultCeiling != 100 || a.NarrowBy != "fewer services" || a.CheckIn == nil || a.Validation != ModeEnforce {
		t.Errorf("two fetches differ or miss a declaration: %+v / %+v", a, b)
	}
	if a.Name != "search_logs" || a.RawResults != true || a.DefinedAt.Line == 0 || a.Check == nil || a.CheckArgument == nil || a.Func == nil {
		t.Errorf("declaration lacks its head, site or funcs: %+v", a)
	}
}

// TestNewRefusesUnfillableInput: an input struct whose fields the model can
// never fill is refused at New, naming the field and the fix.
func TestNewRefusesUnfillableInput(t *testing.T) {
	fn := func(context.Context, struct {
		host string
		port int
	}) (string, error) {
		return "", nil
	}
	_, err := New("probe", "Probe a host.", fn)
	var de *DefinitionError
	if !errors.As(err, &de) || de.Path != "schema" || !strings.Contains(de.Error(), "none is exported") {
		t.Fatalf("all-unexported input: err = %v, want a DefinitionError at schema saying none is exported", err)
	}
	// Built with reflect so vet's struct-tag check (which flags the same
	// mistake in source) does not refuse this test file.
	tagged := reflect.StructOf([]reflect.StructField{
		{Name: "Host", Type: reflect.TypeFor[string](), Tag: `json:"host"`},
		{Name: "port", PkgPath: "example.com/probe", Type: reflect.TypeFor[int](), Tag: `json:"port"`},
	})
	err = checkInputFields("probe", tagged)
	if !errors.As(err, &de) || de.Path != "schema.port" || !strings.Contains(de.Error(), "export the field (Port)") {
		t.Fatalf("tagged unexported field: err = %v, want a DefinitionError at schema.port with the fix", err)
	}
	none := func(context.Context, struct{}) (string, error) { return "ok", nil }
	if _, err := New("ping", "Ping.", none); err != nil {
		t.Fatalf("a tool without arguments is refused: %v", err)
	}
}

// A pointer input type is refused with the fix that applies to New: take the type itself.
func TestNewRefusesPointerInputWithTheRightFix(t *testing.T) {
	type lookup struct {
		Order string `json:"order"`
	}
	_, err := New("lookup_order", "Looks an order up.", func(ctx context.Context, in *lookup) (string, error) { return "", nil })
	var de *DefinitionError
	if !errors.As(err, &de) || de.Path != "schema.type" {
		t.Fatalf("err = %v, want a *DefinitionError on schema.type", err)
	}
	if !strings.Contains(de.Problem, "is a pointer") || !strings.Contains(de.Fix, "the type itself, not a pointer") || strings.Contains(de.Error(), `"type": "object"`) {
		t.Errorf("refusal = %v", err)
	}
}
