// The results layer (honesty layer 3) wired into the agent through the layer
// seams: arming, the sf-results mount at the loop head, the batch stamp, the
// findings ledger across turns and its checkpoint door, and what
// prepare-final adds (the standing, the limits block). Unarmed, none of it
// runs: no node, key, event or byte.

package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
	"github.com/agentfootprint/agentfootprint-go/honesty/results"
)

// honestyConfig is what the builder asked of the results layer and the
// limits block.
type honestyConfig struct {
	results bool // WithResultsLayer
	limits  bool // WithLimitsBlock
	// armed is set by armHonesty: the results layer is on the chart.
	armed bool
	// blocks are the later blocks of the limits (the inputs layer's Assumed
	// block), printed after the coverage block in this order. A layer's arm
	// step appends here rather than attaching its own block, so the answer
	// gets one separator and the blocks their fixed order.
	blocks []func(s *flow.Scope) string
}

// State keys the results layer adds, declared only when it is armed.
var (
	kFindings             = ledger.StateKey()
	kToolResultsIteration = flow.Key[int](results.KeyToolResultsIteration)
	kHonestyLayers        = flow.Key[map[string]bool]("honestyLayers")
)

// WithResultsLayer arms honesty layer 3: after every batch of tool calls the
// sf-results subflow, at the loop head, files one period verdict per call on
// the findings ledger, and the turn's standing is folded from the record into
// turn_end and Result.Assessment. A registered tool that declares a period
// argument (tool.WithPeriod) arms the layer without this option.
func WithResultsLayer() Option { return func(c *config) { c.honesty.results = true } }

// WithLimitsBlock appends to a prose answer the block of what the
// turn's tools declared they covered (Checked, Not checked, Cannot cover,
// Period, In progress), where the model cannot leave it out. With nothing
// declared the answer is returned unchanged.
func WithLimitsBlock() Option { return func(c *config) { c.honesty.limits = true } }

// armHonesty runs with the other arm steps, once every tool is known. It
// mounts sf-results and fills the hooks when the layer is armed, and the
// prepare-final hook alone for a limits block without the layer.
func armHonesty(c *config) error {
	armed := c.honesty.results
	for _, t := range c.tools {
		if t == nil {
			continue
		}
		if _, ok := t.Period(); ok {
			armed = true
		}
	}
	c.honesty.armed = armed
	if armed {
		argOf := periodArguments(c)
		l, err := results.New(results.Deps{ArgumentOf: argOf, EmitRows: emitPeriodRows, TimeInputs: c.timeInputs.periodTimes})
		if err != nil {
			return fmt.Errorf("agent: arming the results layer: %w", err)
		}
		c.headMounts = append([]layerMount{{id: l.ID, chart: l.Chart, mount: l.Mount}}, c.headMounts...)
		c.hooks.keys = append(c.hooks.keys, kFindings, kToolResultsIteration, kHonestyLayers)
		c.hooks.seed = chainSeed(c.hooks.seed, seedResults)
		c.hooks.batchDone = chainBatch(c.hooks.batchDone, func(s *flow.Scope, iter int) { kToolResultsIteration.Set(s, iter) })
		c.hooks.exportLedger = exportLedger
	}
	if armed || c.honesty.limits {
		c.hooks.prepareFinal = chainFinal(c.hooks.prepareFinal, finalHonesty(armed, c.honesty.limits, c.honesty.blocks))
	}
	return nil
}

// periodArguments maps each registered tool to its period argument. The tool
// set is fixed when the agent is built, so the map is the dispatch resolver's
// answer for every batch.
func periodArguments(c *config) results.ArgumentOf {
	args := map[string]string{}
	for _, t := range c.tools {
		if t == nil {
			continue
		}
		if p, ok := t.Period(); ok && p.Argument != "" {
			args[t.Name()] = p.Argument
		}
	}
	return func(name string) (string, bool) {
		a, ok := args[name]
		return a, ok
	}
}

