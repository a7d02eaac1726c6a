// This file holds the inputs layer's argument row as the ledger reads it: its shape and its
// checkpoint-door test. The ledger needs it because the period reasons join on it.

package ledger

// ArgumentRow records who chose one argument of one call: the person, a tool's default, the model,
// or an answer to a question. It is filed by the inputs layer; the results layer only joins on it.
// JSON key order: kind, turn, toolCallId, toolName, iteration, argument, rule, period?, source?,
// asked?, value?, proposed?, free?.
type ArgumentRow struct {
	// Kind is "argument" on every argument row (FromArgument sets it).
	Kind       string `json:"kind"`
	Turn       int    `json:"turn"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	Iteration  int    `json:"iteration"`
	Argument   string `json:"argument"`
	// Rule is "ask" or "assume".
	Rule string `json:"rule"`
	// Period is true on the argument a tool's period declaration names.
	Period bool `json:"period,omitempty"`
	// Source says who chose the value; absent exactly on a row that asked.
	Source string `json:"source,omitempty"`
	// Asked says why the question was put; present exactly on a row that asked.
	Asked string `json:"asked,omitempty"`
	// Value is the value in the tool's view, printed, or "REDACTED".
	Value string `json:"value,omitempty"`
	// Proposed is the model's own value when a rule replaced or echoed it.
	Proposed string `json:"proposed,omitempty"`
	// Free is true for an answer given in a free field.
	Free bool `json:"free,omitempty"`
}
