// The inputs layer's batch ask: when a ruled argument under an ask rule is
// missing, tool-calls pauses as its first act (nothing of the batch is
// written yet) with one typed question for the whole batch. Each reply is
// re-checked against the argument's schema; a field that misfits is asked
// again (the run stays paused), and after three misfits its calls are
// refused by name. On the final reply the batch runs without another model
// call, and every round's rows are filed in the record.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	inputslayer "github.com/agentfootprint/agentfootprint-go/internal/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// PauseArguments is the pause kind of the inputs layer's question; its
// Data is an inputs.PauseData. Resume it with an inputs.Reply as JSON:
// {"requestId": …, "values": {"f1": …}}.
const PauseArguments = "arguments"

var kArgumentAsk = state.KeyArgumentAsk

// repliesInput is what Conversation.Resume hands the paused stage once the last
// round settled every field: every reply, in order.
type repliesInput struct {
	Replies []json.RawMessage `json:"replies"`
}

// askBatch is the tool-calls stage's first act: the question, when any call
// of this batch waits for the person.
func askBatch(toolOf inputslayer.ToolOf) func(ctx context.Context, s *flow.Scope, b *batch) *flow.Pause {
	return func(ctx context.Context, s *flow.Scope, b *batch) *flow.Pause {
		resolved, _ := kArgumentResolutions.Get(s)
		var batchRes inputslayer.Batch
		for _, r := range resolved {
			if r.Iteration == b.iter {
				batchRes.Resolutions = append(batchRes.Resolutions, r)
			}
		}
		if !batchRes.NeedsAsk() {
			return nil
		}
		ask, err := inputslayer.NewAsk(batchRes, callsOf(b.calls), toolOf, fmt.Sprintf("t%d-i%d-r1", b.turn, b.iter))
		if err != nil || len(ask.Fields) == 0 {
			return nil // the calls are then refused at dispatch, by name
		}
		kArgumentAsk.Set(s, state.ArgumentAsk{Iteration: b.iter, Waiting: &ask, Fields: ask.Fields})
		first := ask.Bindings[0]
		b.rs.emit(s, event.PauseRequest, b.iter, func() any {
			return event.PauseRequestPayload{Reason: PauseArguments, ToolCallID: first.Calls[0], ToolName: first.Tool}
		})
		return &flow.Pause{Data: PauseInfo{Kind: PauseArguments, ToolCallID: first.Calls[0], ToolName: first.Tool, Data: inputslayer.Pause(ask)}}
	}
}

// replay answers a question with every reply given so far. last is the
// question still open (nil when every field is settled).
func replay(ask inputs.Ask, replies []json.RawMessage, toolOf inputslayer.ToolOf, st inputslayer.Stamp) (outs []inputslayer.Outcome, last *inputs.Ask, err error) {
	cur := ask
	for i, raw := range replies {
		var r inputs.Reply
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, nil, fmt.Errorf("agent: the reply to the question is not {\"requestId\", \"values\"}: %w", err)
		}
		out, err := inputslayer.Answer(cur, r, toolOf, st)
		if err != nil {
			return nil, nil, fmt.Errorf("agent: %w", err)
		}
		outs = append(outs, out)
		if out.Next == nil {
			if i != len(replies)-1 {
				return nil, nil, fmt.Errorf("agent: more replies than the question had rounds")
			}
			return outs, nil, nil
		}
		cur = *out.Next
	}
	return outs, &cur, nil
}

// waitingAsk reads argumentAsk from a checkpoint's state (typed, or raw
// JSON after a round trip).
func waitingAsk(vals map[string]any) (state.ArgumentAsk, bool) {
	v, ok := vals[kArgumentAsk.KeyName()]
	if !ok {
		return state.ArgumentAsk{}, false
	}
	var a state.ArgumentAsk
	switch t := v.(type) {
	case state.ArgumentAsk:
		a = t
	default:
		b, err := json.Marshal(v)
		if err != nil || json.Unmarshal(b, &a) != nil {
			return state.ArgumentAsk{}, false
		}
	}
	return a, a.Waiting != nil
}

