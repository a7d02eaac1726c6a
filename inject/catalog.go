// Catalog: the BORN record of every unit, written once per run.

package inject

import "github.com/agentfootprint/agentfootprint-go/tool"

// TriggerDecl is a unit's trigger as declared (not evaluated).
type TriggerDecl struct {
	Kind  TriggerKind `json:"kind"`
	Label string      `json:"label,omitempty"`
	Tools []string    `json:"tools,omitempty"`
}

// CatalogEntry is one element of contextCatalog: what a unit is, where it was
// defined and the hash of its text. Tools appear too, with Kind "tool",
// an id "tool/<name>" and the hash of their schema. The text is inline in
// Content, or, when the agent stores it as a blob, referenced by ContentRef.
type CatalogEntry struct {
	ID          string       `json:"id"`
	Kind        string       `json:"kind"`
	Slot        Slot         `json:"slot,omitempty"`
	Trigger     *TriggerDecl `json:"trigger,omitempty"`
	ContentHash string       `json:"contentHash,omitempty"`
	Chars       int          `json:"chars,omitempty"`
	DefinedAt   *tool.Site   `json:"definedAt,omitempty"`
	Content     string       `json:"content,omitempty"`
	ContentRef  string       `json:"contentRef,omitempty"`
	SchemaHash  string       `json:"schemaHash,omitempty"`
	Priority    int          `json:"priority,omitempty"`
	Version     string       `json:"version,omitempty"`
}
