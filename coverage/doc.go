// Package coverage is how a tool result says what ground it stands on, and how the framework
// reads, judges and serves that statement.
//
// A tool author uses three doors: constructors a tool's result passes through, each of which
// checks a declaration and either builds the envelope or refuses it. [Absent] says "I looked here
// and found nothing", [Wrap] says "this value covers this ground and not that", and [Described]
// hands back typed rows read from a system of record. Each door either mints a fresh wire envelope (af_absent, af_coverage,
// af_semantics) with a fixed key order, or returns a [*Refusal] whose text starts "refused: " and
// names the field at fault. Every door has a typed form taking Go structs and a data form taking a
// decoded JSON object or JSON bytes; both ask the same rule functions.
//
// A result may declare a [Period]: the span its read asked about, the span the store held (or
// "unknown") and when the read ran. [VerdictOf] compares the instants and says whether the store
// covered the asked span.
//
// The framework reads envelopes through one channel, [ReadCoverageResult], which never repairs a
// foreign declaration: a malformed period, provenance or item detail is left off the record (with
// one warning per tool to the caller's logger, see [WithWarner]), and the envelope is still served
// as written. [Served] derives what the
// model reads: record-only keys removed, the verdict word and one static clause added for a period
// the store does not fully hold.
//
// The envelope markers, key names and orders and the static sentences the model reads live in the
// subpackage coverage/wire; a tool author does not need them. The package imports only the
// standard library, the module's internal instant grammar and coverage/wire, so a tool's package
// can depend on it alone.
package coverage

//go:generate go test -run=^TestCanonicalNotesUpToDate$ . -args -update
