// This file holds the period a result declares (the span its read asked about, the span the store
// held, and when the read ran) and the verdict over its instants.

package coverage

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"
)

// Span is a closed range of two declared instants. The strings are kept exactly as declared.
type Span struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Held is what the store held at read time: a span (Held{Span: Span{From: a, To: b}}), or
// Held{Unknown: true} when the tool says it cannot tell. It encodes as the literal "unknown" or as
// a span.
type Held struct {
	Unknown bool
	Span
}

// MarshalJSON encodes "unknown" or {"from","to"}.
func (h Held) MarshalJSON() ([]byte, error) {
	if h.Unknown {
		return []byte(`"` + engine.HeldUnknown + `"`), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h.Span); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads "unknown" or a span; any other string is an error.
func (h *Held) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		if s != engine.HeldUnknown {
			return fmt.Errorf("coverage: held must be a span or %q", engine.HeldUnknown)
		}
		*h = Held{Unknown: true}
		return nil
	}
	var sp Span
	if err := json.Unmarshal(b, &sp); err != nil {
		return err
	}
	*h = Held{Span: sp}
	return nil
}

// Period is what a result's read covered in time, in the record's camelCase form: the span the
// read asked for, what the store held, and optionally when the read ran. On the wire readAt is
// spelled read_at.
type Period struct {
	Queried Span   `json:"queried"`
	Held    Held   `json:"held"`
	ReadAt  string `json:"readAt,omitempty"`
}

// Verdict says how much of the span a read asked about the store held.
type Verdict string

// The verdicts. Every one but VerdictCovered is served to the model.
const (
	VerdictCovered    Verdict = "covered"
	VerdictPartlyHeld Verdict = "partly-held"
	VerdictNotHeld    Verdict = "not-held"
	VerdictUnknown    Verdict = "unknown"
)

// VerdictOf compares a period's instants, bounds inclusive: unknown when held is unknown; covered
// when held contains queried; not-held when they do not meet; partly-held otherwise (touching at
// one instant counts as holding). A period that breaks the period rules (an instant without its
// zone, a span running backwards, …) gets a [*Refusal] naming the camelCase field at fault.
func VerdictOf(p Period) (Verdict, error) {
	v, err := engine.CheckedVerdict(p.engine())
	if err != nil {
		return "", refusalOf(err)
	}
	return Verdict(v), nil
}
