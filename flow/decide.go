// Deciders and selectors: rules evaluated on a tracking reader, and the
// evidence of what each rule read and concluded.

package flow

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// Reader reads state. [*Scope] implements it with tracked reads; rule
// predicates get a Reader that also records which keys they read.
type Reader interface {
	Get(key string) (any, bool)
	Has(key string) bool
}

// Condition is a declarative test of one key against a threshold. Op is one
// of eq ne gt gte lt lte in notIn; for in and notIn the threshold is a list.
type Condition struct {
	Key       string
	Op        string
	Threshold any
}

// Rule routes to Branch when its predicate holds. A rule has either When
// (a predicate over a tracking reader) or Conditions (ANDed), or both (both
// must hold). Label is the wire word recorded as the reason.
type Rule struct {
	Label      string
	Branch     string
	When       func(Reader) bool
	Conditions []Condition
}

// Decision is the outcome of a decider or selector together with its
// evidence. A decider chooses exactly one branch; a selector zero or more.
// Once returned to the engine a Decision is immutable: commits of a decider
// that decided the same way with the same evidence share one value.
type Decision struct {
	Chosen  []string
	Default bool
	Rules   []RuleEvidence
	// Multi marks a selector decision (chosen is written as a JSON array).
	Multi bool

	one [1]string
}

func (d *Decision) choose(branch string) {
	d.one[0] = branch
	d.Chosen = d.one[:1:1]
}

// RuleEvidence is what one evaluated rule read and concluded.
type RuleEvidence struct {
	Index      int                 `json:"index"`
	Branch     string              `json:"branch"`
	Label      string              `json:"label"`
	Matched    bool                `json:"matched"`
	Reads      []string            `json:"reads"`
	Conditions []ConditionEvidence `json:"conditions,omitempty"`
	Error      string              `json:"error,omitempty"`
}

// ConditionEvidence is one condition's outcome; Actual and Threshold are
// bounded JSON summaries (at most 80 characters).
type ConditionEvidence struct {
	Key       string `json:"key"`
	Op        string `json:"op"`
	Threshold string `json:"threshold"`
	Actual    string `json:"actual"`
	Pass      bool   `json:"pass"`
}

type decisionWire struct {
	Chosen  json.RawMessage `json:"chosen"`
	Default bool            `json:"default"`
	Rules   []RuleEvidence  `json:"rules"`
}

// MarshalJSON writes chosen as a string for a decider and an array for a
// selector.
func (d Decision) MarshalJSON() ([]byte, error) {
	var chosen any = d.Chosen
	if !d.Multi {
		c := ""
		if len(d.Chosen) > 0 {
			c = d.Chosen[0]
		}
		chosen = c
	} else if d.Chosen == nil {
		chosen = []string{}
	}
	raw, err := json.Marshal(chosen)
	if err != nil {
		return nil, err
	}
	rules := d.Rules
	if rules == nil {
		rules = []RuleEvidence{}
	}
	return json.Marshal(decisionWire{Chosen: raw, Default: d.Default, Rules: rules})
}

// UnmarshalJSON accepts chosen as a string (decider) or array (selector).
func (d *Decision) UnmarshalJSON(data []byte) error {
	var w decisionWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*d = Decision{Default: w.Default, Rules: w.Rules}
	var one string
	if err := json.Unmarshal(w.Chosen, &one); err == nil {
		d.Chosen = []string{one}
		return nil
	}
	if err := json.Unmarshal(w.Chosen, &d.Chosen); err != nil {
		return &CorruptLogError{Field: "decision.chosen", Reason: "neither a string nor a list of strings"}
	}
	if d.Chosen == nil {
		d.Chosen = []string{}
	}
	d.Multi = true
	return nil
}

// DefaultRule is the rule label recorded in [Control] when no rule matched
// and the decider took its default branch.
const DefaultRule = "default"

