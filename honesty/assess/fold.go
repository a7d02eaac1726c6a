// This file holds Fold: the layer-2 argument reasons the period reasons join on, and the layer-3
// reasons and checks over the turn's rows and tool results.

package assess

import (
	"math"
	"slices"

	"github.com/agentfootprint/agentfootprint-go/coverage"
)

// Option adjusts what the fold knows beyond the record.
type Option func(*options)

type options struct {
	rowsAt map[string]string
}

// WithRowsAt tells the fold that tool's results hold their rows in a list under key, so an empty
// list there reads as an empty result. It is the app's declaration, never guessed.
func WithRowsAt(tool, key string) Option {
	return func(o *options) {
		if o.rowsAt == nil {
			o.rowsAt = map[string]string{}
		}
		o.rowsAt[tool] = key
	}
}

// ledgerRow is one findings-ledger row of this turn, with its index in the whole ledger.
type ledgerRow struct {
	i int
	m map[string]any
}

// toolCall is one tool result of this turn, as history holds it.
type toolCall struct {
	index    int
	id, tool string
	content  any
}

// Fold assesses the turn s holds. The turn is turnNumber when s has it (only rows stamped with
// that turn are read, so rows restored from earlier turns are record, not folded), and every row
// otherwise. It never fails: a value it cannot read is skipped, and a row of a kind it does not
// know is skipped too.
func Fold(s State, opts ...Option) Assessment {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	a := Assessment{Reasons: []Reason{}, Checked: []Check{}}
	turn, scoped := whole(s[KeyTurnNumber])

	var periods, arguments []ledgerRow
	rows, _ := s[KeyFindingsLedger].([]any)
	for i, r := range rows {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		if scoped {
			if t, ok := whole(m["turn"]); !ok || t != turn {
				continue
			}
		}
		switch m["kind"] {
		case coverage.PeriodRowKind:
			periods = append(periods, ledgerRow{i, m})
		case "argument":
			arguments = append(arguments, ledgerRow{i, m})
		default:
			// A kind another layer owns: not read here.
		}
	}
	current := currentArguments(arguments)

	foldArguments(&a, s, current)
	calls, from := turnCalls(s)
	a.TurnFrom = from
	foldCoverage(&a, s, calls, o)
	foldPeriods(&a, periods, current)

	slices.SortStableFunc(a.Reasons, func(x, y Reason) int { return rank(x.Reason) - rank(y.Reason) })
	a.settle()
	return a
}

// foldArguments adds the inputs layer's reasons and its argument-rules check.
func foldArguments(a *Assessment, s State, current []ledgerRow) {
	if ask, ok := s[KeyArgumentAsk].(map[string]any); ok && ask["waiting"] != nil {
		r := Reason{Reason: ReasonArgumentAsked, Layer: 2, Witness: []Pointer{}}
		if p := StatePointer(KeyArgumentAsk, "/waiting/requestId"); resolves(p, s) {
			r.Witness = append(r.Witness, p)
		}
		for _, c := range current {
			if _, asked := c.m["asked"]; asked {
				r.Witness = append(r.Witness, StatePointer(KeyFindingsLedger, at(c.i, "asked")))
			}
		}
		a.Reasons = append(a.Reasons, r)
	}
	for _, rule := range []struct{ source, reason string }{{"default", ReasonArgumentAssumed}, {"model", ReasonArgumentUnverified}} {
		var w []Pointer
		for _, c := range current {
			if c.m["source"] == rule.source {
				w = append(w, StatePointer(KeyFindingsLedger, at(c.i, "argument")))
			}
		}
		if len(w) > 0 {
			a.Reasons = append(a.Reasons, Reason{Reason: rule.reason, Layer: 2, Witness: w})
		}
	}
	if len(current) > 0 {
		c := Check{Layer: 2, Check: CheckArgumentRules, Ran: len(current), Of: len(current), Witness: []Pointer{}}
		for _, r := range current {
			c.Witness = append(c.Witness, StatePointer(KeyFindingsLedger, at(r.i, "argument")))
		}
		a.Checked = append(a.Checked, c)
	}
}

