// The results layer as a value: the sf-results mount at the loop head, the
// batch stamp, the findings ledger across turns and its checkpoint check,
// and the standing prepare-final folds. Unarmed, none of it runs: no node,
// key, event or byte.

package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent/internal/keys"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	assessfold "github.com/agentfootprint/agentfootprint-go/internal/honesty/assess"
	ledgerops "github.com/agentfootprint/agentfootprint-go/internal/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/internal/honesty/results"
)

// State keys the results layer adds, declared only when it is armed.
var (
	kFindings             = state.KeyFindingsLedger
	kToolResultsIteration = results.KeyToolResultsIteration
	kHonestyLayers        = keys.HonestyLayers
)

// WithResultsLayer arms the results layer: after every batch of tool calls
// the sf-results subflow (a recorded sub-chart at the loop head) files one
// period verdict per call on the findings ledger, and the turn's standing is
// folded from the record into turn_end and Result.Assessment. A registered
// tool that declares a period argument (tool.WithPeriod) arms the layer
// without this option.
func WithResultsLayer() Option { return func(c *config) { c.addLayer(&resultsLayer{}) } }

// resultsLayer judges each batch's declarations, keeps the findings ledger
// across turns and folds the standing.
type resultsLayer struct {
	mount layerMount
}

func (*resultsLayer) plain()             {}
func (*resultsLayer) name() string       { return layerResults }
func (*resultsLayer) requires() []string { return nil }
func (*resultsLayer) after() []string    { return []string{layerInputs, layerTime} }

// arm builds sf-results; with the time layer armed, its period checks read
// the turn's clock.
func (r *resultsLayer) arm(c *config) error {
	deps := results.Deps{ArgumentOf: periodArguments(c), EmitRows: emitPeriodRows}
	if t, ok := c.layer(layerTime).(*timeLayer); ok {
		deps.TimeInputs = periodTimes(t.periods)
	}
	l, err := results.New(deps)
	if err != nil {
		return fmt.Errorf("agent: arming the results layer: %w", err)
	}
	r.mount = layerMount{id: l.ID, chart: l.Chart, mount: l.Mount}
	return nil
}

func (r *resultsLayer) headMount() layerMount { return r.mount }

func (*resultsLayer) keys() []flow.KeyDecl {
	return []flow.KeyDecl{kFindings, kToolResultsIteration, kHonestyLayers}
}

func (*resultsLayer) seed(s *flow.Scope, from *conversationCheckpoint) error {
	return seedResults(s, from)
}

// batchDone stamps the batch sf-results judges next.
func (*resultsLayer) batchDone(s *flow.Scope, iteration int) {
	kToolResultsIteration.Set(s, iteration)
}

func (*resultsLayer) exportLedger(rec *flow.Record) json.RawMessage { return exportLedger(rec) }

// prepareFinal folds the standing into turn_end.
func (*resultsLayer) prepareFinal(s *flow.Scope, f *finalDraft) error {
	a := assessfold.Fold(assessfold.InputFromReader(s))
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	f.notes.Assessment, f.standing = b, &a
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
		if p := t.Declaration().Period; p != nil && p.Argument != "" {
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
func emitPeriodRows(ctx context.Context, s *flow.Scope, rows []boundary.PeriodRow) {
	rs := runOf(ctx)
	if rs == nil {
		return
	}
	for _, r := range rows {
		rs.emit(s, event.FindingsPeriod, r.Iteration+1, func() any { return ledgerops.PeriodPayload(r) })
	}
}

// seedResults writes the run constant honestyLayers and the ledger: the rows
// the continued conversation carries (already through the checkpoint door),
// or none.
func seedResults(s *flow.Scope, from *conversationCheckpoint) error {
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

// exportLedger reads the ledger as of the record's last commit for the
// conversation checkpoint.
func exportLedger(rec *flow.Record) json.RawMessage {
	rows := (&record.Record{Log: rec}).Findings()
	if len(rows) == 0 {
		return nil
	}
	b, err := encodeLedger(rows)
	if err != nil {
		return nil
	}
	return b
}

// timeRowKinds are the time layer's row kinds: admitted at the door on the
// kind, turn and iteration checks validateLedger already makes, until that
// layer brings its own checks.
var timeRowKinds = []string{"clock", "clock-on-resume", "call", "call-window", "source-clock"}

// findingsDoor is the checkpoint door for the agent's ledger: the period and
// argument checks, and the time kinds.
func findingsDoor() ledgerops.Door {
	d := ledgerops.StandardDoor()
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