// Decide evaluates rules in order on s and chooses the branch of the first
// one that holds, or def when none does. Every key a rule reads is a tracked
// read of the decider stage and is listed in that rule's evidence. A rule
// whose predicate panics counts as not matched and records the panic.
func Decide(s *Scope, rules []Rule, def string) *Decision {
	sc := &s.dec
	sc.Rules, s.evReads = sc.Rules[:0], s.evReads[:0]
	chosen, isDefault := def, true
	for i := range rules {
		ev := evalRule(s, i, &rules[i])
		sc.Rules = append(sc.Rules, ev)
		if ev.Matched {
			chosen, isDefault = rules[i].Branch, false
			break
		}
	}
	sc.Default = isDefault
	return s.settle(sc, chosen)
}

// settle turns the scratch decision into the one recorded. A decider that
// decides exactly as last time (same branch, same evidence) shares that
// immutable Decision instead of storing a copy, so a loop re-deciding the
// same way adds no evidence bytes beyond its commit and control edge.
func (s *Scope) settle(sc *Decision, chosen string) *Decision {
	if !s.par {
		if prev := s.e.memo[s.n.idx].prevDec; prev != nil && sameDecision(prev, sc, chosen) {
			return prev
		}
	}
	var d *Decision
	if s.par {
		d = &Decision{Rules: make([]RuleEvidence, 0, len(sc.Rules))}
	} else {
		d = s.e.r.slab.decision()
		d.Rules = s.e.r.slab.evidence(len(sc.Rules))
	}
	d.Default = sc.Default
	d.choose(chosen)
	for _, ev := range sc.Rules {
		if len(ev.Reads) > 0 {
			if s.par {
				ev.Reads = append([]string(nil), ev.Reads...)
			} else {
				ev.Reads = s.e.r.slab.strings(ev.Reads)
			}
		}
		d.Rules = append(d.Rules, ev)
	}
	if !s.par {
		s.e.memo[s.n.idx].prevDec = d
	}
	return d
}

func sameDecision(prev, sc *Decision, chosen string) bool {
	if prev.Multi || prev.Default != sc.Default || len(prev.Chosen) != 1 || prev.Chosen[0] != chosen ||
		len(prev.Rules) != len(sc.Rules) {
		return false
	}
	for i := range sc.Rules {
		a, b := &prev.Rules[i], &sc.Rules[i]
		if a.Index != b.Index || a.Branch != b.Branch || a.Label != b.Label || a.Matched != b.Matched ||
			a.Error != b.Error || !slices.Equal(a.Reads, b.Reads) || !slices.Equal(a.Conditions, b.Conditions) {
			return false
		}
	}
	return true
}

// Select evaluates every rule on s and chooses the branches of all that hold,
// in rule order, each branch once.
func Select(s *Scope, rules []Rule) *Decision {
	s.evReads = s.evReads[:0]
	d := &Decision{Multi: true, Chosen: []string{}, Rules: make([]RuleEvidence, 0, len(rules))}
	for i := range rules {
		ev := evalRule(s, i, &rules[i])
		if len(ev.Reads) > 0 {
			ev.Reads = append([]string(nil), ev.Reads...)
		}
		d.Rules = append(d.Rules, ev)
		if ev.Matched && !contains(d.Chosen, rules[i].Branch) {
			d.Chosen = append(d.Chosen, rules[i].Branch)
		}
	}
	return d
}

// trackingReader records the keys a predicate reads while passing each read
// through the scope, so it is also a tracked read of the stage.
type trackingReader struct {
	s     *Scope
	reads []string
}

func (t *trackingReader) note(key string) {
	if !contains(t.reads, key) {
		t.reads = append(t.reads, key)
	}
}

func (t *trackingReader) Get(key string) (any, bool) {
	t.note(key)
	return t.s.Get(key)
}

func (t *trackingReader) Has(key string) bool {
	t.note(key)
	return t.s.Has(key)
}

