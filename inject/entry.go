// Evaluation records: what the run record says, each iteration, about which
// units fired and why (the agent's internal/contextunits writes them).

package inject

// ToolReturn is one tool call of the batch that ran just before this
// iteration, as an on-tool-return trigger sees it.
type ToolReturn struct {
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	Iteration  int    `json:"iteration"`
}

// Activation is the read_skill call that loaded a skill.
type Activation struct {
	ToolCallID string `json:"toolCallId"`
	Iteration  int    `json:"iteration"`
}

// KeyRead is one state key a rule predicate read, with the runtime stage id
// and commit index of its last writer (empty and -1 when nothing wrote it).
type KeyRead struct {
	Key    string `json:"key"`
	Writer string `json:"writer"`
	Commit int    `json:"commit"`
}

// Evidence is why a unit fired or did not in one iteration: the ALLOWED hop
// of a backtrack. Which fields are set depends on Kind.
type Evidence struct {
	Kind        TriggerKind  `json:"kind"`
	Label       string       `json:"label,omitempty"`
	Matched     *bool        `json:"matched,omitempty"`
	Reads       []KeyRead    `json:"reads,omitempty"`
	Error       string       `json:"error,omitempty"`
	Matches     []ToolReturn `json:"matches,omitempty"`
	ActivatedBy *Activation  `json:"activatedBy,omitempty"`
	// Retrieval is set for a passage unit: its retrieval's query and its row.
	Retrieval *RetrievalEvidence `json:"retrieval,omitempty"`
}

// Placement is where an active unit landed: its slot and its position among
// the units of that slot.
type Placement struct {
	Slot     Slot `json:"slot"`
	Position int  `json:"position"`
}

// Drop says why an active unit was not placed.
type Drop struct {
	Reason string `json:"reason"`
}

// Entry is one unit's outcome in one iteration (an element of contextUnits).
type Entry struct {
	ID      string     `json:"id"`
	Active  bool       `json:"active"`
	Trigger Evidence   `json:"trigger"`
	Placed  *Placement `json:"placed,omitempty"`
	Dropped *Drop      `json:"dropped,omitempty"`
}