// emitPeriodRows is the ledger's emit half inside sf-results: one
// findings.period per row, kept in the record and delivered like every other
// event. It belongs to the iteration the loop head opens, the one after the
// batch.
func emitPeriodRows(ctx context.Context, s *flow.Scope, rows []coverage.PeriodRow) {
	rs := runOf(ctx)
	if rs == nil {
		return
	}
	for _, r := range rows {
		rs.emit(s, event.FindingsPeriod, r.Iteration+1, func() any { return ledger.PeriodPayload(r) })
	}
}

// seedResults writes the run constant honestyLayers and the ledger: the rows
// the continued conversation carries (already through the checkpoint door),
// or none.
func seedResults(s *flow.Scope, from *ConversationCheckpoint) error {
	kHonestyLayers.Set(s, map[string]bool{"results": true})
	var prior []ledger.Row
	if from != nil {
		rows, err := findingsDoor().Admit(from.FindingsLedger)
		if err != nil {
			return ledgerRefusal(err)
		}
		prior = rows
	}
	kFindings.Set(s, append([]ledger.Row{}, prior...))
	return nil
}

// finalHonesty folds the standing (results armed) and attaches the limits
// blocks (WithLimitsBlock) to a prose answer: the coverage block,
// then the later blocks, behind one separator.
func finalHonesty(armed, withLimits bool, later []func(*flow.Scope) string) func(s *flow.Scope, answer string) (string, FinalNotes, error) {
	return func(s *flow.Scope, answer string) (string, FinalNotes, error) {
		var notes FinalNotes
		if armed {
			st, err := assess.StateFromReader(s)
			if err != nil {
				return answer, notes, err
			}
			b, err := json.Marshal(assess.Fold(st))
			if err != nil {
				return answer, notes, err
			}
			notes.Assessment = b
		}
		if withLimits {
			blocks := []string{limits.CoverageBlock(kCoverage.Get(s))}
			for _, b := range later {
				blocks = append(blocks, b(s))
			}
			answer = limits.Attach(answer, blocks...)
		}
		return answer, notes, nil
	}
}

// exportLedger reads the ledger as of the record's last commit for the
// conversation checkpoint.
func exportLedger(rec *flow.Record) json.RawMessage {
	rows := findingsAt(rec)
	if len(rows) == 0 {
		return nil
	}
	b, err := json.Marshal(rows)
	if err != nil {
		return nil
	}
	return b
}

// findingsAt returns the findingsLedger as of a record's last commit, typed
// (a live record) or from raw JSON (a record decoded without the layer's
// keys).
func findingsAt(rec *flow.Record) []ledger.Row {
	if rec == nil || len(rec.Commits) == 0 {
		return nil
	}
	v, ok, err := flow.ValueAt(rec, len(rec.Commits)-1, kFindings.KeyName())
	if err != nil || !ok {
		return nil
	}
	switch t := v.(type) {
	case []ledger.Row:
		return t
	case json.RawMessage:
		var rows []ledger.Row
		if json.Unmarshal(t, &rows) == nil {
			return rows
		}
	}
	return nil
}

// timeRowKinds are the time layer's row kinds: admitted at the door on the
// kind, turn and iteration checks validateLedger already makes, until that
// layer brings its own checks.
var timeRowKinds = []string{"clock", "clock-on-resume", "call", "call-window", "source-clock"}

// findingsDoor is the checkpoint door for the agent's ledger: the period and
// argument checks, and the time kinds.
func findingsDoor() ledger.Door {
	d := ledger.StandardDoor()
	for _, k := range timeRowKinds {
		d = d.With(k, func(map[string]any) string { return "" })
	}
	return d
}

// admitLedgerRows is validateLedger's last step: every row through its kind's
// check.
func admitLedgerRows(raw json.RawMessage) error {
	if _, err := findingsDoor().Admit(raw); err != nil {
		return ledgerRefusal(err)
	}
	return nil
}

