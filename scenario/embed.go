// This file holds the files the package carries: the scenario JSON Schema and the demo's
// two scenarios.

package scenario

import (
	_ "embed"
)

//go:embed scenario.schema.json
var schemaJSON []byte

//go:embed examples/ops-triage.json
var demoJSON []byte

//go:embed examples/clamped-lookback.json
var lookbackJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of the scenario file format. The slice is
// a fresh copy.
func Schema() []byte { return append([]byte(nil), schemaJSON...) }

// DemoFile returns the operations-triage scenario that `agentfootprint demo` runs, as the
// JSON text of a scenario file. The slice is a fresh copy.
func DemoFile() []byte { return append([]byte(nil), demoJSON...) }

// Demo parses DemoFile.
func Demo() (*File, error) { return Parse(demoJSON) }

// LookbackDemoFile returns the second part of `agentfootprint demo`: the person asks about
// 30 days, the log store reads the last 7, and the line the person reads under the answer
// says so in their zone. The slice is a fresh copy of examples/clamped-lookback.json.
func LookbackDemoFile() []byte { return append([]byte(nil), lookbackJSON...) }

// LookbackDemo parses LookbackDemoFile.
func LookbackDemo() (*File, error) { return Parse(lookbackJSON) }
