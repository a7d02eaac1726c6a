// This file holds the witness pointer: where in the record a reason or a check rests.

package assess

// Pointer kinds.
const (
	PointerState   = "state"
	PointerHistory = "history"
)

// Pointer names one leaf of the committed record: a value under a state key
// ({kind:"state", key, path}) or inside one history message ({kind:"history", index, path,
// toolCallId?}). Path is an RFC 6901 JSON pointer to a leaf, such as "/3/verdict".
type Pointer struct {
	Kind       string `json:"kind"`
	Key        string `json:"key,omitempty"`
	Index      *int   `json:"index,omitempty"`
	Path       string `json:"path"`
	ToolCallID string `json:"toolCallId,omitempty"`
}