// argumentRound is Conversation.Resume's first step for a paused question. A reply
// that leaves a field to ask again returns the re-asked pause (nothing runs,
// the record is unchanged until the batch resumes); a reply that settles
// every field returns the input the paused stage replays. Not a question:
// input passes through.
func (l *inputsLayer) argumentRound(cp *pauseCheckpoint, input json.RawMessage) (*Result, *pauseCheckpoint, json.RawMessage, error) {
	if cp.Flow == nil {
		return nil, nil, input, nil
	}
	ask, ok := waitingAsk(cp.Flow.State)
	if !ok {
		return nil, nil, input, nil
	}
	replies := append(append([]json.RawMessage{}, cp.ArgumentReplies...), input)
	_, last, err := replay(*ask.Waiting, replies, l.toolOf, inputslayer.Stamp{Turn: cp.Turn, Iteration: ask.Iteration})
	if err != nil {
		return nil, nil, nil, err
	}
	if last != nil {
		next := *cp
		flowCopy := *cp.Flow
		next.Flow = &flowCopy
		next.ArgumentReplies = replies
		first := last.Bindings[0]
		pi := PauseInfo{Kind: PauseArguments, ToolCallID: first.Calls[0], ToolName: first.Tool, Data: inputslayer.Pause(*last)}
		next.Flow.PauseData = pi
		res := &Result{RunID: cp.Flow.RunID, Paused: true, PauseData: &pi}
		res.seal(true)
		return res, &next, nil, nil
	}
	b, err := json.Marshal(repliesInput{Replies: replies})
	return nil, nil, b, err
}

// answerBatch is tool-calls' resume for a question: it replays every reply,
// files every round's rows (one findings.argument each), fills the answers
// into this batch's resolutions, refuses the calls whose field misfit three
// times, and clears the question. handled is false when no question is out.
func answerBatch(toolOf inputslayer.ToolOf) func(ctx context.Context, s *flow.Scope, b *batch, input json.RawMessage) (bool, error) {
	return func(ctx context.Context, s *flow.Scope, b *batch, input json.RawMessage) (bool, error) {
		st, _ := kArgumentAsk.Get(s)
		if st.Waiting == nil {
			return false, nil
		}
		var in repliesInput
		if err := json.Unmarshal(input, &in); err != nil || len(in.Replies) == 0 {
			return true, fmt.Errorf("agent: resume of a question: the input is not the replies Conversation.Resume prepares")
		}
		outs, last, err := replay(*st.Waiting, in.Replies, toolOf, inputslayer.Stamp{Turn: b.turn, Iteration: st.Iteration})
		if err != nil {
			return true, err
		}
		if last != nil {
			return true, fmt.Errorf("agent: resume of a question: a field is still unanswered")
		}
		b.rs.emit(s, event.PauseResume, b.iter, func() any { return event.PauseResumePayload{} })
		fills := map[string][]inputslayer.Fill{}
		refused := map[string]string{}
		var rows []ledger.Row
		for _, out := range outs {
			for _, r := range out.Rows {
				rows = append(rows, ledger.FromArgument(r))
				hidden := false
				if t, ok := toolOf(r.ToolName); ok {
					hidden = slices.Contains(t.Declaration().HiddenArguments, r.Argument)
				}
				b.rs.emit(s, event.FindingsArgument, r.Iteration, func() any { return inputslayer.Payload(r, hidden) })
			}
			for id, f := range out.Fills {
				fills[id] = append(fills[id], f...)
			}
			for id, why := range out.Refused {
				refused[id] = why
			}
		}
		kFindings.Append(s, rows...)
		resolved, _ := kArgumentResolutions.Get(s)
		next := make([]inputslayer.Resolution, len(resolved))
		for i, r := range resolved {
			if r.Iteration == st.Iteration && len(r.Ask) > 0 {
				r.Fills = append(append([]inputslayer.Fill{}, r.Fills...), fills[r.ToolCallID]...)
				r.Ask = nil
				if why := refused[r.ToolCallID]; why != "" {
					r.Refused = why
				}
			}
			next[i] = r
		}
		kArgumentResolutions.Set(s, next)
		kArgumentAsk.Set(s, state.ArgumentAsk{Iteration: st.Iteration, Fields: st.Fields})
		return true, nil
	}
}

// callsOf turns the batch's calls into the layer's plain form.
func callsOf(cs []llm.ToolCall) []inputslayer.Call {
	out := make([]inputslayer.Call, len(cs))
	for i, c := range cs {
		out[i] = inputslayer.Call{ID: c.ID, Name: c.Name, Args: c.Args}
	}
	return out
}
