// This file holds schema handling at definition: reading a tool's input
// schema, checking its root, and compiling it once for validation.

package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compiledSchema is a tool's input schema in the three forms the package
// needs: the exact bytes (served), the decoded document (declaration
// checks) and the compiled validator.
type compiledSchema struct {
	raw       json.RawMessage
	doc       map[string]any
	validator *jsonschema.Schema
	// byLocation indexes every compiled subschema by its absolute
	// location, the key validation errors name them by.
	byLocation map[string]*jsonschema.Schema
}

// memberTypes names the JSON type(s) the object schema at location wants
// for member name ("string", "integer or null"), or "a value" when the
// schema does not say.
func (s *compiledSchema) memberTypes(location, name string) string {
	obj := s.byLocation[location]
	if obj == nil {
		return "a value"
	}
	member := obj.Properties[name]
	for hops := 0; member != nil && member.Types == nil && member.Ref != nil && hops < 8; hops++ {
		member = member.Ref
	}
	if member == nil || member.Types == nil {
		return "a value"
	}
	return strings.Join(member.Types.ToStrings(), " or ")
}

// indexSchemas records root and every subschema reachable from it.
func indexSchemas(root *jsonschema.Schema) map[string]*jsonschema.Schema {
	idx := map[string]*jsonschema.Schema{}
	var walk func(*jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil {
			return
		}
		if _, seen := idx[s.Location]; seen {
			return
		}
		idx[s.Location] = s
		walk(s.Ref)
		walk(s.RecursiveRef)
		walk(s.Not)
		walk(s.If)
		walk(s.Then)
		walk(s.Else)
		walk(s.PropertyNames)
		walk(s.UnevaluatedProperties)
		walk(s.Contains)
		walk(s.Items2020)
		walk(s.UnevaluatedItems)
		walk(s.ContentSchema)
		for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
			for _, c := range list {
				walk(c)
			}
		}
		for _, c := range s.Properties {
			walk(c)
		}
		for _, c := range s.PatternProperties {
			walk(c)
		}
		for _, c := range s.DependentSchemas {
			walk(c)
		}
		for _, c := range s.Dependencies {
			if cs, ok := c.(*jsonschema.Schema); ok {
				walk(cs)
			}
		}
		for _, any := range []any{s.AdditionalProperties, s.AdditionalItems, s.Items} {
			switch c := any.(type) {
			case *jsonschema.Schema:
				walk(c)
			case []*jsonschema.Schema:
				for _, e := range c {
					walk(e)
				}
			}
		}
	}
	walk(root)
	return idx
}

// decodeJSON decodes one JSON value with numbers kept as json.Number, the
// form the validator compares without losing precision. Trailing data is an
// error.
func decodeJSON(b []byte) (any, error) {
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// compileSchema checks that raw is a JSON object schema whose root type is
// exactly "object", and compiles it. Schemas may name their draft with
// $schema (draft 4 to 2020-12); without it, 2020-12 applies. References to
// anything outside the document are refused: nothing is loaded from the
// network or the file system. A non-nil check is the schema validation
// uses instead of raw (raw with tighter bounds); raw is what is served.
func compileSchema(toolName string, raw, check []byte) (*compiledSchema, error) {
	src := raw
	if check != nil {
		src = check
	}
	doc, err := decodeJSON(src)
	if err != nil {
		return nil, &DefinitionError{Tool: toolName, Path: "schema", Problem: "the input schema is not valid JSON", Fix: "pass one JSON object such as {\"type\":\"object\",\"properties\":{}}", Err: err}
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, refuse(toolName, "schema", fmt.Sprintf("the input schema is a JSON %s, not an object", jsonTypeOf(doc)), "pass a schema object whose \"type\" is \"object\"")
	}
	if t, _ := obj["type"].(string); t != "object" {
		return nil, refuse(toolName, "schema.type", "the schema root must have \"type\": \"object\" (tool arguments are always an object)", "set \"type\": \"object\" at the root and describe each argument under \"properties\"")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	loc := "https://tool.agentfootprint.invalid/" + url.PathEscape(toolName) + ".json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, &DefinitionError{Tool: toolName, Path: "schema", Problem: "the input schema could not be registered", Fix: "check the schema's $id and $schema", Err: err}
	}
	v, err := c.Compile(loc)
	if err != nil {
		return nil, &DefinitionError{Tool: toolName, Path: "schema", Problem: "the input schema does not compile", Fix: "make it a valid JSON Schema (draft 4 to 2020-12) with no references outside itself", Err: err}
	}
	return &compiledSchema{raw: append(json.RawMessage(nil), raw...), doc: obj, validator: v, byLocation: indexSchemas(v)}, nil
}

// noLoader refuses every external reference. The validator's default
// loader reads file: URLs, and a schema from a foreign server must never
// make the host read its own files.
type noLoader struct{}

// Load refuses url.
func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %q is not loaded: a tool schema must be self-contained", url)
}

// property returns the decoded subschema of the top-level property name
// and whether it is present under "properties".
func (s *compiledSchema) property(name string) (map[string]any, bool) {
	props, _ := s.doc["properties"].(map[string]any)
	p, ok := props[name].(map[string]any)
	return p, ok
}

// jsonTypeOf names the JSON type of a value decoded by decodeJSON (or
// encoding/json): null, boolean, integer, number, string, array, object.
// A json.Number is an "integer" when it has no fraction or exponent, or
// when it spells an integer within ±2^63 another way (2.0, 1e2).
func jsonTypeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := x.Int64(); err == nil || !strings.ContainsAny(string(x), ".eE") {
			return "integer"
		}
		if _, ok := integerSpelling(string(x)); ok {
			return "integer"
		}
		return "number"
	case float64, float32:
		return "number"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "integer"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case missing:
		return "missing"
	}
	return "unknown"
}