func evalRule(s *Scope, i int, r *Rule) (ev RuleEvidence) {
	ev = RuleEvidence{Index: i, Branch: r.Branch, Label: r.Label}
	tr := &s.tr
	tr.reads = tr.reads[:0]
	defer func() {
		// The reads go to the scope's scratch; settle copies what it keeps.
		start := len(s.evReads)
		s.evReads = append(s.evReads, tr.reads...)
		ev.Reads = s.evReads[start:len(s.evReads):len(s.evReads)]
		if p := recover(); p != nil {
			ev.Matched = false
			ev.Error = fmt.Sprintf("panic: %v", p)
		}
	}()
	ok := true
	for _, c := range r.Conditions {
		ce := evalCondition(tr, c)
		ev.Conditions = append(ev.Conditions, ce)
		ok = ok && ce.Pass
	}
	if r.When != nil && ok {
		ok = r.When(tr)
	}
	if r.When == nil && len(r.Conditions) == 0 {
		ok = false
		ev.Error = "rule has neither a predicate nor conditions"
	}
	ev.Matched = ok
	return ev
}

func evalCondition(r *trackingReader, c Condition) ConditionEvidence {
	actual, present := r.Get(c.Key)
	ce := ConditionEvidence{Key: c.Key, Op: c.Op, Threshold: summarize(c.Threshold), Actual: summarize(actual)}
	if !present {
		ce.Actual = "(absent)"
	}
	if r.s.e.chart.redact[c.Key] {
		ce.Actual, ce.Threshold = redactedValue, redactedValue
	}
	pass, err := compare(actual, present, c.Op, c.Threshold)
	if err != nil {
		ce.Actual = clip("error: " + err.Error())
		return ce
	}
	ce.Pass = pass
	return ce
}

func compare(actual any, present bool, op string, threshold any) (bool, error) {
	switch op {
	case "eq":
		return present && equalJSON(actual, threshold), nil
	case "ne":
		return !present || !equalJSON(actual, threshold), nil
	case "in", "notIn":
		rv := reflect.ValueOf(threshold)
		if threshold == nil || (rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array) {
			return false, fmt.Errorf("op %s wants a list threshold", op)
		}
		found := false
		for i := 0; i < rv.Len() && present; i++ {
			if equalJSON(actual, rv.Index(i).Interface()) {
				found = true
				break
			}
		}
		return found == (op == "in"), nil
	case "gt", "gte", "lt", "lte":
		if !present {
			return false, nil
		}
		c, err := order(actual, threshold)
		if err != nil {
			return false, err
		}
		switch op {
		case "gt":
			return c > 0, nil
		case "gte":
			return c >= 0, nil
		case "lt":
			return c < 0, nil
		default:
			return c <= 0, nil
		}
	}
	return false, fmt.Errorf("unknown condition op %q", op)
}

func order(a, b any) (int, error) {
	if x, ok := number(a); ok {
		y, ok := number(b)
		if !ok {
			return 0, errors.New("threshold is not a number")
		}
		switch {
		case x < y:
			return -1, nil
		case x > y:
			return 1, nil
		}
		return 0, nil
	}
	if x, ok := a.(string); ok {
		y, ok := b.(string)
		if !ok {
			return 0, errors.New("threshold is not a string")
		}
		return strings.Compare(x, y), nil
	}
	return 0, fmt.Errorf("cannot order a %T", a)
}

func number(v any) (float64, bool) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		return f, !math.IsNaN(f)
	}
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func equalJSON(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// summaryLimit bounds the length of evidence summaries, in characters.
const summaryLimit = 80

// summarize renders v as compact JSON cut to summaryLimit characters.
func summarize(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return clip(fmt.Sprintf("(%T)", v))
	}
	return clip(string(b))
}

// clip cuts s to summaryLimit characters, marking the cut with an ellipsis.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= summaryLimit {
		return s
	}
	r := []rune(s)
	return string(r[:summaryLimit-1]) + "…"
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