// ledgerRefusal turns the door's refusal into the checkpoint error naming
// the row.
func ledgerRefusal(err error) error {
	var re *ledger.RowError
	if !errors.As(err, &re) {
		return &CheckpointError{Field: "findingsLedger", Reason: err.Error()}
	}
	field := "findingsLedger"
	if re.Index >= 0 {
		field = fmt.Sprintf("findingsLedger[%d]", re.Index)
	}
	return &CheckpointError{Field: field, Reason: re.Error()}
}

// chainSeed runs an earlier seed hook, then next.
func chainSeed(prev, next func(*flow.Scope, *ConversationCheckpoint) error) func(*flow.Scope, *ConversationCheckpoint) error {
	if prev == nil {
		return next
	}
	return func(s *flow.Scope, from *ConversationCheckpoint) error {
		if err := prev(s, from); err != nil {
			return err
		}
		return next(s, from)
	}
}

// chainBatch runs an earlier batch hook, then next.
func chainBatch(prev, next func(*flow.Scope, int)) func(*flow.Scope, int) {
	if prev == nil {
		return next
	}
	return func(s *flow.Scope, iter int) { prev(s, iter); next(s, iter) }
}

// chainFinal runs an earlier prepare-final hook, then next on its answer; a
// note next sets replaces the earlier one.
func chainFinal(prev, next func(*flow.Scope, string) (string, FinalNotes, error)) func(*flow.Scope, string) (string, FinalNotes, error) {
	if prev == nil {
		return next
	}
	return func(s *flow.Scope, answer string) (string, FinalNotes, error) {
		answer, notes, err := prev(s, answer)
		if err != nil {
			return answer, notes, err
		}
		answer, more, err := next(s, answer)
		if more.Assessment != nil {
			notes.Assessment = more.Assessment
		}
		if more.AnswerCoverage != nil {
			notes.AnswerCoverage = more.AnswerCoverage
		}
		return answer, notes, err
	}
}

// unjudgedWarned is the warn-once ledger of tools whose declared period went
// unjudged because the results layer was not armed.
var unjudgedWarned sync.Map

// warnUnjudged is the dispatch boundary's developer warning (results-layer.md
// §2.1 step 7): once per tool and process, in dev mode, when a result
// declares a period that no layer will judge. It names the tool only, never a
// value the tool returned.
func (h honestyConfig) warnUnjudged(toolName string, cr coverage.CoverageResult) {
	if h.armed || !coverage.DevMode() {
		return
	}
	if _, declared := cr.Verdict(); !declared {
		return
	}
	if _, seen := unjudgedWarned.LoadOrStore(toolName, true); seen {
		return
	}
	slog.Warn("agentfootprint: a tool result declared the period its read covered; the period is "+
		"recorded and served to the model, but no verdict is filed because the results layer is off "+
		"(agent.WithResultsLayer() turns it on)", "tool", toolName)
}

// declarationRefusal reports whether a tool's error is a coverage door's
// refusal, and returns its text: the call's result is then that refusal as
// written ("refused: …"), an ordinary tool error with status invalid.
func declarationRefusal(err error) (string, bool) {
	var ref *coverage.Refusal
	if !errors.As(err, &ref) {
		return "", false
	}
	return ref.Error(), true
}

// Findings returns the turn's findings ledger (rows carried from earlier
// turns included), or nil when the results layer was not armed.
func (r *Result) Findings() []ledger.Row {
	if r == nil || r.record == nil {
		return nil
	}
	return findingsAt(r.record.Log)
}

// Assessment returns the turn's standing, folded from the run record by the
// same function prepare-final used, or nil when the results layer was not
// armed (or the turn did not finish).
func (r *Result) Assessment() *assess.Assessment {
	if r == nil || r.record == nil || r.record.Log == nil || len(r.record.Log.Commits) == 0 {
		return nil
	}
	if _, ok, _ := flow.ValueAt(r.record.Log, len(r.record.Log.Commits)-1, kHonestyLayers.KeyName()); !ok {
		return nil
	}
	st, err := assess.StateFromRecord(r.record.Log)
	if err != nil {
		return nil
	}
	a := assess.Fold(st)
	return &a
}
