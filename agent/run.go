// Running a turn: Run, Resume, FollowUp, the Result and the run errors.

package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Errors a caller branches on.
var (
	// ErrRunInFlight refuses a second concurrent turn of the agent's
	// conversation (FollowUp or Resume while one is running).
	ErrRunInFlight = errors.New("agent: a turn of this conversation is already running")
	// ErrPendingQuestion refuses a new turn while the agent's conversation is
	// paused waiting for a person; Resume it, or AbandonPause first.
	ErrPendingQuestion = errors.New("agent: the conversation is paused waiting for an answer; call Resume or AbandonPause")
	// ErrNoConversation refuses FollowUp before any turn completed.
	ErrNoConversation = errors.New("agent: there is no conversation to follow up yet; call Run first")
)

// Input is one turn's input: the person's message, and optionally the
// conversation it continues.
type Input struct {
	// Message is the person's message for this turn.
	Message string
	// ContinueFrom, when set, continues that conversation: its history is
	// restored and Message is appended as the next user turn.
	ContinueFrom *Conversation
	// Time is the run's clock input for the time layer (WithTime): the
	// message's time, the person's zone (overriding the agent's) and a
	// window the person set in the app. Refused on an agent without
	// WithTime.
	Time *clock.Given
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
	// Paused reports a turn stopped by a tool asking a person; Resume it with
	// Checkpoint and the person's answer.
	Paused     bool
	Checkpoint *PauseCheckpoint
	// PauseData is what the tool asked (its tool.Pause data), with the call.
	PauseData *PauseInfo
	// Iterations is the iteration the turn ended on.
	Iterations int
	Usage      Usage
	// StoppedEarly is set when the step budget ended the turn.
	StoppedEarly *event.StoppedEarly
	// RunID names the run (the last leg's id after a resume).
	RunID string

	record *Record
	conv   *Conversation
}

// FinalContent returns Answer (the finalContent key's value).
func (r *Result) FinalContent() string { return r.Answer }

// Record returns the turn's run record.
func (r *Result) Record() *Record { return r.record }

// Conversation returns the conversation checkpoint as of the end of this
// turn (history including the final answer, or as of the pause), or nil
// when the turn failed before any history existed.
func (r *Result) Conversation() *Conversation { return r.conv }

// RunCheckpointError ends a run whose model call failed. Checkpoint is the
// conversation as of the last iteration boundary, with its failure point;
// continue it with Input.ContinueFrom when Resumable says that can help.
type RunCheckpointError struct {
	Cause      error
	Checkpoint *Conversation
}

// Error says the model call failed, why, and whether resuming can help.
func (e *RunCheckpointError) Error() string {
	hint := "resuming later will not help until the cause is fixed"
	if e.Resumable() {
		hint = "resuming from the checkpoint later may succeed"
	}
	return fmt.Sprintf("agent: the run stopped because the model call failed (%v); %s", e.Cause, hint)
}

// Unwrap returns the provider's error.
func (e *RunCheckpointError) Unwrap() error { return e.Cause }

// Resumable reports whether the provider said resuming later can help.
func (e *RunCheckpointError) Resumable() bool {
	var le *llm.Error
	return errors.As(e.Cause, &le) && le.Resumable
}

// Run takes one turn: it starts a new conversation from in.Message, or
// continues in.ContinueFrom. It is safe to call concurrently; each call owns
// its execution. It refuses (ErrPendingQuestion) while the agent's remembered
// conversation is paused.
func (a *Agent) Run(ctx context.Context, in Input) (*Result, error) {
	a.mu.Lock()
	if a.pending != nil {
		a.mu.Unlock()
		return nil, ErrPendingQuestion
	}
	a.mu.Unlock()
	rs := &runState{a: a, start: a.cfg.now(), message: in.Message, turn: 1}
	if err := a.checkTimeInput(in.Time); err != nil {
		return nil, err
	}
	rs.given = in.Time
	if cv := in.ContinueFrom; cv != nil {
		if err := cv.Validate(); err != nil {
			return nil, err
		}
		if cv.Agent != nil && cv.Agent.ID != "" && cv.Agent.ID != a.cfg.id {
			return nil, &CheckpointError{Field: "agent.id", Reason: fmt.Sprintf("the checkpoint belongs to agent %q, not %q", cv.Agent.ID, a.cfg.id)}
		}
		rs.prior = closeOpenCalls(cloneMessages(cv.History))
		rs.turn = userTurns(rs.prior) + 1
		rs.from = cv.clone()
	}
	return a.start(ctx, rs, false)
}

