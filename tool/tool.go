// This file holds the Tool type and its constructors: typed tools from Go
// funcs, raw tools from a JSON schema, and Must.

package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentfootprint/agentfootprint-go/internal/idchars"
)

// Tool is a callable the model may ask for: a name, a description, an
// input schema, a function, and any declarations. A Tool is immutable
// after definition and safe for concurrent use. Its Declaration holds
// everything it declares; an agent (or a tool's own test) runs it through
// package tool/toolrun.
type Tool struct {
	name   string
	desc   string
	schema *compiledSchema
	exec   func(context.Context, json.RawMessage) (any, error)
	raw    bool // made by NewRaw: result objects are read (toolrun)
	cfg    config
	site   Site
	decl   Declaration // built once by declare
}

// nameChars are the bytes a tool name is made of, and maxName is its longest length.
var nameChars = idchars.Of(idchars.Lower, idchars.Upper, idchars.Digits, "_-")

const maxName = 64

// New defines a tool from a typed Go func. The input schema is inferred
// from In with github.com/google/jsonschema-go (a struct's exported fields
// become properties; a field's whole `jsonschema:"…"` tag is its
// description; fields without omitempty/omitzero are required; a
// json.RawMessage field accepts any JSON value and a json.Number field a
// number). Arguments
// are validated against that schema, then decoded into In, then fn runs.
// Out is served as described on Result (a string passes as is, anything
// else as JSON).
//
// New refuses, with a *DefinitionError naming the tool, the field and the
// fix: a name not matching ^[a-zA-Z0-9_-]{1,64}$; a blank description; an
// In whose schema cannot be inferred or whose root is not type "object"
// (use a struct or a map, not a pointer); a nil fn; and every malformed
// declaration (see WithAskOrAssume, WithPeriod, WithResultCeiling,
// WithCheckIn, WithValidation).
func New[In, Out any](name, desc string, fn func(ctx context.Context, in In) (Out, error), opts ...Option) (*Tool, error) {
	stack := callersOf()
	if err := checkHead(name, desc); err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, refuse(name, "fn", "the tool function is nil", "pass the func that does the tool's work")
	}
	if t := reflect.TypeFor[In](); t.Kind() == reflect.Pointer {
		return nil, refuse(name, "schema.type", "the input type "+typeName[In]()+" is a pointer; tool arguments are always one JSON object, decoded into a value",
			"declare the function's input as "+t.Elem().String()+" (the type itself, not a pointer to it)")
	}
	if err := checkInputFields(name, reflect.TypeFor[In]()); err != nil {
		return nil, err
	}
	s, err := jsonschema.For[In](inferOptions())
	if err != nil {
		return nil, &DefinitionError{Tool: name, Path: "schema", Problem: "the input schema cannot be inferred from " + typeName[In](), Fix: "use a struct with JSON-encodable fields; a jsonschema tag is the whole description, never key=value", Err: err}
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, &DefinitionError{Tool: name, Path: "schema", Problem: "the inferred schema cannot be encoded", Fix: "simplify the input type", Err: err}
	}
	// The arguments are checked against the schema plus the range of each
	// 64-bit integer field, so a value the decode would refuse is an issue
	// the model can fix. The declared schema leaves those ranges out: they
	// are noise to a model and cost tokens on every request.
	check := checkSchema[In]()
	exec := func(ctx context.Context, args json.RawMessage) (any, error) {
		var in In
		if len(bytes.TrimSpace(args)) > 0 {
			if err := decodeInto(args, &in); err != nil {
				return nil, &decodeError{Tool: name, Type: typeName[In](), Err: err}
			}
		}
		return fn(ctx, in)
	}
	return build(name, desc, raw, check, exec, false, opts, &stack)
}

