// Catalog: the BORN record of every unit, written once per run.

package inject

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
	DefinedAt   *Site        `json:"definedAt,omitempty"`
	Content     string       `json:"content,omitempty"`
	ContentRef  string       `json:"contentRef,omitempty"`
	SchemaHash  string       `json:"schemaHash,omitempty"`
	Priority    int          `json:"priority,omitempty"`
	Version     string       `json:"version,omitempty"`
}

// Entry returns the unit's catalog entry with its text inline.
func (u *Unit) Entry() CatalogEntry {
	td := &TriggerDecl{Kind: u.trig}
	switch u.trig {
	case TriggerRule:
		td.Label = u.rule.Label
	case TriggerOnToolReturn:
		td.Tools = append([]string(nil), u.tools...)
		if u.toolRe != nil {
			td.Tools = append(td.Tools, "/"+u.toolRe.String()+"/")
		}
	case TriggerRetrieved:
		td.Label = u.retrieval.Name()
	case TriggerLLMActivated:
		td.Tools = append([]string(nil), u.skillTo...)
	}
	site := u.site
	return CatalogEntry{
		ID: u.id, Kind: string(u.kind), Slot: u.slot, Trigger: td,
		ContentHash: u.hash, Chars: u.chars, DefinedAt: &site, Content: u.text,
		Priority: u.priority, Version: u.version,
	}
}
