// Package boundary is the framework side of package coverage. A tool author needs only package
// coverage; the agent, the honesty layers, the MCP bridge and the CLI use this one.
//
// The dispatch boundary is the point where the agent receives a tool's result. There [Read]
// recognizes the result's envelope once (an absence, a coverage ledger or a described result,
// each minted by one of coverage's three doors, the constructors a tool author declares a result
// with: Absent, Wrap and Described) and returns everything the dispatcher needs: the declarations to record, what was left off the record and why, the
// described values, and what the model is served. Reading never repairs a foreign declaration:
// a malformed period, provenance or item detail is left off the record, named in the problems
// and warned about once per tool (see [Warner]), and the envelope is still served as written.
//
// [Reading].Served is what the model reads: record-only keys removed, the verdict word and one
// static clause added for a period the store does not fully hold. [Facts.Row] is the record row a
// declaration becomes ([coverage.DeclaredCoverage]); [PeriodRow] is the row the results layer files
// on the findings ledger for a call's period.
package boundary