// NewRaw defines a tool from a JSON schema given as is (an MCP tool's, for
// example) and a func taking the raw arguments. The schema must be a JSON
// object with "type": "object" at the root; it is copied, compiled once,
// and served byte for byte. fn receives the validated arguments ({} when
// the model sent none; text that is not JSON never reaches it, whatever
// the validation mode) and must not modify them. Its return value is read
// as described on Result; a map[string]any or JSON object text whose keys
// are a subset of content, effects and status, with content present, is a
// result object.
//
// NewRaw refuses what New refuses, and a schema that is not valid JSON,
// not an object, not rooted at type "object", or does not compile.
func NewRaw(name, desc string, schema json.RawMessage, fn func(ctx context.Context, args json.RawMessage) (any, error), opts ...Option) (*Tool, error) {
	stack := callersOf()
	if err := checkHead(name, desc); err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, refuse(name, "fn", "the tool function is nil", "pass the func that does the tool's work")
	}
	exec := func(ctx context.Context, args json.RawMessage) (any, error) {
		if len(bytes.TrimSpace(args)) == 0 {
			args = json.RawMessage("{}")
		} else if !json.Valid(args) {
			return nil, &decodeError{Tool: name, Type: "JSON", Err: errors.New("the arguments are not valid JSON")}
		}
		return fn(ctx, args)
	}
	return build(name, desc, schema, nil, exec, true, opts, &stack)
}

// Must returns t, and panics with err when err is not nil. It is meant for
// tools defined at package level from constant inputs:
//
//	var search = tool.Must(tool.New("search", "…", searchFn))
func Must(t *Tool, err error) *Tool {
	if err != nil {
		panic(err)
	}
	return t
}

func checkHead(name, desc string) error {
	if !idchars.Valid(name, &nameChars, &nameChars, maxName) {
		return refuse(name, "name", "the name must be 1 to 64 letters, digits, '_' or '-'", "rename the tool, for example \"search_logs\"")
	}
	if strings.TrimSpace(desc) == "" {
		return refuse(name, "description", "the description is blank", "say in one sentence what the tool does and when to use it")
	}
	return nil
}

func build(name, desc string, raw, check []byte, exec func(context.Context, json.RawMessage) (any, error), rawResults bool, opts []Option, stack *callStack) (*Tool, error) {
	s, err := compileSchema(name, raw, check)
	if err != nil {
		return nil, err
	}
	cfg := config{mode: ModeEnforce}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.problemPath != "" {
		return nil, refuse(name, cfg.problemPath, cfg.problem, cfg.problemFix)
	}
	rules, err := assertDeclarations(name, s, cfg.rules, cfg.rulesSet, cfg.period)
	if err != nil {
		return nil, err
	}
	for i, h := range cfg.hidden {
		if _, ok := s.property(h); !ok {
			return nil, refuse(name, fmt.Sprintf("hiddenArguments[%d]", i), fmt.Sprintf("%q is not a property of the input schema", h), "name a top-level argument listed under \"properties\"")
		}
		if slices.Contains(cfg.hidden[:i], h) {
			return nil, refuse(name, fmt.Sprintf("hiddenArguments[%d]", i), fmt.Sprintf("%q is listed twice", h), "list each hidden argument once")
		}
	}
	cfg.rules = rules
	site := stack.site(cfg.callerSkip)
	if cfg.site != nil {
		site = *cfg.site
	}
	t := &Tool{name: name, desc: desc, schema: s, exec: exec, raw: rawResults, cfg: cfg, site: site}
	t.declare()
	return t, nil
}

// inferOptions corrects two standard types the inference would describe by
// their Go kind instead of their JSON form: json.RawMessage holds any JSON
// value (not an array of bytes), and json.Number is a number (not a
// string).
func inferOptions() *jsonschema.ForOptions {
	return &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		// Every JSON type spelled out: an empty schema would turn into
		// "null only" for a *json.RawMessage field (the inference adds
		// null to a pointer's types, and an empty schema has none).
		reflect.TypeFor[json.RawMessage](): {Types: []string{"null", "boolean", "number", "string", "array", "object"}},
		reflect.TypeFor[json.Number]():     {Type: "number"},
	}}
}

