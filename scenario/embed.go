// This file holds the files the package carries: the scenario JSON Schema and the demo
// scenario.

package scenario

import (
	_ "embed"
)

//go:embed scenario.schema.json
var schemaJSON []byte

//go:embed examples/ops-triage.json
var demoJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of the scenario file format. The slice is
// a fresh copy.
func Schema() []byte { return append([]byte(nil), schemaJSON...) }

// DemoFile returns the operations-triage scenario that `agentfootprint demo` runs, as the
// JSON text of a scenario file. The slice is a fresh copy.
func DemoFile() []byte { return append([]byte(nil), demoJSON...) }

// Demo parses DemoFile.
func Demo() (*File, error) { return Parse(demoJSON) }
