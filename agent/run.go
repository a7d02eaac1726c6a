// Running a turn: the one-shot Run, how a turn or a resumed leg becomes a
// Result, and the run errors.

package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Errors a caller branches on.
var (
	// ErrRunInFlight refuses a second concurrent turn of one conversation
	// (Send or Resume while a turn of it runs).
	ErrRunInFlight = errors.New("agent: a turn of this conversation is already running")
	// ErrPendingQuestion refuses a new turn while the conversation is
	// paused waiting for a person; answer it with Resume, or drop it with
	// AbandonPause first.
	ErrPendingQuestion = errors.New("agent: the conversation is paused waiting for an answer; call Resume or AbandonPause")
	// ErrNotPaused refuses Resume on a conversation that waits for nothing.
	ErrNotPaused = errors.New("agent: the conversation is not paused; there is nothing to resume")
	// ErrEmptyReply is the cause inside a *RunCheckpointError when the
	// model answered with neither text nor a tool call: there is no answer
	// to return and no tool to run. The error's text names the call, as in
	// "call-llm#6 (iteration 2): scripted replied with no text and no tool
	// call"; the checkpoint's failure point is that call.
	ErrEmptyReply = errors.New("agent: the model replied with no text and no tool call")
)

// Input is one turn's input: the person's message and, for an agent built
// with WithTimeLayer, the turn's clock input.
type Input struct {
	// Message is the person's message for this turn.
	Message string
	// Time is the run's clock input for the time layer (WithTimeLayer): the
	// message's time, the person's zone (overriding the agent's) and a
	// window the person set in the app. Refused on an agent without the
	// time layer.
	Time *clock.Given
	// RunID names the turn's run in its record and events; empty gives a
	// fresh random id. A caller that runs the turn on behalf of a larger run
	// sets it (a composition names each inner run <outer run id>/<node>);
	// ids are expected to be unique.
	RunID string
}

// Usage sums the token counts of a turn's model calls. Unreported counts the
// calls whose provider sent no usage (their tokens are not in the sums).
type Usage struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	Unreported int `json:"unreported"`
}

// Result is what one turn produced. On a run error the Result still carries
// the record of everything that executed.
type Result struct {
	// Answer is the final content of the turn ("" when paused or failed).
	Answer string
	// Paused reports a turn stopped by a tool asking a person; answer it
	// with Conversation.Resume.
	Paused bool
	// PauseData is what the tool asked (its tool.Pause data), with the call.
	PauseData *PauseInfo
	// Iterations is the iteration the turn ended on.
	Iterations int
	// Usage sums the token counts of the turn's model calls.
	Usage Usage
	// StoppedEarly is set when the step budget ended the turn.
	StoppedEarly *event.StoppedEarly
	// RunID names the run (the last leg's id after a resume).
	RunID string
	// Record is the turn's run record (of the last leg after a resume); nil
	// when nothing ran, as for a resumed inputs-layer question that asked
	// again.
	Record *record.Record
	// History is the conversation's messages as of the end of this turn
	// (including the final answer, or as of the pause, or as of the last
	// iteration boundary of a failed turn); empty when the turn failed
	// before any history existed. The slice is the caller's.
	History []llm.Message
	// Assessment is the turn's standing, folded from Record by the same
	// function prepare-final used (Record.Assessment); a paused turn is
	// folded as of its pause. It is never nil in a Result the agent
	// returns: for an agent without the results layer it is standing
	// not-assessed with the one reason "results-layer-not-armed", so
	// res.Assessment.Standing is always safe to read.
	Assessment *assess.Assessment
	// AnswerCoverage is what the turn's tools declared, beside a typed
	// answer under WithLimitsBlock (the answerCoverage key), or nil: an
	// untyped agent, the option off, or nothing declared or assumed.
	AnswerCoverage *limits.AnswerCoverage
}

