// This file holds the wire vocabulary: markers, literal words, key names and key orders. These are
// facts shared with every other implementation, so they never change spelling.

package engine

const readAtCamelKey = "readAt"

// ItemKind names what kind of unreached ground a not_checked or cannot_cover item is. The set is
// closed today, but readers keep a default arm so a later member is an additive change.
type ItemKind string

// The item kinds.
const (
	KindExistence ItemKind = "existence"
	KindScope     ItemKind = "scope"
)

// itemKinds returns the item kinds in their published order.
func itemKinds() []ItemKind { return []ItemKind{KindExistence, KindScope} }

// Verdict says how much of the span a read asked about the store held.
type Verdict string

// The verdicts. Every one but VerdictCovered is served to the model.
const (
	VerdictCovered    Verdict = "covered"
	VerdictPartlyHeld Verdict = "partly-held"
	VerdictNotHeld    Verdict = "not-held"
	VerdictUnknown    Verdict = "unknown"
)

// keySpelling says which door's key names a problem uses: the author's camelCase or the wire's
// snake_case. Only readAt / read_at and the list names differ.
type keySpelling int

// The two spellings.
const (
	inCamel keySpelling = iota
	onWire
)

func (s keySpelling) readAt() string {
	if s == onWire {
		return ReadAtKey
	}
	return readAtCamelKey
}

// list key names per spelling.
func (s keySpelling) notChecked() string {
	if s == onWire {
		return "not_checked"
	}
	return "notChecked"
}

func (s keySpelling) cannotCover() string {
	if s == onWire {
		return "cannot_cover"
	}
	return "cannotCover"
}
