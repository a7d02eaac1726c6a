// This file holds the wire vocabulary: markers, literal words, key names and key orders. These are
// facts shared with every other implementation, so they never change spelling.

package coverage

// Markers: the reserved key that makes an object an envelope.
const (
	AbsenceMarker   = "af_absent"
	CoverageMarker  = "af_coverage"
	SemanticsMarker = "af_semantics"
)

// Literal words of the wire.
const (
	// AbsenceOutcome is the value of an absence's "outcome" key.
	AbsenceOutcome = "nothing_found"
	// RefusedPrefix starts the text of every refusal.
	RefusedPrefix = "refused: "
	// ServedVerdictKey is the key the served verdict word sits under, last in a served period.
	ServedVerdictKey = "verdict"
	// MaxShortChars is the longest a short form may be, in UTF-16 code units.
	MaxShortChars = 80
	// DeclaredChecked is the literal a "checked" list is replaced by when the dispatch funnel
	// composes it from the tool's search declaration.
	DeclaredChecked = "declared"
)

// Period and in-progress key names on the wire.
const (
	PeriodKey      = "period"
	QueriedKey     = "queried"
	HeldKey        = "held"
	FromKey        = "from"
	ToKey          = "to"
	ReadAtKey      = "read_at"
	HeldUnknown    = "unknown"
	InProgressKey  = "in_progress"
	CountKey       = "count"
	readAtCamelKey = "readAt"
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

// ItemKind names what kind of unreached ground a not_checked or cannot_cover item is. The set is
// closed today, but readers keep a default arm so a later member is an additive change.
type ItemKind string

// The item kinds.
const (
	KindExistence ItemKind = "existence"
	KindScope     ItemKind = "scope"
)

// ItemKinds returns the item kinds in their published order.
func ItemKinds() []ItemKind { return []ItemKind{KindExistence, KindScope} }

// RecordOnlyItemKeys returns the item keys the record keeps and the model is never served.
func RecordOnlyItemKeys() []string { return []string{"short", "kind"} }

// AbsenceKeys returns the af_absent envelope's keys in wire order.
func AbsenceKeys() []string {
	return []string{AbsenceMarker, "outcome", "looked_for", "checked", "not_checked", "cannot_cover",
		"provenance", PeriodKey, "resolved", "paging", "retry_returns_the_same", "try_instead",
		"try_instead_tool", "note"}
}

// CoverageKeys returns the keys inside an af_coverage object, in wire order.
func CoverageKeys() []string {
	return []string{"checked", "not_checked", "cannot_cover", InProgressKey, PeriodKey, "note"}
}

// CoveredResultKeys returns the outer keys of a coverage ledger, in wire order.
func CoveredResultKeys() []string { return []string{CoverageMarker, "result"} }

// SemanticsKeys returns the af_semantics envelope's keys in wire order.
func SemanticsKeys() []string {
	return []string{SemanticsMarker, "series", "facts", "edges", "grain", "provenance", PeriodKey,
		"coverage", "not_covered", "clarify", "render", "note"}
}

// ItemKeys returns a coverage item's keys in order.
func ItemKeys() []string { return []string{"what", "why", "short", "kind"} }

// InProgressItemKeys returns an in-progress item's keys in order.
func InProgressItemKeys() []string { return []string{"what", "why", "short", CountKey} }

// ProvenanceKeys returns the provenance keys in wire order.
func ProvenanceKeys() []string {
	return []string{"measured_at", "age_seconds", "source", "source_export_date"}
}

// Verdict says how much of the span a read asked about the store held.
type Verdict string

// The verdicts. Every one but VerdictCovered is served to the model.
const (
	VerdictCovered    Verdict = "covered"
	VerdictPartlyHeld Verdict = "partly-held"
	VerdictNotHeld    Verdict = "not-held"
	VerdictUnknown    Verdict = "unknown"
)

// Verdicts returns every verdict, in the order the rule table lists them.
func Verdicts() []Verdict {
	return []Verdict{VerdictCovered, VerdictPartlyHeld, VerdictNotHeld, VerdictUnknown}
}

// Spelling says which door's key names a problem uses: the author's camelCase or the wire's
// snake_case. Only readAt / read_at and the list names differ.
type Spelling int

// The two spellings.
const (
	Camel Spelling = iota
	Wire
)

func (s Spelling) readAt() string {
	if s == Wire {
		return ReadAtKey
	}
	return readAtCamelKey
}

// list key names per spelling.
func (s Spelling) notChecked() string {
	if s == Wire {
		return "not_checked"
	}
	return "notChecked"
}

func (s Spelling) cannotCover() string {
	if s == Wire {
		return "cannot_cover"
	}
	return "cannotCover"
}
