// This file holds the wire's key names, key orders and literal words: facts shared with every
// other implementation, published in canonical-notes.json, and never respelled.

package engine

import cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"

// Literal words of the wire.
const (
	// AbsenceOutcome is the value of an absence's "outcome" key.
	AbsenceOutcome = "nothing_found"
	// ServedVerdictKey is the key the served verdict word sits under, last in a served period.
	ServedVerdictKey = "verdict"
	// MaxShortChars is the longest an item's short form may be, in UTF-16 code units.
	MaxShortChars = 80
	// DeclaredChecked is the literal a "checked" list is replaced by when the dispatch funnel
	// composes it from the tool's search declaration.
	DeclaredChecked = "declared"
)

// Period and in-progress key names on the wire.
const (
	PeriodKey     = "period"
	QueriedKey    = "queried"
	HeldKey       = "held"
	FromKey       = "from"
	ToKey         = "to"
	ReadAtKey     = "read_at"
	HeldUnknown   = "unknown"
	InProgressKey = "in_progress"
	CountKey      = "count"
)

// PeriodWireNames spells every key of a wire period and its one literal.
type PeriodWireNames struct {
	Key         string `json:"key"`
	Queried     string `json:"queried"`
	Held        string `json:"held"`
	From        string `json:"from"`
	To          string `json:"to"`
	ReadAt      string `json:"readAt"`
	HeldUnknown string `json:"heldUnknown"`
}

// PeriodWire returns the wire spelling of a period.
func PeriodWire() PeriodWireNames {
	return PeriodWireNames{PeriodKey, QueriedKey, HeldKey, FromKey, ToKey, ReadAtKey, HeldUnknown}
}

// InProgressWireNames spells the in-progress list's key and its count key.
type InProgressWireNames struct {
	Key   string `json:"key"`
	Count string `json:"count"`
}

// InProgressWire returns the wire spelling of the in-progress list.
func InProgressWire() InProgressWireNames {
	return InProgressWireNames{InProgressKey, CountKey}
}

// RecordOnlyItemKeys returns the item keys the record keeps and the model is never served.
func RecordOnlyItemKeys() []string { return []string{"short", "kind"} }

// AbsenceKeys returns the af_absent envelope's keys in wire order.
func AbsenceKeys() []string {
	return []string{cw.AbsenceMarker, "outcome", "looked_for", "checked", "not_checked", "cannot_cover",
		"provenance", PeriodKey, "resolved", "paging", "retry_returns_the_same", "try_instead",
		"try_instead_tool", "note"}
}

// CoverageKeys returns the keys inside an af_coverage object, in wire order.
func CoverageKeys() []string {
	return []string{"checked", "not_checked", "cannot_cover", InProgressKey, PeriodKey, "note"}
}

// CoveredResultKeys returns the outer keys of a coverage ledger, in wire order.
func CoveredResultKeys() []string { return []string{cw.CoverageMarker, "result"} }

// SemanticsKeys returns the af_semantics envelope's keys in wire order.
func SemanticsKeys() []string {
	return []string{cw.SemanticsMarker, "series", "facts", "edges", "grain", "provenance", PeriodKey,
		"coverage", "not_covered", "clarify", "render", "note"}
}

// ItemKeys returns a coverage item's keys in order.
func ItemKeys() []string { return []string{"what", "why", "short", "kind"} }

// InProgressItemKeys returns an in-progress item's keys in order.
func InProgressItemKeys() []string { return []string{"what", "why", "short", CountKey} }

// ProvenanceKeys returns the provenance keys in the order used when no author order is known.
func ProvenanceKeys() []string {
	return []string{"measured_at", "age_seconds", "source", "source_export_date"}
}
