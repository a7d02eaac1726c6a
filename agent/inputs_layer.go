// The inputs layer as a value: arming,
// the sf-inputs subflow between call-llm and sf-route, the fills on a fresh
// args object at dispatch, the note after a filled call's result, and the
// Assumed block under the answer's limits. Unarmed, none of it runs: no node,
// key, event or byte.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	inputslayer "github.com/agentfootprint/agentfootprint-go/internal/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Wire facts of the subflow: its mount id and its stage ids.
const (
	inputsSubflowID = "sf-inputs"
	inputsDeclare   = "declare"
	inputsVerify    = "verify"
	inputsRecord    = "record"
	inputsResolve   = "resolve"
)

// kArgumentResolutions is what sf-inputs decided for each ruled call of the
// batch that is about to run.
var kArgumentResolutions = flow.Key[[]inputslayer.Resolution]("argumentResolutions")

// kArgumentAnswersKept holds the person's answers kept for a later call
// when the call they were given for needed a second pause.
var kArgumentAnswersKept = flow.Key[[]inputslayer.KeptAnswer]("argumentAnswersKept")

// The subflow's own keys; those named like an agent key are that key.
var (
	kInCalls     = flow.Key[[]inputslayer.Call]("calls")
	kInIteration = state.KeyIteration
	kInTurn      = state.KeyTurnNumber
	kInPlan      = flow.Key[[]inputslayer.Call]("argumentPlan")
	kInChecks    = flow.Key[inputslayer.Batch]("argumentChecks")
	kInRows      = flow.Key[[]ledger.ArgumentRow]("argumentRows")
	kInResolved  = kArgumentResolutions
	kInClock     = kTurnClock
	kInKept      = flow.Key[[]inputslayer.KeptAnswer]("kept")
)

// WithInputsLayer arms the inputs layer: for every call that will run, each
// argument a tool rules with tool.WithAskOrAssume gets a row on the findings
// ledger saying who chose its value (the tool's default, the person or the
// model), and a missing argument under an assume rule is filled with the
// declared default. A registered tool that declares rules arms the layer
// without this option. The layer also arms the results layer, whose ledger
// it files into.
func WithInputsLayer() Option { return func(c *config) { c.addLayer(&inputsLayer{}) } }

// inputsLayer resolves ruled arguments before dispatch (sf-inputs), asks
// the person one question per batch, fills and notes the values, and
// renders the Assumed block.
type inputsLayer struct {
	tools  map[string]*tool.Tool
	toolOf inputslayer.ToolOf
	mount  layerMount
}

func (*inputsLayer) plain()             {}
func (*inputsLayer) name() string       { return layerInputs }
func (*inputsLayer) requires() []string { return []string{layerResults} }
func (*inputsLayer) after() []string    { return nil }

// arm builds sf-inputs over the registered tools.
func (l *inputsLayer) arm(c *config) error {
	l.tools = map[string]*tool.Tool{}
	for _, t := range c.tools {
		if t != nil {
			l.tools[t.Name()] = t
		}
	}
	l.toolOf = func(name string) (*tool.Tool, bool) {
		t, ok := l.tools[name]
		return t, ok
	}
	chart, err := inputsChart(l.toolOf)
	if err != nil {
		return fmt.Errorf("agent: arming the inputs layer: %w", err)
	}
	l.mount = layerMount{id: inputsSubflowID, chart: chart, mount: flow.Mount{Input: inputsMountInput, Output: inputsMountOutput}}
	return nil
}

func (l *inputsLayer) preRouteMount() layerMount { return l.mount }

func (*inputsLayer) keys() []flow.KeyDecl {
	return []flow.KeyDecl{kArgumentResolutions, kArgumentAsk, kArgumentAnswersKept}
}