// foldCoverage adds coverage-gap, declared-absent and empty-undeclared, and the tool-coverage
// and result-shape checks, from the run's coverageDeclared rows and the turn's tool results.
func foldCoverage(a *Assessment, s State, calls []toolCall, o options) {
	declared, _ := s[KeyCoverageDeclared].([]any)
	rowsOf := map[string]int{}
	absent := map[string]bool{}
	var gaps, absences []Pointer
	for i, r := range declared {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		id, _ := m["toolCallId"].(string)
		rowsOf[id]++
		for _, list := range []string{"notChecked", "cannotCover"} {
			items, _ := m[list].([]any)
			for k := range items {
				gaps = append(gaps, StatePointer(KeyCoverageDeclared, at(i, list, itoa(k))))
			}
		}
		if m["kind"] == string(coverage.KindAbsence) {
			absent[id] = true
			absences = append(absences, StatePointer(KeyCoverageDeclared, at(i, "kind")))
		}
	}

	var undeclared, covered, shaped []Pointer
	for _, c := range calls {
		p := HistoryPointer(c.index, "/content", c.id)
		var reading Emptiness
		envelope := rowsOf[c.id] > 0
		if absent[c.id] {
			// The absence row already says it: nothing to decode.
			reading = EmptyDeclared
		} else if v, ok := decoded(c.content); ok {
			reading = readValue(v, o.rowsAt[c.tool], 0)
			envelope = envelope || isEnvelope(v)
		} else {
			reading = Unknown
		}
		switch reading {
		case EmptyDeclared:
			if !absent[c.id] {
				absences = append(absences, p)
			}
		case EmptyUndeclared:
			if rowsOf[c.id] == 0 {
				undeclared = append(undeclared, p)
			}
		}
		if envelope {
			covered = append(covered, p)
		}
		if reading != Unknown {
			shaped = append(shaped, p)
		}
	}
	if len(gaps) > 0 {
		a.Reasons = append(a.Reasons, Reason{Reason: ReasonCoverageGap, Layer: 3, Witness: gaps})
	}
	if len(absences) > 0 {
		a.Reasons = append(a.Reasons, Reason{Reason: ReasonDeclaredAbsent, Layer: 3, Witness: absences})
	}
	if len(undeclared) > 0 {
		a.Reasons = append(a.Reasons, Reason{Reason: ReasonEmptyUndeclared, Layer: 3, Witness: undeclared})
	}
	if len(calls) > 0 {
		a.Checked = append(a.Checked,
			Check{Layer: 3, Check: CheckToolCoverage, Ran: len(covered), Of: len(calls), Witness: orEmpty(covered)},
			Check{Layer: 3, Check: CheckResultShape, Ran: len(shaped), Of: len(calls), Witness: orEmpty(shaped)})
	}
}

// foldPeriods adds one reason per verdict kind met on the turn's period rows, each row's verdict
// followed by its join to the argument row of the same call, and the result-period check.
func foldPeriods(a *Assessment, periods []ledgerRow, current []ledgerRow) {
	if len(periods) == 0 {
		return
	}
	reasons := []struct {
		verdict coverage.RowVerdict
		reason  string
	}{
		{coverage.RowVerdict(coverage.VerdictNotHeld), ReasonPeriodNotHeld},
		{coverage.RowVerdict(coverage.VerdictPartlyHeld), ReasonPeriodPartlyHeld},
		{coverage.RowVerdict(coverage.VerdictUnknown), ReasonPeriodUnknown},
		{coverage.VerdictUndeclared, ReasonPeriodUndeclared},
	}
	for _, rs := range reasons {
		var w []Pointer
		for _, p := range periods {
			if p.m["verdict"] != string(rs.verdict) {
				continue
			}
			w = append(w, StatePointer(KeyFindingsLedger, at(p.i, "verdict")))
			if j, ok := joinOf(p, current); ok {
				w = append(w, StatePointer(KeyFindingsLedger, at(j, "argument")))
			}
		}
		if len(w) > 0 {
			a.Reasons = append(a.Reasons, Reason{Reason: rs.reason, Layer: 3, Witness: w})
		}
	}
	foldTimeChecks(a, periods, current)
	c := Check{Layer: 3, Check: CheckResultPeriod, Ran: len(periods), Of: len(periods), Witness: []Pointer{}}
	for _, p := range periods {
		c.Witness = append(c.Witness, StatePointer(KeyFindingsLedger, at(p.i, "verdict")))
	}
	a.Checked = append(a.Checked, c)
}