// RunCheckpointError ends a run whose model call failed. Checkpoint is the
// conversation as of the last iteration boundary, with where the run
// stopped (its failurePoint), encoded as Conversation.Checkpoint encodes a
// conversation: Agent.LoadConversation restores it. The Conversation the
// turn ran on keeps it too, so a later Send continues from there when
// Resumable says that can help.
type RunCheckpointError struct {
	// Cause is why the model call failed: the provider's error, or an
	// error that is ErrEmptyReply.
	Cause error
	// Checkpoint is the conversation checkpoint to continue from.
	Checkpoint []byte
	// Resumable reports whether the provider said resuming later can help
	// (its *llm.Error was marked resumable).
	Resumable bool
}

// Error says the model call failed, why, and whether resuming can help.
func (e *RunCheckpointError) Error() string {
	hint := "resuming later will not help until the cause is fixed"
	if e.Resumable {
		hint = "resuming from the checkpoint later may succeed"
	}
	return fmt.Sprintf("agent: the run stopped because the model call failed (%v); %s", e.Cause, hint)
}

// Unwrap returns the provider's error.
func (e *RunCheckpointError) Unwrap() error { return e.Cause }

// resumable reports whether the provider said resuming later can help.
func resumable(cause error) bool {
	var le *llm.Error
	return errors.As(cause, &le) && le.Resumable
}

// Run takes one turn of a fresh conversation: the convenience for a
// one-shot question. It is safe to call concurrently. To take further turns,
// start a Conversation with NewConversation and Send to it.
func (a *Agent) Run(ctx context.Context, in Input) (*Result, error) {
	c := a.NewConversation()
	c.oneShot = true
	return c.Send(ctx, in)
}

// turnEnd is what a finished leg leaves for its conversation: the
// checkpoint to continue from (nil: unchanged) and the pause, if any.
type turnEnd struct {
	state   *conversationCheckpoint
	pending *pauseCheckpoint
}

// startTurn runs the chart for one new turn.
func (a *Agent) startTurn(ctx context.Context, rs *runState, runID string) (*Result, turnEnd, error) {
	if runID == "" {
		runID = newRunID()
	}
	res, err := a.chart.Run(withRun(ctx, rs), nil, a.runOptions(runID)...)
	a.releaseScratch(rs)
	return a.finish(rs, res, err, nil, rs.message)
}

// runOptions are the options of one run of the chart: the agent's own
// (built once, in New) and the run id, when one is given.
func (a *Agent) runOptions(runID string) []flow.RunOption {
	if runID == "" {
		return a.runOpts
	}
	// Capacity-clipped: the append copies, and a.runOpts stays as built.
	return append(a.runOpts[:len(a.runOpts):len(a.runOpts)], flow.WithRunID(runID))
}

// resumeTurn continues a paused turn: input becomes the paused call's
// result (a JSON value; a JSON string is served as its text), the later
// calls of the batch run, and the turn goes on. Calls that ran before the
// pause are not run again.
func (a *Agent) resumeTurn(ctx context.Context, cp *pauseCheckpoint, input json.RawMessage, ro resumeConfig) (*Result, turnEnd, error) {
	if err := a.checkTimeInput(ro.time); err != nil {
		return nil, turnEnd{}, err
	}
	if len(input) == 0 {
		input = json.RawMessage("null")
	}
	if !json.Valid(input) {
		return nil, turnEnd{}, fmt.Errorf("agent: resume input is not a JSON value; pass a JSON string such as %q", `"yes"`)
	}
	// A question of the inputs layer: a reply that leaves a field to ask
	// again re-asks without running anything.
	if ask := a.seams.ask; ask != nil {
		reask, next, forward, err := ask.argumentRound(cp, input)
		if err != nil {
			return nil, turnEnd{}, err
		}
		if reask != nil {
			return reask, turnEnd{pending: next}, nil
		}
		input = forward
	}
	rs := &runState{a: a, start: a.cfg.now(), message: cp.Message, turn: cp.Turn, given: ro.time, identity: ro.identity}
	for k, v := range cp.Blobs {
		if rs.blobs == nil {
			rs.blobs = map[string][]byte{}
		}
		rs.blobs[k] = v
	}
	for k, v := range cp.Requests {
		if rs.requests == nil {
			rs.requests = map[string]record.RequestDelta{}
		}
		rs.requests[k] = v
	}
	for _, ev := range cp.Events {
		rs.events.Append(ev)
	}
	rs.dropped = cp.DroppedEvents
	res, err := a.chart.Resume(withRun(ctx, rs), cp.Flow, input, a.runOptions("")...)
	a.releaseScratch(rs)
	return a.finish(rs, res, err, cp, cp.Message)
}