// pauseRefused keeps the person's answers for a call refused for pausing
// again, and says so in the refusal.
func (*inputsLayer) pauseRefused(s *flow.Scope, call llm.ToolCall) string {
	res, ok := resolutionOf(s, call.ID)
	if !ok {
		return ""
	}
	turn, _ := kTurnNumber.Get(s)
	var kept []inputslayer.KeptAnswer
	var names []string
	for _, f := range res.Fills {
		if f.Source == inputslayer.SourceAnswered {
			kept = append(kept, inputslayer.KeptAnswer{ToolName: call.Name, Argument: f.Argument, Value: f.Value, Turn: turn})
			names = append(names, f.Argument)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	prev, _ := kArgumentAnswersKept.Get(s)
	kArgumentAnswersKept.Set(s, append(append([]inputslayer.KeptAnswer{}, prev...), kept...))
	return inputslayer.KeptClause(names)
}

func (l *inputsLayer) batchAsk(ctx context.Context, s *flow.Scope, b *batch) *flow.Pause {
	return askBatch(l.toolOf)(ctx, s, b)
}

func (l *inputsLayer) batchAnswer(ctx context.Context, s *flow.Scope, b *batch, input json.RawMessage) (bool, error) {
	return answerBatch(l.toolOf)(ctx, s, b, input)
}

// fillArgs applies sf-inputs' resolution to the call's arguments, or
// refuses a call whose values nobody chose.
func (*inputsLayer) fillArgs(s *flow.Scope, call llm.ToolCall, _ *tool.Tool, args json.RawMessage) (json.RawMessage, string) {
	res, ok := resolutionOf(s, call.ID)
	if !ok {
		return args, ""
	}
	if res.Refused != "" {
		return args, res.Refused
	}
	if len(res.Ask) > 0 {
		// No answer reached this call (the question could not be put):
		// it does not run on a value nobody chose.
		return args, fmt.Sprintf("The %s call was not run: its rules ask the person for %s, and no answer was given.", call.Name, strings.Join(res.Ask, ", "))
	}
	filled, err := inputslayer.Apply(args, res.Fills)
	if err != nil {
		return args, fmt.Sprintf("The %s call was not run: its arguments are not a JSON object, so the rule's values could not be filled in.", call.Name)
	}
	return filled, ""
}

// shapeRequest serves ruled tools' schemas without the arguments the rules
// hide from the model.
func (l *inputsLayer) shapeRequest(_ *flow.Scope, req *llm.Request) {
	for i, ts := range req.Tools {
		t := l.tools[ts.Name]
		if t == nil || len(t.Declaration().AskOrAssume) == 0 {
			continue
		}
		if served, err := inputslayer.ServedSchema(ts.InputSchema, t.Declaration().AskOrAssume, func(arg string) bool { return slices.Contains(t.Declaration().HiddenArguments, arg) }); err == nil {
			req.Tools[i].InputSchema = served
		}
	}
}

// resultNote tells the model which of the call's values it did not choose.
func (l *inputsLayer) resultNote(s *flow.Scope, call llm.ToolCall) string {
	res, ok := resolutionOf(s, call.ID)
	t := l.tools[call.Name]
	if !ok || t == nil {
		return ""
	}
	var b strings.Builder
	for _, f := range res.Fills {
		switch f.Source {
		case inputslayer.SourceDefault:
			b.WriteString(inputslayer.Note(inputslayer.AssumedClause(call.Name, f.Argument, f.Value, slices.Contains(t.Declaration().HiddenArguments, f.Argument))))
		case inputslayer.SourceApp:
			b.WriteString(inputslayer.Note(inputslayer.BoundClause(call.Name, f.Argument, f.Value, slices.Contains(t.Declaration().HiddenArguments, f.Argument))))
		case inputslayer.SourceAnswered:
			b.WriteString(inputslayer.Note(inputslayer.AnsweredClause(call.Name, f.Argument, f.Value, slices.Contains(t.Declaration().HiddenArguments, f.Argument), true)))
		}
	}
	return b.String()
}

// assumedText renders the turn's Assumed block for the limits layer ("" for
// none).
func (l *inputsLayer) assumedText(s *flow.Scope) string {
	turn, _ := kTurnNumber.Get(s)
	rows := kFindings.Get(s)
	var values []inputslayer.AssumedValue
	for _, r := range inputslayer.AssumedRows(rows, turn) {
		v := inputslayer.AssumedValue{ToolName: r.ToolName, Argument: r.Argument, Shown: r.Value}
		if t := l.tools[r.ToolName]; t != nil {
			v.Hidden = slices.Contains(t.Declaration().HiddenArguments, r.Argument)
			if rule, ok := t.Declaration().AskOrAssume[r.Argument]; ok && rule.Assume != nil {
				if _, isText := rule.Assume.(string); isText {
					v.Shown = inputslayer.Quoted(r.Value)
				}
			}
		}
		values = append(values, v)
	}
	return inputslayer.AssumedBlock(values)
}

// resolutionOf returns the resolution sf-inputs made for a call of the
// current batch.
func resolutionOf(s *flow.Scope, id string) (inputslayer.Resolution, bool) {
	rs, _ := kArgumentResolutions.Get(s)
	iter, _ := kIteration.Get(s)
	for _, r := range rs {
		if r.ToolCallID == id && r.Iteration == iter {
			return r, true
		}
	}
	return inputslayer.Resolution{}, false
}

// inputsMountInput hands sf-inputs the batch when sf-route will dispatch it
// (route rule 1), and an empty batch otherwise.
func inputsMountInput(parent flow.Reader) (map[string]any, error) {
	calls, _ := kLatestToolCalls.Get(parent)
	it, _ := kIteration.Get(parent)
	max, _ := kMaxIterations.Get(parent)
	turn, _ := kTurnNumber.Get(parent)
	in := map[string]any{kInIteration.KeyName(): it, kInTurn.KeyName(): turn}
	batch := []inputslayer.Call{}
	if len(calls) > 0 && it < max {
		for _, c := range calls {
			batch = append(batch, inputslayer.Call{ID: c.ID, Name: c.Name, Args: append(json.RawMessage(nil), c.Args...)})
		}
	}
	in[kInCalls.KeyName()] = batch
	if ck, ok := kTurnClock.Get(parent); ok {
		in[kInClock.KeyName()] = ck
	}
	if kept, _ := kArgumentAnswersKept.Get(parent); len(kept) > 0 {
		in[kInKept.KeyName()] = kept
	}
	return in, nil
}

// inputsMountOutput appends the rows to findingsLedger (no op without rows)
// and sets argumentResolutions ([] when none).
func inputsMountOutput(res flow.SubflowResult, _ flow.Reader) ([]flow.Op, error) {
	v, _ := res.State.Get(kInRows.KeyName())
	rows, _ := v.([]ledger.ArgumentRow)
	r, _ := res.State.Get(kInResolved.KeyName())
	resolved, _ := r.([]inputslayer.Resolution)
	if resolved == nil {
		resolved = []inputslayer.Resolution{}
	}
	ops := []flow.Op{kArgumentResolutions.SetOp(resolved)}
	if kept, had := res.State.Get(kInKept.KeyName()); had {
		left := kept
		if b, ok := res.State.Get(kInChecks.KeyName()); ok {
			if batch, ok := b.(inputslayer.Batch); ok {
				left = batch.Kept
			}
		}
		if left == nil {
			left = []inputslayer.KeptAnswer{}
		}
		ops = append(ops, flow.Op{Key: kArgumentAnswersKept.KeyName(), Verb: flow.VerbSet, Value: left})
	}
	if len(rows) > 0 {
		out := make([]ledger.Row, len(rows))
		for i, a := range rows {
			out[i] = ledger.FromArgument(a)
		}
		ops = append([]flow.Op{kFindings.AppendOp(out...)}, ops...)
	}
	return ops, nil
}

// inputsChart builds sf-inputs: declare picks the ruled calls, verify
// applies the resolve table, record files the rows (one findings.argument
// each), resolve writes what dispatch applies.
func inputsChart(toolOf inputslayer.ToolOf) (*flow.Chart, error) {
	return flow.NewBuilder(inputsSubflowID).
		Keys(kInCalls, kInIteration, kInTurn, kInPlan, kInChecks, kInRows, kInResolved, kInClock, kInKept).
		Stage(inputsDeclare, func(_ context.Context, s *flow.Scope) (any, error) {
			calls, _ := kInCalls.Get(s)
			var plan []inputslayer.Call
			for _, c := range calls {
				if t, ok := toolOf(c.Name); ok && len(t.Declaration().AskOrAssume) > 0 {
					plan = append(plan, c)
				}
			}
			if len(plan) > 0 {
				kInPlan.Set(s, plan)
			}
			return nil, nil
		}).
		Stage(inputsVerify, func(_ context.Context, s *flow.Scope) (any, error) {
			plan, _ := kInPlan.Get(s)
			if len(plan) == 0 {
				return nil, nil
			}
			it, _ := kInIteration.Get(s)
			turn, _ := kInTurn.Get(s)
			var bind inputslayer.Binder
			if ck, ok := kInClock.Get(s); ok {
				if w, ok := ck.Window(); ok {
					bind = func(t *tool.Tool, argument string) (any, bool) {
						p := t.Declaration().Period
						ok := p != nil
						if !ok || p.Argument != argument {
							return nil, false
						}
						return bindWindow(*p, w, ck.Now())
					}
				}
			}
			kept, _ := kInKept.Get(s)
			kInChecks.Set(s, inputslayer.ResolveWith(plan, toolOf, inputslayer.Stamp{Turn: turn, Iteration: it}, inputslayer.Options{Bind: bind, Kept: kept}))
			return nil, nil
		}).
		Stage(inputsRecord, func(ctx context.Context, s *flow.Scope) (any, error) {
			b, ok := kInChecks.Get(s)
			if !ok || len(b.Rows) == 0 {
				return nil, nil
			}
			kInRows.Set(s, b.Rows)
			if rs := runOf(ctx); rs != nil {
				for _, r := range b.Rows {
					hidden := false
					if t, ok := toolOf(r.ToolName); ok {
						hidden = slices.Contains(t.Declaration().HiddenArguments, r.Argument)
					}
					rs.emit(s, event.FindingsArgument, r.Iteration, func() any { return inputslayer.Payload(r, hidden) })
				}
			}
			return nil, nil
		}).
		Stage(inputsResolve, func(_ context.Context, s *flow.Scope) (any, error) {
			b, _ := kInChecks.Get(s)
			kInResolved.Set(s, append([]inputslayer.Resolution{}, b.Resolutions...))
			return nil, nil
		}).
		Build()
}
