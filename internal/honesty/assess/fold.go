// This file holds Fold: the layer-2 argument reasons the period reasons join on, and the layer-3
// reasons and checks over the turn's rows and tool results.

package assess

import (
	"math"
	"slices"

	"github.com/agentfootprint/agentfootprint-go/internal/honesty/rowkind"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/llm"
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

// optionsOf applies opts; with none it is the zero options, built without a heap allocation.
func optionsOf(opts []Option) options {
	if len(opts) == 0 {
		return options{}
	}
	o := new(options)
	for _, opt := range opts {
		opt(o)
	}
	return *o
}

// periodAt is one period row of this turn, with its index in the whole ledger.
type periodAt struct {
	i   int
	row boundary.PeriodRow
}

// argumentAt is one argument row of this turn, with its index in the whole ledger.
type argumentAt struct {
	i   int
	row ledger.ArgumentRow
}

// toolCall is one tool result of this turn, as history holds it.
type toolCall struct {
	index    int
	id, tool string
	content  string
	failed   bool // the tool message reports a failure (isError)
}

// Fold assesses the turn in holds. Only rows stamped with in.Turn are read (so rows restored from
// earlier turns are record, not folded), or every row when in.Turn is below 1. It never fails:
// a row of a kind it does not know is skipped, and so is an element left at its zero value
// because it did not decode.
func Fold(in Input, opts ...Option) assess.Assessment {
	o := optionsOf(opts)
	a := assess.Assessment{Reasons: []assess.Reason{}, Checked: []assess.Check{}}
	scoped := in.Turn >= 1

	var periods []periodAt
	var arguments []argumentAt
	for i, r := range in.Findings {
		switch r.Kind() {
		case rowkind.Period:
			if p, ok := r.Period(); ok && (!scoped || p.Turn == in.Turn) {
				periods = append(periods, periodAt{i, p})
			}
		case rowkind.Argument:
			if g, ok := r.Argument(); ok && (!scoped || g.Turn == in.Turn) {
				arguments = append(arguments, argumentAt{i, g})
			}
		default:
			// A kind another layer owns: not read here.
		}
	}
	current := currentArguments(arguments)

	foldArguments(&a, in.ArgumentAsk, current)
	calls, from := turnCalls(in.History, in.UserMessage)
	a.TurnFrom = from
	foldCoverage(&a, in.Coverage, calls, o)
	foldFailedCalls(&a, calls)
	foldPeriods(&a, periods, current)

	slices.SortStableFunc(a.Reasons, func(x, y assess.Reason) int { return rank(x.Reason) - rank(y.Reason) })
	settle(&a)
	return a
}

// foldArguments adds the inputs layer's reasons and its argument-rules check.
func foldArguments(a *assess.Assessment, ask state.ArgumentAsk, current []argumentAt) {
	if ask.Waiting != nil {
		r := assess.Reason{Reason: assess.ReasonArgumentAsked, Layer: 2, Witness: []assess.Pointer{}}
		if ask.Waiting.RequestID != "" {
			r.Witness = append(r.Witness, StatePointer(state.KeyArgumentAsk.KeyName(), "/waiting/requestId"))
		}
		for _, c := range current {
			if c.row.Asked != "" {
				r.Witness = append(r.Witness, findingsPointer(c.i, "asked"))
			}
		}
		a.Reasons = append(a.Reasons, r)
	}
	for _, rule := range []struct{ source, reason string }{{"default", assess.ReasonArgumentAssumed}, {"model", assess.ReasonArgumentUnverified}} {
		var w []assess.Pointer
		for _, c := range current {
			if c.row.Source == rule.source {
				w = append(w, findingsPointer(c.i, "argument"))
			}
		}
		if len(w) > 0 {
			a.Reasons = append(a.Reasons, assess.Reason{Reason: rule.reason, Layer: 2, Witness: w})
		}
	}
	if len(current) > 0 {
		c := assess.Check{Layer: 2, Check: CheckArgumentRules, Ran: len(current), Of: len(current), Witness: []assess.Pointer{}}
		for _, r := range current {
			c.Witness = append(c.Witness, findingsPointer(r.i, "argument"))
		}
		a.Checked = append(a.Checked, c)
	}
}

// foldCoverage adds coverage-gap, declared-absent and empty-undeclared, and the tool-coverage
// and result-shape checks, from the run's coverageDeclared rows and the turn's tool results.
func foldCoverage(a *assess.Assessment, declared []coverage.DeclaredCoverage, calls []toolCall, o options) {
	key := state.KeyCoverageDeclared.KeyName()
	rowsOf := map[string]int{}
	absent := map[string]bool{}
	var gaps, absences []assess.Pointer
	for i, r := range declared {
		rowsOf[r.ToolCallID]++
		for _, list := range []struct {
			name  string
			items []coverage.Item
		}{{"notChecked", r.NotChecked}, {"cannotCover", r.CannotCover}} {
			for k := range list.items {
				gaps = append(gaps, StatePointer(key, at(i, list.name, itoa(k))))
			}
		}
		if r.Kind == boundary.KindAbsence {
			absent[r.ToolCallID] = true
			absences = append(absences, StatePointer(key, at(i, "kind")))
		}
	}

	var undeclared, covered, shaped []assess.Pointer
	for _, c := range calls {
		var reading emptiness
		envelope := rowsOf[c.id] > 0
		if absent[c.id] {
			// The absence row already says it: nothing to decode.
			reading = emptyDeclared
		} else {
			var env bool
			reading, env = readResult(c.content, o.rowsAt[c.tool])
			envelope = envelope || env
		}
		if reading == unreadable && !envelope {
			continue // witness of nothing: no pointer to build
		}
		p := HistoryPointer(c.index, "/content", c.id)
		switch reading {
		case emptyDeclared:
			if !absent[c.id] {
				absences = append(absences, p)
			}
		case emptyUndeclared:
			if rowsOf[c.id] == 0 {
				undeclared = append(undeclared, p)
			}
		}
		if envelope {
			covered = append(covered, p)
		}
		if reading != unreadable {
			shaped = append(shaped, p)
		}
	}
	if len(gaps) > 0 {
		a.Reasons = append(a.Reasons, assess.Reason{Reason: assess.ReasonCoverageGap, Layer: 3, Witness: gaps})
	}
	if len(absences) > 0 {
		a.Reasons = append(a.Reasons, assess.Reason{Reason: assess.ReasonDeclaredAbsent, Layer: 3, Witness: absences})
	}
	if len(undeclared) > 0 {
		a.Reasons = append(a.Reasons, assess.Reason{Reason: assess.ReasonEmptyUndeclared, Layer: 3, Witness: undeclared})
	}
	if len(calls) > 0 {
		a.Checked = append(a.Checked,
			assess.Check{Layer: 3, Check: CheckToolCoverage, Ran: len(covered), Of: len(calls), Witness: orEmpty(covered)},
			assess.Check{Layer: 3, Check: CheckResultShape, Ran: len(shaped), Of: len(calls), Witness: orEmpty(shaped)})
	}
}

// foldFailedCalls adds call-failed with every failed call of the turn as a
// witness (its tool message's isError): an answer resting on a call that
// returned nothing must not read as if the call had answered.
func foldFailedCalls(a *assess.Assessment, calls []toolCall) {
	var w []assess.Pointer
	for _, c := range calls {
		if c.failed {
			w = append(w, HistoryPointer(c.index, "/isError", c.id))
		}
	}
	if len(w) > 0 {
		a.Reasons = append(a.Reasons, assess.Reason{Reason: assess.ReasonCallFailed, Layer: 3, Witness: w})
	}
}

// foldPeriods adds one reason per verdict kind met on the turn's period rows, each row's verdict
// followed by its join to the argument row of the same call, and the result-period check.
func foldPeriods(a *assess.Assessment, periods []periodAt, current []argumentAt) {
	if len(periods) == 0 {
		return
	}
	reasons := []struct {
		verdict boundary.RowVerdict
		reason  string
	}{
		{boundary.RowVerdict(coverage.VerdictNotHeld), assess.ReasonPeriodNotHeld},
		{boundary.RowVerdict(coverage.VerdictPartlyHeld), assess.ReasonPeriodPartlyHeld},
		{boundary.RowVerdict(coverage.VerdictUnknown), assess.ReasonPeriodUnknown},
		{boundary.VerdictUndeclared, assess.ReasonPeriodUndeclared},
	}
	for _, rs := range reasons {
		var w []assess.Pointer
		for _, p := range periods {
			if p.row.Verdict != rs.verdict {
				continue
			}
			w = append(w, findingsPointer(p.i, "verdict"))
			if j, ok := joinOf(p, current); ok {
				w = append(w, findingsPointer(j, "argument"))
			}
		}
		if len(w) > 0 {
			a.Reasons = append(a.Reasons, assess.Reason{Reason: rs.reason, Layer: 3, Witness: w})
		}
	}
	foldTimeChecks(a, periods, current)
	c := assess.Check{Layer: 3, Check: CheckResultPeriod, Ran: len(periods), Of: len(periods), Witness: []assess.Pointer{}}
	for _, p := range periods {
		c.Witness = append(c.Witness, findingsPointer(p.i, "verdict"))
	}
	a.Checked = append(a.Checked, c)
}

// foldTimeChecks adds the time layer's reasons from the checks it filed on the turn's period
// rows: period-differs-from-asked for a row whose read differs from the asked range (witness
// /i/differs/against) or whose look-back ran shifted (/i/shifted/byMs), and
// period-beyond-retention for a row the source's retention put out of reach
// (/i/beyondRetention); each witness is followed by the row's join, as for the verdicts.
func foldTimeChecks(a *assess.Assessment, periods []periodAt, current []argumentAt) {
	var differs, beyond []assess.Pointer
	for _, p := range periods {
		var w []assess.Pointer
		if p.row.Differs != nil {
			w = append(w, findingsPointer(p.i, "differs", "against"))
		} else if p.row.Shifted != nil {
			w = append(w, findingsPointer(p.i, "shifted", "byMs"))
		}
		if len(w) > 0 {
			if j, ok := joinOf(p, current); ok {
				w = append(w, findingsPointer(j, "argument"))
			}
			differs = append(differs, w...)
		}
		if p.row.BeyondRetention {
			beyond = append(beyond, findingsPointer(p.i, "beyondRetention"))
			if j, ok := joinOf(p, current); ok {
				beyond = append(beyond, findingsPointer(j, "argument"))
			}
		}
	}
	if len(differs) > 0 {
		a.Reasons = append(a.Reasons, assess.Reason{Reason: assess.ReasonPeriodDiffersFromAsked, Layer: 3, Witness: differs})
	}
	if len(beyond) > 0 {
		a.Reasons = append(a.Reasons, assess.Reason{Reason: assess.ReasonPeriodBeyondRetention, Layer: 3, Witness: beyond})
	}
}

// joinOf finds the current argument row of the period row's own call, turn and argument.
func joinOf(p periodAt, current []argumentAt) (int, bool) {
	if p.row.Argument == "" {
		return 0, false
	}
	for _, c := range current {
		if c.row.ToolCallID == p.row.ToolCallID && c.row.Argument == p.row.Argument && c.row.Turn == p.row.Turn {
			return c.i, true
		}
	}
	return 0, false
}

// currentArguments keeps the last argument row per (turn, toolCallId, argument), in ledger order.
func currentArguments(rows []argumentAt) []argumentAt {
	type key struct {
		turn      int
		call, arg string
	}
	keyOf := func(r argumentAt) key { return key{r.row.Turn, r.row.ToolCallID, r.row.Argument} }
	last := map[key]int{}
	for n, r := range rows {
		last[keyOf(r)] = n
	}
	var out []argumentAt
	for n, r := range rows {
		if last[keyOf(r)] == n {
			out = append(out, r)
		}
	}
	return out
}

// turnCalls returns the tool results of the turn: the tool messages after the person's message
// (the last user message equal to userMessage when it is known, else the last user message).
// With no person message the whole history is the turn.
func turnCalls(h []llm.Message, userMessage string) ([]toolCall, string) {
	start, from := 0, TurnFromWholeHistory
	for pass := 0; pass < 2 && from == TurnFromWholeHistory; pass++ {
		for i := len(h) - 1; i >= 0; i-- {
			if h[i].Role != llm.RoleUser {
				continue
			}
			if pass == 0 && userMessage != "" && h[i].Content != userMessage {
				continue
			}
			start, from = i+1, TurnFromPerson
			break
		}
	}
	n := 0
	for _, m := range h[start:] {
		if m.Role == llm.RoleTool {
			n++
		}
	}
	if n == 0 {
		return nil, from
	}
	calls := make([]toolCall, 0, n)
	for i := start; i < len(h); i++ {
		m := h[i]
		if m.Role != llm.RoleTool {
			continue
		}
		calls = append(calls, toolCall{index: i, id: m.ToolCallID, tool: m.ToolName, content: m.Content, failed: m.IsError})
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
func whole(f float64) (int, bool) {
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

// findingsPointer points at a field of findings-ledger row i.
func findingsPointer(i int, fields ...string) assess.Pointer {
	return StatePointer(state.KeyFindingsLedger.KeyName(), at(i, fields...))
}

func orEmpty(p []assess.Pointer) []assess.Pointer {
	if p == nil {
		return []assess.Pointer{}
	}
	return p
}

func itoa(i int) string { return at(i)[1:] }
