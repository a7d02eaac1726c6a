// This file holds the provider self-check used by the CLI's doctor command.

package llm

import "context"

// Diagnosis is the outcome of one configuration check: Check names it
// ("key", "server", "model"); Message is one sentence, saying what to fix
// when OK is false. Skipped marks a check that could not run here (the
// server lists no models, say): OK is then false, yet nothing failed.
type Diagnosis struct {
	Check   string `json:"check"`
	OK      bool   `json:"ok"`
	Skipped bool   `json:"skipped,omitempty"`
	Message string `json:"message"`
}

// Diagnoser is implemented by wire clients that can check their own
// configuration: whether a key is set, whether anything answers at the
// base URL, and whether the model is available there. Diagnose makes only
// cheap read-only calls and never sends a prompt.
type Diagnoser interface {
	Diagnose(ctx context.Context) []Diagnosis
}