// checkOptions is inferOptions plus the range of the 64-bit integer types,
// which the inference leaves out (it bounds the smaller ones). The bounds
// are exact decimal numbers (a float64 would round 2^63 - 1 up), the upper
// one exclusive. The schema type keeps them in float64 fields, so they go
// out under stand-in keys that checkSchema renames.
func checkOptions() *jsonschema.ForOptions {
	o := inferOptions()
	bounded := func(min, below string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "integer", Extra: map[string]any{"$agentfootprint-minimum": json.Number(min), "$agentfootprint-exclusiveMaximum": json.Number(below)}}
	}
	signed := func(bits int) *jsonschema.Schema {
		half := new(big.Int).Lsh(big.NewInt(1), uint(bits-1))
		return bounded(new(big.Int).Neg(half).String(), half.String())
	}
	unsigned := func(bits int) *jsonschema.Schema {
		return bounded("0", new(big.Int).Lsh(big.NewInt(1), uint(bits)).String())
	}
	o.TypeSchemas[reflect.TypeFor[int]()] = signed(strconv.IntSize)
	o.TypeSchemas[reflect.TypeFor[int64]()] = signed(64)
	o.TypeSchemas[reflect.TypeFor[uint]()] = unsigned(strconv.IntSize)
	o.TypeSchemas[reflect.TypeFor[uint64]()] = unsigned(64)
	o.TypeSchemas[reflect.TypeFor[uintptr]()] = unsigned(strconv.IntSize)
	return o
}

// checkInputFields refuses an input struct the model can never fill:
// encoding/json reads and writes exported fields only, so an unexported
// field with a json tag is a silent mistake, and a struct whose fields are
// all unexported has an empty schema (every call would fail at run time,
// and only the model would be told). A struct with no fields at all is a
// tool without arguments and is fine.
func checkInputFields(name string, t reflect.Type) error {
	if t == nil || t.Kind() != reflect.Struct || t.NumField() == 0 {
		return nil
	}
	exported := false
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() || (f.Anonymous && f.Type.Kind() == reflect.Struct) {
			exported = true
			continue
		}
		if _, tagged := f.Tag.Lookup("json"); tagged {
			return &DefinitionError{Tool: name, Path: "schema." + f.Name,
				Problem: fmt.Sprintf("the input field %s of %s has a json tag but is unexported, so JSON arguments can never reach it", f.Name, t),
				Fix:     fmt.Sprintf("export the field (%s%s) and keep its tag", strings.ToUpper(f.Name[:1]), f.Name[1:])}
		}
	}
	if !exported {
		return &DefinitionError{Tool: name, Path: "schema",
			Problem: fmt.Sprintf("the input struct %s has fields, but none is exported, so its schema has no properties and every call would fail", t),
			Fix:     "export the fields the model fills (capitalize them, with json tags for their wire names), or use struct{} for a tool without arguments"}
	}
	return nil
}

func typeName[T any]() string { return reflect.TypeFor[T]().String() }

// Name returns the tool's name. Everything else the tool declares is in
// its Declaration.
func (t *Tool) Name() string { return t.name }

// boundKeys pairs each stand-in key of checkOptions with the keyword it
// becomes. No schema the inference writes uses the stand-ins.
var boundKeys = [4]string{`"$agentfootprint-minimum":`, `"minimum":`, `"$agentfootprint-exclusiveMaximum":`, `"exclusiveMaximum":`}

// checkSchema returns In's schema with checkOptions' bounds, or nil (the
// declared schema is then the one checked) when it cannot be built.
func checkSchema[In any]() []byte {
	cs, err := jsonschema.For[In](checkOptions())
	if err != nil {
		return nil
	}
	b, err := json.Marshal(cs)
	if err != nil {
		return nil
	}
	return []byte(strings.NewReplacer(boundKeys[:]...).Replace(string(b)))
}
