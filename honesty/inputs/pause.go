// This file holds what the person sees and sends when a run pauses to ask for arguments: the
// question (PauseData, its Fields) and the answer (Reply), and the state of the question a
// paused run keeps (Ask, its Bindings).

package inputs

import "encoding/json"

// Field is one typed field of the question.
type Field struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Description string `json:"description"`
	Enum        []any  `json:"enum,omitempty"`
}

// Binding says which calls a field fills.
type Binding struct {
	ID       string   `json:"id"`
	Tool     string   `json:"tool"`
	Argument string   `json:"argument"`
	Calls    []string `json:"calls"`
}

// Ask is the state of one batch's question: the fields, what each binds, how
// many misfits each has had, and the round.
type Ask struct {
	RequestID string         `json:"requestId"`
	Round     int            `json:"round"`
	Fields    []Field        `json:"fields"`
	Bindings  []Binding      `json:"bindings"`
	Misfits   map[string]int `json:"misfits,omitempty"`
	// Expected is each field's type as the tool's schema spells it
	// (integer stays integer here), for the refusal.
	Expected map[string]string `json:"expected,omitempty"`
	// Spelling is the period spelling a shared field's choices are written
	// in; each binding's call is filled in its own tool's spelling.
	Spelling map[string]string `json:"spelling,omitempty"`
}

// PauseData is what the person is shown: the question, the fields and a
// context that names tools and arguments but never the model's values.
type PauseData struct {
	RequestID string         `json:"requestId"`
	Question  string         `json:"question"`
	Fields    []Field        `json:"fields"`
	Context   map[string]any `json:"context"`
}

// Reply is the person's answer to a round.
type Reply struct {
	RequestID string                     `json:"requestId"`
	Values    map[string]json.RawMessage `json:"values"`
}
