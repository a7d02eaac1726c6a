// This file holds the period a result declares: its shapes, the one ordered rule set every door
// asks, mint / read / copy, and the verdict over its instants.

package engine

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Span is a closed range of two declared instants. The strings are kept exactly as declared.
type Span struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Held is what the store held at read time: a span, or Unknown when the tool says it cannot tell.
// It encodes as the literal "unknown" or as a span.
type Held struct {
	Unknown bool
	Span
}

// HeldSpan returns a Held holding the span from..to.
func HeldSpan(from, to string) Held { return Held{Span: Span{From: from, To: to}} }

// HeldUnknownSpan returns the Held that says the store cannot tell what it holds.
func HeldUnknownSpan() Held { return Held{Unknown: true} }

// MarshalJSON encodes "unknown" or {"from","to"}.
func (h Held) MarshalJSON() ([]byte, error) {
	if h.Unknown {
		return []byte(`"unknown"`), nil
	}
	return encodeJSON(h.Span)
}

// UnmarshalJSON reads "unknown" or a span; any other string is an error.
func (h *Held) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		if s != HeldUnknown {
			return fmt.Errorf("coverage: held must be a span or %q", HeldUnknown)
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
// spelled read_at; see [Period.Wire].
type Period struct {
	Queried Span   `json:"queried"`
	Held    Held   `json:"held"`
	ReadAt  string `json:"readAt,omitempty"`
}

// Wire returns the period in wire form: queried, held, then read_at when set.
func (p Period) Wire() Object { return p.object(onWire) }

func (p Period) object(sp keySpelling) Object {
	o := Object{
		{Key: QueriedKey, Value: Object{{Key: FromKey, Value: p.Queried.From}, {Key: ToKey, Value: p.Queried.To}}},
	}
	if p.Held.Unknown {
		o = append(o, Member{Key: HeldKey, Value: HeldUnknown})
	} else {
		o = append(o, Member{Key: HeldKey, Value: Object{{Key: FromKey, Value: p.Held.From}, {Key: ToKey, Value: p.Held.To}}})
	}
	if p.ReadAt != "" {
		o = append(o, Member{Key: sp.readAt(), Value: p.ReadAt})
	}
	return o
}

// periodProblem returns the first fault of a declared period, or nil when it is well formed. v is
// a decoded JSON object (an [Object] or a map[string]any) or a [Period]; sp says whether the
// reader expects readAt (author doors) or read_at (the wire). The checks run in a fixed order: a
// plain object, no unknown key (a verdict word included), queried a span of instants with from not
// after to, held the literal "unknown" or such a span, and readAt an instant when present.
func periodProblem(v any, sp keySpelling) *Problem {
	switch t := v.(type) {
	case Period:
		v = t.object(sp)
	case *Period:
		if t != nil {
			v = t.object(sp)
		}
	}
	return periodProblemAt(v, sp, PeriodKey)
}

func periodProblemAt(v any, sp keySpelling, at string) *Problem {
	ra := sp.readAt()
	o, ok := plainObject(v)
	if !ok {
		return problemf(at, "%s must be an object {%s, %s, %s?}; it is %s", rootName(at), QueriedKey, HeldKey, ra, clipQuote(v))
	}
	if p := checkUnknown(o, at, []string{QueriedKey, HeldKey, ra}); p != nil {
		return p
	}
	q, _ := o.Get(QueriedKey)
	if q == nil {
		return problemf(join(at, QueriedKey), "%s is required: the span of time the read asked for, as {from, to}", rootName(join(at, QueriedKey)))
	}
	if p := spanProblem(q, join(at, QueriedKey)); p != nil {
		return p
	}
	h, _ := o.Get(HeldKey)
	heldAt := join(at, HeldKey)
	if h == nil {
		return problemf(heldAt, "%s is required: the span the store held when it was read, or the literal `%s` said outright when the tool cannot tell", rootName(heldAt), HeldUnknown)
	}
	if s, isString := h.(string); isString {
		if s != HeldUnknown {
			return problemf(heldAt, "%s is %s; it may only be a {from, to} span or the exact literal `%s`", rootName(heldAt), clipQuote(s), HeldUnknown)
		}
	} else if p := spanProblem(h, heldAt); p != nil {
		return p
	}
	if r, present := o.Get(ra); present && r != nil {
		if p := instantProblem(r, join(at, ra)); p != nil {
			return p
		}
	}
	return nil
}

func spanProblem(v any, at string) *Problem {
	o, ok := plainObject(v)
	if !ok {
		return problemf(at, "%s must be a span {from, to}; it is %s", rootName(at), clipQuote(v))
	}
	if p := checkUnknown(o, at, []string{FromKey, ToKey}); p != nil {
		return p
	}
	f, _ := o.Get(FromKey)
	if p := instantProblem(f, join(at, FromKey)); p != nil {
		return p
	}
	t, _ := o.Get(ToKey)
	if p := instantProblem(t, join(at, ToKey)); p != nil {
		return p
	}
	ft, _ := ParseInstant(f.(string))
	tt, _ := ParseInstant(t.(string))
	if ft.After(tt) {
		return problemf(at, "%s runs backwards: `from` %s is later than `to` %s, and `from` may not be later than `to`", rootName(at), clipQuote(f), clipQuote(t))
	}
	return nil
}

func instantProblem(v any, at string) *Problem {
	s, isText := v.(string)
	if !isText {
		return problemf(at, "%s needs an ISO 8601 instant with its zone, such as 2026-09-26T09:00:00Z or 2026-09-26T11:00:00+02:00; it is %s", rootName(at), typeWord(v))
	}
	_, fault := parseInstant(s)
	if fault == "" {
		return nil
	}
	return problemf(at, "%s is %s, which is not an ISO 8601 instant such as 2026-09-26T09:00:00Z or 2026-09-26T11:00:00+02:00: %s", rootName(at), clipQuote(v), fault)
}

// MintPeriod checks an author's (camelCase) period and returns its fresh wire form. nil means not
// declared and returns (nil, nil). A malformed period returns a [*Refusal] naming the camelCase
// field at fault.
func MintPeriod(decl any) (Object, error) {
	p, prob := mintPeriod(decl, PeriodKey)
	if prob != nil {
		return nil, prob.refusal()
	}
	if p == nil {
		return nil, nil
	}
	return p.Wire(), nil
}

// mintPeriod checks a camelCase declaration and returns the typed period.
func mintPeriod(decl any, at string) (*Period, *Problem) {
	switch t := decl.(type) {
	case nil:
		return nil, nil
	case *Period:
		if t == nil {
			return nil, nil
		}
		decl = t.object(inCamel)
	case Period:
		decl = t.object(inCamel)
	case []byte, json.RawMessage:
		v, err := DecodeJSON(toBytes(t))
		if err != nil {
			return nil, problemf(at, "%s is not readable JSON: %v", rootName(at), err)
		}
		decl = v
	}
	if p := periodProblemAt(decl, inCamel, at); p != nil {
		return nil, p
	}
	p := periodFrom(decl, inCamel)
	return &p, nil
}

func toBytes(v any) []byte {
	switch t := v.(type) {
	case json.RawMessage:
		return t
	case []byte:
		return t
	}
	return nil
}

// periodFrom copies a checked period object into a Period.
func periodFrom(v any, sp keySpelling) Period {
	o, _ := plainObject(v)
	var p Period
	q, _ := o.Get(QueriedKey)
	p.Queried = spanFrom(q)
	h, _ := o.Get(HeldKey)
	if s, ok := h.(string); ok && s == HeldUnknown {
		p.Held = Held{Unknown: true}
	} else {
		p.Held = Held{Span: spanFrom(h)}
	}
	if r, ok := o.Get(sp.readAt()); ok {
		p.ReadAt, _ = r.(string)
	}
	return p
}

func spanFrom(v any) Span {
	o, _ := plainObject(v)
	f, _ := o.Get(FromKey)
	t, _ := o.Get(ToKey)
	fs, _ := f.(string)
	ts, _ := t.(string)
	return Span{From: fs, To: ts}
}

// periodReading is what a reader found under an envelope's period key: a Period when it was well
// formed, a Problem when it was not, neither when none was declared.
type periodReading struct {
	Period  *Period
	Problem *Problem
}

// readPeriod reads a wire period without repairing it: nil gives an empty reading, a malformed
// value gives its Problem (wire spelling), and a well-formed one gives a fresh camelCase copy.
func readPeriod(wire any) periodReading {
	if wire == nil {
		return periodReading{}
	}
	if p := periodProblemAt(wire, onWire, PeriodKey); p != nil {
		return periodReading{Problem: p}
	}
	p := periodFrom(wire, onWire)
	return periodReading{Period: &p}
}

// ErrMalformedPeriod is wrapped by the error [VerdictOf] returns for a period that breaks the rule
// set: a caller error, since every period the library files was checked first.
var ErrMalformedPeriod = errors.New("coverage: malformed period")

// VerdictOf compares a period's instants, bounds inclusive: unknown when held is unknown; covered
// when held contains queried; not-held when they do not meet; partly-held otherwise (touching at
// one instant counts as holding).
func VerdictOf(p Period) (Verdict, error) {
	if prob := periodProblem(p, inCamel); prob != nil {
		return "", fmt.Errorf("%w: %s: %s", ErrMalformedPeriod, prob.Field, prob.Message)
	}
	return verdictOfChecked(p), nil
}

// CheckedVerdict is VerdictOf for an author's period: a period that breaks the rule set gets a
// [*Refusal] naming the camelCase field at fault.
func CheckedVerdict(p Period) (Verdict, error) {
	if prob := periodProblem(p, inCamel); prob != nil {
		return "", prob.refusal()
	}
	return verdictOfChecked(p), nil
}

func verdictOfChecked(p Period) Verdict {
	if p.Held.Unknown {
		return VerdictUnknown
	}
	qf, _ := ParseInstant(p.Queried.From)
	qt, _ := ParseInstant(p.Queried.To)
	hf, _ := ParseInstant(p.Held.From)
	ht, _ := ParseInstant(p.Held.To)
	switch {
	case !hf.After(qf) && !qt.After(ht):
		return VerdictCovered
	case qt.Before(hf) || qf.After(ht):
		return VerdictNotHeld
	default:
		return VerdictPartlyHeld
	}
}

// LeastHeld returns the weakest verdict in vs (not-held, then partly-held, then unknown, then
// covered), so a call that declared several periods is never credited with more than its weakest
// one. It returns false when vs holds no verdict it knows.
func LeastHeld(vs []Verdict) (Verdict, bool) {
	for _, want := range []Verdict{VerdictNotHeld, VerdictPartlyHeld, VerdictUnknown, VerdictCovered} {
		for _, v := range vs {
			if v == want {
				return want, true
			}
		}
	}
	return "", false
}
