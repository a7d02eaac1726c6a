// This file holds the served schema: what the model is shown of a ruled
// tool's input schema. Ruled arguments leave required, and each one's
// description says what its rule does.

package inputs

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

// ServedSchema returns the input schema to serve for a tool with rules: each
// ruled argument is dropped from required (required itself is dropped when
// it ends up empty), and the rule's sentence is appended to the argument's
// description after one space, or stands alone. The tool's registered schema
// is never changed. A schema without rules is returned as is; one that is not
// a JSON object is refused.
func ServedSchema(schema json.RawMessage, rules map[string]tool.Rule, hidden func(string) bool) (json.RawMessage, error) {
	if len(rules) == 0 {
		return schema, nil
	}
	var m map[string]any
	if err := json.Unmarshal(schema, &m); err != nil {
		return nil, fmt.Errorf("inputs: served schema: %w", err)
	}
	props, _ := m["properties"].(map[string]any)
	for name, r := range rules {
		p, ok := props[name].(map[string]any)
		if !ok {
			continue
		}
		var sentence string
		if r.Assume != nil {
			sentence = AssumeSentence(r.Assume, hidden != nil && hidden(name))
		} else {
			sentence = AskSentence()
		}
		if d, _ := p["description"].(string); d != "" {
			p["description"] = d + " " + sentence
		} else {
			p["description"] = sentence
		}
	}
	if req, ok := m["required"].([]any); ok {
		kept := slices.DeleteFunc(slices.Clone(req), func(v any) bool {
			s, _ := v.(string)
			_, ruled := rules[s]
			return ruled
		})
		if len(kept) == 0 {
			delete(m, "required")
		} else {
			m["required"] = kept
		}
	}
	return json.Marshal(m)
}