// FollowUp takes the next turn of the agent's remembered conversation (the
// last turn that ended). It refuses ErrNoConversation before any turn,
// ErrRunInFlight while a turn of it runs, ErrPendingQuestion while it is
// paused.
func (a *Agent) FollowUp(ctx context.Context, message string) (*Result, error) {
	a.mu.Lock()
	switch {
	case a.pending != nil:
		a.mu.Unlock()
		return nil, ErrPendingQuestion
	case a.inFlight:
		a.mu.Unlock()
		return nil, ErrRunInFlight
	case a.conv == nil:
		a.mu.Unlock()
		return nil, ErrNoConversation
	}
	cv := a.conv
	a.inFlight = true
	a.mu.Unlock()
	rs := &runState{a: a, start: a.cfg.now(), message: message, prior: closeOpenCalls(cloneMessages(cv.History)), from: cv.clone()}
	rs.turn = userTurns(rs.prior) + 1
	return a.start(ctx, rs, true)
}

// Checkpoint returns the agent's remembered conversation (the last turn
// that ended, or the history as of a pause), or nil before any turn.
func (a *Agent) Checkpoint() *Conversation {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.conv == nil {
		return nil
	}
	return a.conv.clone()
}

// AbandonPause drops the remembered pause so a new turn may start, and
// returns the checkpoint dropped (nil when nothing was paused).
func (a *Agent) AbandonPause() *PauseCheckpoint {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.pending
	a.pending = nil
	if p != nil && p.Flow != nil {
		a.abandoned = p.Flow.RunID
	}
	return p
}

// start runs the chart for one turn. guarded marks a turn of the remembered
// conversation, whose in-flight flag it clears when done.
func (a *Agent) start(ctx context.Context, rs *runState, guarded bool) (*Result, error) {
	a.mu.Lock()
	rs.abandoned, a.abandoned = a.abandoned, ""
	a.mu.Unlock()
	if guarded {
		defer func() {
			a.mu.Lock()
			a.inFlight = false
			a.mu.Unlock()
		}()
	}
	res, err := a.chart.Run(withRun(ctx, rs), nil, a.runOptions(newRunID())...)
	return a.finish(rs, res, err, nil, rs.message)
}

func (a *Agent) runOptions(runID string) []flow.RunOption {
	opts := []flow.RunOption{
		flow.WithVisitLimit(a.cfg.maxIter*2 + 10),
		flow.WithClock(func() time.Time { return a.cfg.now().UTC() }),
	}
	if runID != "" {
		opts = append(opts, flow.WithRunID(runID))
	}
	return opts
}

// Resume continues a turn paused by a tool: input becomes the paused call's
// result (a JSON value; a JSON string is served as its text), the later calls
// of the batch run, and the turn goes on. Calls that ran before the pause are
// not run again. It refuses a nil or malformed checkpoint naming the field.
func (a *Agent) Resume(ctx context.Context, cp *PauseCheckpoint, input json.RawMessage, opts ...ResumeOption) (*Result, error) {
	var ro resumeConfig
	for _, o := range opts {
		o(&ro)
	}
	if err := a.checkTimeInput(ro.time); err != nil {
		return nil, err
	}
	if cp == nil || cp.Flow == nil {
		return nil, &CheckpointError{Field: "flow", Reason: "the pause checkpoint is missing"}
	}
	if cp.Version != PauseCheckpointVersion {
		return nil, &CheckpointError{Field: "version", Reason: fmt.Sprintf("got %d, want %d", cp.Version, PauseCheckpointVersion)}
	}
	if len(input) == 0 {
		input = json.RawMessage("null")
	}
	if !json.Valid(input) {
		return nil, fmt.Errorf("agent: resume input is not a JSON value; pass a JSON string such as %q", `"yes"`)
	}
	// A question of the inputs layer: a reply that leaves a field to ask
	// again re-asks without running anything.
	reask, forward, err := a.argumentRound(cp, input)
	if err != nil || reask != nil {
		return reask, err
	}
	input = forward
	a.mu.Lock()
	if a.inFlight {
		a.mu.Unlock()
		return nil, ErrRunInFlight
	}
	a.inFlight = true
	if a.pending != nil && a.pending.Flow.RunID == cp.Flow.RunID {
		a.pending = nil
	}
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.inFlight = false
		a.mu.Unlock()
	}()
	rs := &runState{a: a, start: a.cfg.now(), message: cp.Message, turn: cp.Turn, given: ro.time}
	for k, v := range cp.Blobs {
		if rs.blobs == nil {
			rs.blobs = map[string][]byte{}
		}
		rs.blobs[k] = v
	}
	rs.events = append(rs.events, cp.Events...)
	rs.dropped = cp.DroppedEvents
	res, err := a.chart.Resume(withRun(ctx, rs), cp.Flow, input, a.runOptions("")...)
	return a.finish(rs, res, err, cp, cp.Message)
}