// finish turns a flow result into the agent's Result and what the
// conversation keeps.
func (a *Agent) finish(rs *runState, res *flow.Result, err error, from *pauseCheckpoint, message string) (*Result, turnEnd, error) {
	out, end, err := a.finishLeg(rs, res, err, from, message)
	if err == nil && !out.Paused && rs.standing != nil {
		// prepare-final folded the committed keys the record fold reads,
		// and nothing after it writes them: the same standing.
		out.Assessment = rs.standing
	}
	if h := out.History; rs.oneShot && err == nil && !out.Paused && len(h) > 0 && &h[0] != rs.seedHistory {
		// Run's conversation ends with this call, and the history of a
		// finished turn is then an array no one else holds: the history
		// list's own, which its first append copied away from the seed
		// commit's value. It is handed to the caller instead of copied. Its
		// tool calls are the record's (the append ops hold them), so those
		// are still copied.
		copyMessages(out.History, out.History)
		out.History = out.History[:len(out.History):len(out.History)]
		out.seal(false)
	} else {
		out.seal(true)
	}
	return out, end, err
}

// seal fills what a Result derives from its record and history: the
// caller's copy of the history (unless the caller owns it already), the
// folded standing (unless prepare-final's is kept) and answerCoverage.
func (r *Result) seal(copyHistory bool) {
	if copyHistory {
		r.History = cloneMessages(r.History)
	}
	if r.Assessment == nil {
		r.Assessment = r.Record.Assessment()
	}
	r.AnswerCoverage = answerCoverageIn(r.Record)
}

// finishLeg is finish before the Result is sealed; History holds the
// conversation's own slice until then.
func (a *Agent) finishLeg(rs *runState, res *flow.Result, err error, from *pauseCheckpoint, message string) (*Result, turnEnd, error) {
	out := &Result{}
	if res != nil && res.Record != nil {
		last := len(res.Record.Commits) - 1
		out.RunID = res.Record.RunID
		out.Record = a.record(rs, res.Record, from, err == nil && !res.Paused)
		if v, ok, _ := flow.ValueAt(res.Record, last, kIteration.KeyName()); ok {
			out.Iterations, _ = v.(int)
		}
		in, _, _ := flow.ValueAt(res.Record, last, kTotalIn.KeyName())
		o, _, _ := flow.ValueAt(res.Record, last, kTotalOut.KeyName())
		un, _, _ := flow.ValueAt(res.Record, last, kUsageUnreported.KeyName())
		out.Usage.Input, _ = in.(int)
		out.Usage.Output, _ = o.(int)
		out.Usage.Unreported, _ = un.(int)
		if v, ok, _ := flow.ValueAt(res.Record, last, kStoppedEarly.KeyName()); ok {
			if se, ok := v.(event.StoppedEarly); ok {
				out.StoppedEarly = &se
			}
		}
	}
	if err != nil {
		var pf *providerFailure
		if errors.As(err, &pf) {
			cv := a.checkpoint(out.RunID, rs.failHistory, rs.failure.Iteration-1, message)
			a.attachLedger(cv, res)
			cv.FailurePoint = rs.failure
			out.History = cv.History
			saved, _ := json.Marshal(cv) // plain data: it always encodes
			return out, turnEnd{state: cv}, &RunCheckpointError{Cause: pf.err, Checkpoint: saved, Resumable: resumable(pf.err)}
		}
		return out, turnEnd{}, fmt.Errorf("agent: run %s: %w", out.RunID, err)
	}
	if res.Paused {
		out.Paused = true
		cp := &pauseCheckpoint{Version: pauseCheckpointVersion, Flow: res.Checkpoint, Message: message, Turn: rs.turn,
			Blobs: rs.blobs, Requests: rs.requests, Events: rs.events.Slice(), DroppedEvents: rs.dropped}
		if pi, ok := res.PauseData.(PauseInfo); ok {
			out.PauseData = &pi
		}
		end := turnEnd{pending: cp}
		if h, ok, _ := flow.ValueAt(res.Record, len(res.Record.Commits)-1, kHistory.KeyName()); ok {
			hist, _ := h.([]llm.Message)
			end.state = a.checkpoint(out.RunID, hist, out.Iterations-1, message)
			a.attachLedger(end.state, res)
			out.History = end.state.History
		}
		return out, end, nil
	}
	out.Answer, _ = res.Output.(string)
	cv := a.checkpoint(out.RunID, rs.finalHistory, rs.lastIter, message)
	a.attachLedger(cv, res)
	out.History = cv.History
	return out, turnEnd{state: cv}, nil
}

