// Package coverage is how a tool's result says what ground it stands on: what its search covered,
// what it did not, and what span of time its read held.
//
// A tool author declares a result through one of three doors. A door is a constructor a tool's
// result passes through: it checks the declaration and either mints the envelope (a JSON object
// with a reserved marker key the framework recognizes) or refuses it. [Absent] says "I looked here
// and found nothing" (marker af_absent), [Wrap] says "this value covers this ground and not that"
// (af_coverage, around the value) and [Described] hands back typed rows read from a system of
// record (af_semantics). Every door has a typed form taking Go structs and a data form
// ([AbsentData], [WrapData], [DescribedData]) taking a decoded JSON object or JSON bytes; both ask
// the same rules. A door returns the minted [Envelope], which the tool returns as its result, or a
// [*Refusal] whose text starts "refused: " and names the field at fault.
//
// A result may declare a [Period]: the span its read asked about, the span the store held (or
// that the store cannot tell) and when the read ran. [VerdictOf] compares the instants and says
// whether the store covered the asked span.
//
// What the framework does with an envelope (recognizing it, recording it, serving the model its
// words) is in the subpackage coverage/boundary, and the envelope markers, the static sentences
// the model is served and the ordered JSON object are in coverage/wire; a tool author needs
// neither. coverage/canonical-notes.json publishes the whole wire vocabulary (markers, key names
// and orders, literal words, sentences) for minters in other languages. The package imports only the standard library, its own subpackages and the module's internal coverage engine, nothing of
// the agent, so a tool's package can depend on it alone.
package coverage

//go:generate go test -run=^TestCanonicalNotesUpToDate$ ../internal/coverage/engine -args -update