// foldTimeChecks adds the time layer's reasons from the checks it filed on the turn's period
// rows: period-differs-from-asked for a row whose read differs from the asked range (witness
// /i/differs/against) or whose look-back ran shifted (/i/shifted/byMs), and
// period-beyond-retention for a row the source's retention put out of reach
// (/i/beyondRetention); each witness is followed by the row's join, as for the verdicts.
func foldTimeChecks(a *Assessment, periods, current []ledgerRow) {
	var differs, beyond []Pointer
	for _, p := range periods {
		var w []Pointer
		if d, ok := p.m["differs"].(map[string]any); ok && d["against"] != nil {
			w = append(w, StatePointer(KeyFindingsLedger, at(p.i, "differs", "against")))
		} else if sh, ok := p.m["shifted"].(map[string]any); ok && sh["byMs"] != nil {
			w = append(w, StatePointer(KeyFindingsLedger, at(p.i, "shifted", "byMs")))
		}
		if len(w) > 0 {
			if j, ok := joinOf(p, current); ok {
				w = append(w, StatePointer(KeyFindingsLedger, at(j, "argument")))
			}
			differs = append(differs, w...)
		}
		if p.m["beyondRetention"] == true {
			beyond = append(beyond, StatePointer(KeyFindingsLedger, at(p.i, "beyondRetention")))
			if j, ok := joinOf(p, current); ok {
				beyond = append(beyond, StatePointer(KeyFindingsLedger, at(j, "argument")))
			}
		}
	}
	if len(differs) > 0 {
		a.Reasons = append(a.Reasons, Reason{Reason: ReasonPeriodDiffersFromAsked, Layer: 3, Witness: differs})
	}
	if len(beyond) > 0 {
		a.Reasons = append(a.Reasons, Reason{Reason: ReasonPeriodBeyondRetention, Layer: 3, Witness: beyond})
	}
}

// joinOf finds the current argument row of the period row's own call, turn and argument.
func joinOf(p ledgerRow, current []ledgerRow) (int, bool) {
	arg, _ := p.m["argument"].(string)
	id, isText := p.m["toolCallId"].(string)
	if arg == "" || !isText {
		return 0, false
	}
	pt, _ := whole(p.m["turn"])
	for _, c := range current {
		ct, _ := whole(c.m["turn"])
		if c.m["toolCallId"] == id && c.m["argument"] == arg && ct == pt {
			return c.i, true
		}
	}
	return 0, false
}

// currentArguments keeps the last argument row per (turn, toolCallId, argument), in ledger order.
func currentArguments(rows []ledgerRow) []ledgerRow {
	type key struct {
		turn      float64
		call, arg any
	}
	keyOf := func(r ledgerRow) key {
		t, _ := r.m["turn"].(float64)
		return key{t, r.m["toolCallId"], r.m["argument"]}
	}
	last := map[key]int{}
	for n, r := range rows {
		last[keyOf(r)] = n
	}
	var out []ledgerRow
	for n, r := range rows {
		if last[keyOf(r)] == n {
			out = append(out, r)
		}
	}
	return out
}

// turnCalls returns the tool results of the turn: the tool messages after the person's message
// (the last user message equal to userMessage when the record has it, else the last user
// message). With no person message the whole history is the turn.
func turnCalls(s State) ([]toolCall, string) {
	h, _ := s[KeyHistory].([]any)
	start, from := 0, TurnFromWholeHistory
	um, hasUM := s[KeyUserMessage].(string)
	for pass := 0; pass < 2 && from == TurnFromWholeHistory; pass++ {
		for i := len(h) - 1; i >= 0; i-- {
			m, _ := h[i].(map[string]any)
			if m["role"] != "user" {
				continue
			}
			if pass == 0 && hasUM && m["content"] != um {
				continue
			}
			start, from = i+1, TurnFromPerson
			break
		}
	}
	var calls []toolCall
	for i := start; i < len(h); i++ {
		m, _ := h[i].(map[string]any)
		if m["role"] != "tool" {
			continue
		}
		id, _ := m["toolCallId"].(string)
		tool, _ := m["toolName"].(string)
		calls = append(calls, toolCall{index: i, id: id, tool: tool, content: m["content"]})
	}
	return calls, from
}

func rank(reason string) int {
	if i := slices.Index(reasonOrder, reason); i >= 0 {
		return i
	}
	return len(reasonOrder)
}

// whole reads a JSON number without fraction.
func whole(v any) (int, bool) {
	f, ok := v.(float64)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

func resolves(p Pointer, s State) bool { _, ok := p.Resolve(s); return ok }

func orEmpty(p []Pointer) []Pointer {
	if p == nil {
		return []Pointer{}
	}
	return p
}

func itoa(i int) string { return at(i)[1:] }
