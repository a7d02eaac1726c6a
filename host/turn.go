// This file runs a turn: take the conversation's lease, load its checkpoint, run the turn
// on a goroutine of the host (not of the request), renew the lease while it runs, then
// save the run record, the checkpoint and the result event and give the lease back.

package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/host/session"
	"github.com/agentfootprint/agentfootprint-go/store"
)

// Host event types, beside the agent's own event names.
const (
	// EventResult ends every turn: its data is the turn's Result.
	EventResult = "result"
	// EventTurnFailed marks a turn whose host stopped before it ended: its data is a
	// TurnFailed.
	EventTurnFailed = "turn_failed"
)

// Result is a turn's outcome as the API returns it, and the data of the result event.
type Result struct {
	ConversationID string           `json:"conversationId"`
	RunID          string           `json:"runId"`
	Answer         string           `json:"answer"`
	Standing       string           `json:"standing"`
	Reasons        []assess.Reason  `json:"reasons"`
	Paused         bool             `json:"paused"`
	Pending        *agent.PauseInfo `json:"pending"`
	// Error is set when the turn failed; the conversation keeps what it had before the
	// failed step, and the same message can be sent again.
	Error *ErrorBody `json:"error,omitempty"`
}

// TurnFailed is the data of a turn_failed event.
type TurnFailed struct {
	RunID  string `json:"runId,omitempty"`
	Host   string `json:"host"`
	Reason string `json:"reason"`
}

// turn is one turn in flight on this host.
type turn struct {
	conv     string
	agent    *agent.Agent
	c        *agent.Conversation
	startSeq int64 // the conversation's last sequence number before the turn's first event
	ctx      context.Context
	cancel   context.CancelFunc
	lost     atomic.Bool
	unsaved  atomic.Int64

	done   chan struct{}
	result Result
}

// turnInput is a turn's request: a message (Send) or an answer (Resume).
type turnInput struct {
	resume  bool
	message string
	answer  json.RawMessage
	time    *clock.Given
	// abandon drops a pending question before a new turn (AbandonPause).
	abandon bool
}

// begin takes the conversation for a turn and starts it. Refusals come back as an error
// response to write.
func (h *Host) begin(id string, in turnInput) (*turn, *badRequest) {
	h.mu.Lock()
	draining := h.draining
	if !draining {
		h.turns.Add(1)
	}
	h.mu.Unlock()
	if draining {
		return nil, &badRequest{http.StatusServiceUnavailable, "draining", "this host is shutting down; send the turn to another host or retry", ""}
	}
	started := false
	defer func() {
		if !started {
			h.turns.Done()
		}
	}()
	ctx, cancel := context.WithTimeout(h.base, 10*time.Second)
	defer cancel()
	l, err := h.sessions.Acquire(ctx, id, h.id, h.leaseTTL)
	if err != nil {
		return nil, storeError(err, id)
	}
	a := h.agents[l.Agent]
	var refusal *badRequest
	switch {
	case a == nil:
		refusal = &badRequest{http.StatusInternalServerError, "internal", fmt.Sprintf("conversation %s belongs to agent %q, which this host does not serve", id, l.Agent), ""}
	case in.time != nil && !slices.Contains(a.Layers(), "time"):
		refusal = &badRequest{http.StatusBadRequest, "bad_request", fmt.Sprintf("agent %s has no time layer, so it takes no time input; leave time out", l.Agent), "time"}
	}
	t := &turn{conv: id, agent: a, startSeq: l.LastSeq, done: make(chan struct{})}
	t.ctx, t.cancel = context.WithTimeout(h.base, h.turnTimeout)
	giveBack := func() {
		rctx, rcancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer rcancel()
		if _, err := h.sessions.Release(rctx, id, h.id, session.End{State: l.State}); err != nil {
			h.log.Error("host: giving back a conversation", "conversation", id, "err", err)
		}
		t.cancel()
	}
	if refusal != nil && l.Abandoned == nil {
		giveBack()
		return nil, refusal
	}
	if l.Abandoned != nil {
		// The previous host stopped mid-turn: its events stay in the log as the partial
		// record of that turn, which is marked failed; the conversation continues from the
		// checkpoint saved before it.
		data, _ := json.Marshal(TurnFailed{RunID: l.Abandoned.RunID, Host: l.Abandoned.Owner,
			Reason: "the host running this turn stopped before it ended (its lease expired); the conversation continues from before the turn, which can be sent again"})
		seq, err := h.sessions.Append(ctx, id, h.id, session.Event{RunID: l.Abandoned.RunID, Type: EventTurnFailed, Data: data})
		if err != nil {
			giveBack()
			return nil, storeError(err, id)
		}
		h.log.Warn("host: took over a conversation whose host stopped mid-turn", "conversation", id, "from", l.Abandoned.Owner, "run", l.Abandoned.RunID)
		t.startSeq = seq
		h.notify(id)
		if refusal != nil {
			giveBack()
			return nil, refusal
		}
	}
	// The conversation's id is stamped on every event of its turns, so the
	// one listener on the agent knows whose each event is.
	conv, err := a.LoadConversation(l.Checkpoint, agent.WithIdentity(agent.Identity{SessionID: id}))
	if err != nil {
		giveBack()
		return nil, &badRequest{http.StatusInternalServerError, "internal", fmt.Sprintf("conversation %s: its checkpoint does not load: %v", id, err), ""}
	}
	switch pending := conv.Pending(); {
	case in.resume && pending == nil:
		giveBack()
		return nil, &badRequest{http.StatusConflict, "not_paused", "the conversation waits for no answer; send a turn instead", ""}
	case !in.resume && pending != nil && in.abandon:
		// The person moved on: the question is dropped, and the new turn's record names
		// the run it was dropped from.
		conv.AbandonPause()
	case !in.resume && pending != nil:
		giveBack()
		return nil, &badRequest{http.StatusConflict, "paused", fmt.Sprintf("the conversation waits for an answer to %s: answer it (POST …/answers), or send the turn with \"abandonPause\": true to drop the question", pending.ToolName), ""}
	}
	t.c = conv
	started = true
	go h.run(t, in, l.State)
	return t, nil
}