// finish turns a flow result into the agent's Result and remembers the
// conversation.
func (a *Agent) finish(rs *runState, res *flow.Result, err error, from *PauseCheckpoint, message string) (*Result, error) {
	out := &Result{}
	if res != nil && res.Record != nil {
		out.RunID = res.Record.RunID
		out.record = a.record(rs, res.Record, from, err == nil && !res.Paused)
		if v, ok, _ := flow.ValueAt(res.Record, len(res.Record.Commits)-1, kIteration.KeyName()); ok {
			out.Iterations, _ = v.(int)
		}
		in, _, _ := flow.ValueAt(res.Record, len(res.Record.Commits)-1, kTotalIn.KeyName())
		o, _, _ := flow.ValueAt(res.Record, len(res.Record.Commits)-1, kTotalOut.KeyName())
		un, _, _ := flow.ValueAt(res.Record, len(res.Record.Commits)-1, kUsageUnreported.KeyName())
		out.Usage.Input, _ = in.(int)
		out.Usage.Output, _ = o.(int)
		out.Usage.Unreported, _ = un.(int)
		if v, ok, _ := flow.ValueAt(res.Record, len(res.Record.Commits)-1, kStoppedEarly.KeyName()); ok {
			if se, ok := v.(event.StoppedEarly); ok {
				out.StoppedEarly = &se
			}
		}
	}
	if err != nil {
		var pf *providerFailure
		if errors.As(err, &pf) {
			cv := a.conversation(out.RunID, rs.failHistory, rs.failure.Iteration-1, message)
			a.attachLedger(cv, res)
			cv.FailurePoint = rs.failure
			return out, &RunCheckpointError{Cause: pf.err, Checkpoint: cv}
		}
		return out, fmt.Errorf("agent: run %s: %w", out.RunID, err)
	}
	if res.Paused {
		out.Paused = true
		cp := &PauseCheckpoint{Version: PauseCheckpointVersion, Flow: res.Checkpoint, Message: message, Turn: rs.turn,
			Blobs: rs.blobs, Events: rs.events, DroppedEvents: rs.dropped}
		if pi, ok := res.PauseData.(PauseInfo); ok {
			out.PauseData = &pi
		}
		out.Checkpoint = cp
		if h, ok, _ := flow.ValueAt(res.Record, len(res.Record.Commits)-1, kHistory.KeyName()); ok {
			hist, _ := h.([]llm.Message)
			out.conv = a.conversation(out.RunID, hist, out.Iterations-1, message)
			a.attachLedger(out.conv, res)
		}
		a.mu.Lock()
		a.pending = cp
		if out.conv != nil {
			a.conv = out.conv.clone()
		}
		a.mu.Unlock()
		return out, nil
	}
	out.Answer, _ = res.Output.(string)
	out.conv = a.conversation(out.RunID, rs.finalHistory, rs.lastIter, message)
	a.attachLedger(out.conv, res)
	a.mu.Lock()
	a.conv = out.conv.clone()
	a.mu.Unlock()
	return out, nil
}

// attachLedger carries the armed layers' findings ledger on a conversation
// checkpoint (nothing when no layer files findings).
func (a *Agent) attachLedger(cv *Conversation, res *flow.Result) {
	if a.cfg.hooks.exportLedger != nil && res != nil && res.Record != nil {
		cv.FindingsLedger = a.cfg.hooks.exportLedger(res.Record)
	}
}

func newRunID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return ""
	}
	return "run-" + hex.EncodeToString(b[:])
}

func cloneMessages(ms []llm.Message) []llm.Message {
	out := make([]llm.Message, len(ms))
	for i, m := range ms {
		if m.ToolCalls != nil {
			calls := make([]llm.ToolCall, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				c.Args = append(json.RawMessage(nil), c.Args...)
				calls[j] = c
			}
			m.ToolCalls = calls
		}
		out[i] = m
	}
	return out
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
