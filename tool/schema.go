// This file holds schema handling at definition: reading a tool's input
// schema, checking its root, and compiling it once for validation.

package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compiledSchema is a tool's input schema in the three forms the package
// needs: the exact bytes (served), the decoded document (declaration
// checks) and the compiled validator.
type compiledSchema struct {
	raw       json.RawMessage
	doc       map[string]any
	validator *jsonschema.Schema
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
// network or the file system.
func compileSchema(toolName string, raw []byte) (*compiledSchema, error) {
	doc, err := decodeJSON(raw)
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
	loc := "urn:agentfootprint:tool:" + url.PathEscape(toolName)
	if err := c.AddResource(loc, doc); err != nil {
		return nil, &DefinitionError{Tool: toolName, Path: "schema", Problem: "the input schema could not be registered", Fix: "check the schema's $id and $schema", Err: err}
	}
	v, err := c.Compile(loc)
	if err != nil {
		return nil, &DefinitionError{Tool: toolName, Path: "schema", Problem: "the input schema does not compile", Fix: "make it a valid JSON Schema (draft 4 to 2020-12) with no references outside itself", Err: err}
	}
	return &compiledSchema{raw: append(json.RawMessage(nil), raw...), doc: obj, validator: v}, nil
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
// A json.Number with no fraction or exponent is an "integer".
func jsonTypeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := x.Int64(); err == nil {
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
