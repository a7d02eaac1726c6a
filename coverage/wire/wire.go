// Package wire holds what a reader of tool results needs of the wire package coverage writes: the
// envelope markers, the refusal prefix and the heading of the limits block. These are facts shared
// with every other implementation (a tool written in Python or TypeScript mints the same bytes), so
// they never change spelling. A tool author does not need this package: the coverage doors write
// these words. Every key name, key order, literal word and served sentence (the notes and clauses
// the framework adds to what the model reads) is published for minters and readers in other
// languages in coverage/canonical-notes.json.
//
// The package also holds the ordered JSON object the wire is written in ([Object]) and its codec:
// [DecodeJSON] keeps key order and every byte of a string (a value that is not valid UTF-8 is kept,
// so a reader can name the fault), and [Marshal] writes members in order without HTML escaping.
package wire

// Markers: the reserved key that makes a JSON object an envelope.
const (
	// AbsenceMarker marks an absence: "I looked here and found nothing".
	AbsenceMarker = "af_absent"
	// CoverageMarker marks a coverage ledger wrapped around a result.
	CoverageMarker = "af_coverage"
	// SemanticsMarker marks a described result: typed rows from a system of record.
	SemanticsMarker = "af_semantics"
)

// RefusedPrefix starts the text of every refusal a door returns, whichever language minted it.
const RefusedPrefix = "refused: "
