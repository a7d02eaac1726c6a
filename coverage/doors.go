// This file holds the three doors a tool author declares a result through, each with a typed form
// and a data form: Absent ("I looked here and found nothing"), Wrap ("this value covers this ground
// and not that") and Described (typed rows read from a system of record).

package coverage

import (
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"
)

// AbsenceDecl is what a tool author declares when a search found nothing. At this typed door an
// empty string or a nil pointer or slice means the field was left out.
type AbsenceDecl struct {
	// What names what was looked for. Required: an absence that cannot say what it did not find
	// looks like a tool that returned nothing by accident.
	What string
	// Checked is the ground the search covered. Required and non-empty, except with Among (the
	// names facet comes first) or CheckedDeclared.
	Checked []Item
	// CheckedDeclared leaves checked to the dispatcher, which composes it from the tool's search
	// declaration and the call's arguments. Checked must then be empty.
	CheckedDeclared bool
	// NotChecked is ground this search could have covered and did not.
	NotChecked []Item
	// CannotCover is ground no call to this tool reaches; each item needs a Why.
	CannotCover []Item
	// TryInstead is one sentence for the model on where to go instead.
	TryInstead string
	// TryInsteadTool names the one other tool the suggestion points at, as data.
	TryInsteadTool *ToolSuggestion
	// Provenance says where the search looked and how old that source is. Refused with Among.
	Provenance *Provenance
	// Period says what span of time the search's read covered.
	Period *Period
	// Resolved is the tool's claim of the entity each population value resolved to.
	Resolved []Resolved
	// Paging says whether there is a next page.
	Paging *Paging
	// Among declares the list a missed name was looked up in.
	Among *Among
}

// Absent mints an af_absent envelope from a typed declaration, or returns a [*Refusal] naming the
// first fault.
func Absent(d AbsenceDecl) (Envelope, error) {
	a, err := engine.Absent(d.engine())
	if err != nil {
		return nil, refusalOf(err)
	}
	return Envelope(a.Wire()), nil
}

// AbsentData mints an af_absent envelope from a declaration given as data: a decoded JSON object
// (a [wire.Object] or a map[string]any) or JSON bytes, spelled camelCase as an author writes it.
// Unknown keys and null values are refused or read by the same rules as [Absent].
func AbsentData(decl any) (Envelope, error) {
	a, err := engine.AbsentData(decl)
	if err != nil {
		return nil, refusalOf(err)
	}
	return Envelope(a.Wire()), nil
}

// LedgerDecl is what a tool author declares around a result. A nil slice or pointer means left out.
type LedgerDecl struct {
	// Checked is the ground the result stands on.
	Checked []Item
	// CheckedDeclared leaves checked to the dispatcher (the tool's search declaration).
	CheckedDeclared bool
	// NotChecked is ground the answering call could have covered and did not.
	NotChecked []Item
	// CannotCover is ground no call to this tool reaches; each item needs a Why.
	CannotCover []Item
	// Period says what span of time the read behind the result covered.
	Period *Period
	// InProgress lists what the read saw still running. Present (even empty) needs Checked.
	InProgress []InProgressItem
}

// Wrap mints a coverage ledger (an af_coverage envelope) around result, or returns a [*Refusal]
// naming the first fault. The result is kept untouched; an [Envelope] minted by another door may be
// the result. A result with no boundary to declare is returned plain, without this door.
func Wrap(result any, d LedgerDecl) (Envelope, error) {
	c, err := engine.Wrap(resultOf(result), d.engine())
	if err != nil {
		return nil, refusalOf(err)
	}
	return Envelope(c.Wire()), nil
}

// WrapData mints a coverage ledger around result from a declaration given as data (a decoded JSON
// object or JSON bytes, camelCase). It applies the same rules as [Wrap].
func WrapData(result any, decl any) (Envelope, error) {
	c, err := engine.WrapData(resultOf(result), decl)
	if err != nil {
		return nil, refusalOf(err)
	}
	return Envelope(c.Wire()), nil
}

// DescribedDecl is what a tool author declares for rows read from a system of record: measured
// points (Series), rows about entities (Facts) or relationships (Edges), with the caveats that make
// them honest. The door copies the rows as JSON data. Series and Facts need Provenance; Series also
// needs Grain. A declaration with only Edges, or only a Clarify question, needs neither. Period
// follows the absence rules; Coverage holds the three lists and may not be empty. A nil value
// means left out.
type DescribedDecl struct {
	Series     []any
	Facts      []any
	Edges      []any
	Grain      *Grain
	Provenance *Provenance
	Period     *Period
	Coverage   *Ground
	Clarify    *Clarify
	Render     *Render
}

// Described mints an af_semantics envelope from a typed declaration, or returns a [*Refusal].
func Described(d DescribedDecl) (Envelope, error) {
	s, err := engine.Described(d.engine())
	if err != nil {
		return nil, refusalOf(err)
	}
	return Envelope(s.Wire()), nil
}

// DescribedData mints an af_semantics envelope from a declaration given as data (a decoded JSON
// object or JSON bytes, camelCase), by the same rules as [Described]. `clarify: null` is kept: it
// states that the tool considered ambiguity and found none.
func DescribedData(decl any) (Envelope, error) {
	s, err := engine.DescribedData(decl)
	if err != nil {
		return nil, refusalOf(err)
	}
	return Envelope(s.Wire()), nil
}

// Envelope is a minted envelope (af_absent, af_coverage or af_semantics) in its wire form: the
// members in the exact key order the wire requires. A tool returns it as its result; the framework
// recognizes it as the declaration it is. It encodes as that JSON object.
type Envelope wire.Object

// MarshalJSON encodes the envelope's members in order, without HTML escaping.
func (e Envelope) MarshalJSON() ([]byte, error) { return wire.Object(e).MarshalJSON() }

// resultOf hands the result a ledger wraps to the engine, an Envelope as the object it holds, so
// an absence wrapped in a ledger is recognized inside it.
func resultOf(result any) any {
	if e, ok := result.(Envelope); ok {
		return wire.Object(e)
	}
	return result
}