// attachLedger carries the armed layers' findings ledger on a conversation
// checkpoint (nothing when no layer files findings).
func (a *Agent) attachLedger(cv *conversationCheckpoint, res *flow.Result) {
	if a.seams.ledger != nil && res != nil && res.Record != nil {
		cv.FindingsLedger = a.seams.ledger.exportLedger(res.Record)
	}
}

func newRunID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return ""
	}
	return "run-" + hex.EncodeToString(b[:])
}

// cloneMessages copies ms and every tool call's arguments: the tool calls of
// all messages share one array and their arguments one byte slice (each
// piece capacity-clipped), three allocations instead of two per call.
func cloneMessages(ms []llm.Message) []llm.Message {
	out := make([]llm.Message, len(ms))
	copyMessages(out, ms)
	return out
}

// copyMessages writes ms into out (as long as ms; out may be ms itself) with
// copies of every tool call and its arguments, as cloneMessages does.
func copyMessages(out, ms []llm.Message) {
	ncalls, nargs := 0, 0
	for _, m := range ms {
		ncalls += len(m.ToolCalls)
		for _, c := range m.ToolCalls {
			nargs += len(c.Args)
		}
	}
	var calls []llm.ToolCall
	var args []byte
	if ncalls > 0 {
		calls = make([]llm.ToolCall, 0, ncalls)
	}
	if nargs > 0 {
		args = make([]byte, 0, nargs)
	}
	for i, m := range ms {
		if m.ToolCalls != nil {
			from := len(calls)
			for _, c := range m.ToolCalls {
				if len(c.Args) > 0 {
					at := len(args)
					args = append(args, c.Args...)
					c.Args = args[at:len(args):len(args)]
				} else {
					c.Args = nil
				}
				calls = append(calls, c)
			}
			m.ToolCalls = calls[from:len(calls):len(calls)]
			if m.ToolCalls == nil {
				// A non-nil empty list stays non-nil.
				m.ToolCalls = []llm.ToolCall{}
			}
		}
		out[i] = m
	}
}

// openCallText answers a call left without a result when a conversation
// continues past it (for example from a checkpoint taken at a pause).
const openCallText = "This call was not run: the conversation went on without its result."

// closeOpenCalls answers, right after their assistant message, the tool calls
// of h that have no tool message, because providers refuse a call without a
// result. h is a private copy; the added messages are recorded by seed.
func closeOpenCalls(h []llm.Message) []llm.Message {
	answered := map[string]bool{}
	for _, m := range h {
		if m.Role == llm.RoleTool {
			answered[m.ToolCallID] = true
		}
	}
	out := make([]llm.Message, 0, len(h))
	changed := false
	for i := 0; i < len(h); i++ {
		m := h[i]
		out = append(out, m)
		if m.Role != llm.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		// The answers already there stay next to their calls.
		for i+1 < len(h) && h[i+1].Role == llm.RoleTool {
			i++
			out = append(out, h[i])
		}
		for _, c := range m.ToolCalls {
			if !answered[c.ID] {
				out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, ToolName: c.Name, Content: openCallText, IsError: true})
				answered[c.ID] = true
				changed = true
			}
		}
	}
	if !changed {
		return h
	}
	return out
}

// userTurns counts the person's messages in a history (the framework's own
// wrap-up message is not one).
func userTurns(h []llm.Message) int {
	n := 0
	for _, m := range h {
		if m.Role == llm.RoleUser && m.Content != wrapUpUserText && !isOutputCorrection(m) {
			n++
		}
	}
	return n
}