// run takes the turn and saves what it left. It runs on its own goroutine, bounded by the
// host's context and the turn timeout, never by the request.
func (h *Host) run(t *turn, in turnInput, before session.State) {
	defer h.turns.Done()
	defer t.cancel()
	renewed := make(chan struct{})
	go h.renew(t, renewed)

	var res *agent.Result
	var err error
	h.bind(t)
	if in.resume {
		var opts []agent.ResumeOption
		if in.time != nil {
			opts = append(opts, agent.WithResumeTime(*in.time))
		}
		res, err = t.c.Resume(t.ctx, in.answer, opts...)
	} else {
		res, err = t.c.Send(t.ctx, agent.Input{Message: in.message, Time: in.time})
	}
	close(renewed)
	h.unbind(t)

	out := Result{ConversationID: t.conv, Reasons: []assess.Reason{}}
	if res != nil {
		out.RunID = res.RunID
		out.Answer = res.Answer
		out.Paused = res.Paused
		if as := res.Assessment; as != nil {
			out.Standing = as.Standing
			if as.Reasons != nil {
				out.Reasons = as.Reasons
			}
		}
	}
	out.Pending = t.c.Pending()
	if err != nil {
		out.Error = &ErrorBody{Code: "turn_failed", Message: err.Error(), RunID: out.RunID}
		if t.lost.Load() {
			out.Error.Message = "another host took this conversation over while the turn ran (its lease was lost); nothing more of this turn was kept"
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if h.runs != nil && res != nil && res.Record != nil {
		if run, rerr := store.RunFromResult(res, err); rerr == nil {
			run.SessionID = t.conv
			if perr := h.runs.PutRun(ctx, run); perr != nil {
				h.log.Error("host: the run record was not stored", "run", run.ID, "err", perr)
			}
		} else {
			h.log.Error("host: the run record was not stored", "run", out.RunID, "err", rerr)
		}
	}
	state := session.StateIdle
	if out.Pending != nil {
		state = session.StatePaused
	}
	cp, cerr := t.c.Checkpoint()
	if cerr != nil {
		h.log.Error("host: the checkpoint was not taken", "conversation", t.conv, "err", cerr)
		cp, state = nil, before
	}
	data, _ := json.Marshal(out)
	if !t.lost.Load() {
		if _, rerr := h.sessions.Release(ctx, t.conv, h.id, session.End{Checkpoint: cp, State: state, Turn: true,
			Event: &session.Event{RunID: out.RunID, Type: EventResult, Data: data}}); rerr != nil {
			h.log.Error("host: the turn's end was not saved", "conversation", t.conv, "err", rerr)
			if out.Error == nil {
				out.Error = &ErrorBody{Code: "turn_failed", Message: "the turn ran but its end was not saved: " + rerr.Error(), RunID: out.RunID}
			}
		}
	}
	t.result = out
	close(t.done)
	h.notify(t.conv)
}

// renew keeps the turn's lease alive until stop closes; a lease lost cancels the turn.
func (h *Host) renew(t *turn, stop <-chan struct{}) {
	tick := time.NewTicker(h.leaseTTL / 3)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(context.Background(), h.leaseTTL/3)
			err := h.sessions.Renew(ctx, t.conv, h.id, h.leaseTTL)
			cancel()
			if errors.Is(err, session.ErrLeaseLost) {
				t.lost.Store(true)
				t.cancel()
				return
			}
			if err != nil {
				h.log.Error("host: renewing a lease", "conversation", t.conv, "err", err)
			}
		}
	}
}

// storeError maps a session store error to its response.
func storeError(err error, id string) *badRequest {
	switch {
	case errors.Is(err, session.ErrNotFound):
		return &badRequest{http.StatusNotFound, "not_found", fmt.Sprintf("no conversation %q", id), ""}
	case errors.Is(err, session.ErrBusy):
		return &badRequest{http.StatusConflict, "turn_in_flight", "a turn of this conversation is in flight; wait for its result event and send again", ""}
	case errors.Is(err, session.ErrLeaseLost):
		return &badRequest{http.StatusConflict, "turn_in_flight", "another host took this conversation; send again", ""}
	}
	return &badRequest{http.StatusInternalServerError, "internal", "the session store failed: " + err.Error(), ""}
}
