// Package scenario runs an agent from a JSON file: the agent's options and context units,
// tools with canned results, the model's scripted replies, the person's turns, and what to
// expect. A scenario runs offline on the scripted model, so it pins an agent's behaviour in
// a test the way a golden file pins a function's output:
//
//	rep, err := scenario.RunFile(ctx, "testdata/triage.json")
//	if err != nil {
//		t.Fatal(err) // a malformed file names the field: tools[1].results[0].status: …
//	}
//	for _, m := range rep.Check() {
//		t.Error(m) // expect.toolCalls[1]: want a call of search_logs, got service_status
//	}
//
// The format is documented in docs/SCENARIOS.md and described by the JSON Schema that
// Schema returns. Parse refuses every malformed file with a *FieldError naming the field
// path (an unknown key is named with the keys allowed there, and the closest one when one is
// close), and never panics.
//
// A tool's results are served by call order, or by matching the call's arguments; each is a
// value (plain JSON or text, optionally with a status or wrapped in a coverage declaration),
// an error, a panic, a pause that waits for a person, an absence or a described result. The
// coverage declarations go through the coverage package's data doors, so what the model is
// served is exactly what a Go tool returning the same envelope would serve.
//
// The Report carries the answer, the tool results as served, the coverageDeclared rows,
// the findings ledger and the standing when the results layer is armed, every event and the
// last turn's run record. Its JSON form is the `agentfootprint scenario run --json` output.
//
// DemoFile is the operations-triage scenario `agentfootprint demo` runs; copy it to start
// a scenario of your own.
package scenario
