// This file places each agent event in the conversation whose turn emitted it, and
// persists it there before anyone is told.
//
// An agent delivers the events of all its conversations to one listener, and a turn's run
// id is made inside the agent when the turn starts, so the host learns it from the turn's
// first event. To tell whose first event it is, a turn starting holds the gate until its
// first event arrives (it is emitted on the turn's own goroutine, before the turn does
// anything slow): while the gate is held, an event with a run id never seen before is that
// turn's. Later events carry a known run id and need no gate. The gate is this file's only
// workaround for the agent not stamping a conversation id on events (event.Meta.SessionID
// is reserved for that); when it does, byRun keyed on it replaces the gate.

package host

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/host/session"
)

// holdGate waits for the gate and makes t the turn that claims the next unknown run id.
func (h *Host) holdGate(ctx context.Context, t *turn) error {
	select {
	case h.gate <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	h.mu.Lock()
	h.binding = t
	h.mu.Unlock()
	return nil
}

// dropGate frees the gate if t still holds it (its turn ended without an event).
func (h *Host) dropGate(t *turn) {
	h.mu.Lock()
	mine := h.binding == t
	if mine {
		h.binding = nil
	}
	h.mu.Unlock()
	if mine {
		<-h.gate
	}
}

// forget drops t's run ids once its turn has ended.
func (h *Host) forget(t *turn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, id := range t.runIDs {
		if h.byRun[id] == t {
			delete(h.byRun, id)
		}
	}
}

// onEvent is the listener on every served agent.
func (h *Host) onEvent(e event.Event) {
	h.mu.Lock()
	t := h.byRun[e.Meta.RunID]
	bound := false
	if t == nil && h.binding != nil && e.Meta.RunID != "" {
		t = h.binding
		h.binding = nil
		h.byRun[e.Meta.RunID] = t
		t.runIDs = append(t.runIDs, e.Meta.RunID)
		bound = true
	}
	h.mu.Unlock()
	if bound {
		<-h.gate
	}
	if t == nil {
		h.log.Warn("host: an event of a run no turn of this host started was not kept", "type", e.Type, "runId", e.Meta.RunID)
		return
	}
	data, err := json.Marshal(e)
	if err != nil {
		data, _ = json.Marshal(map[string]any{"type": e.Type, "meta": e.Meta, "error": "the payload did not encode: " + err.Error()})
	}
	h.append(t, session.Event{RunID: e.Meta.RunID, Type: string(e.Type), Data: data})
}

// append persists ev in t's conversation, then wakes the streams watching it. A lease
// taken by another host cancels the turn: it may no longer write.
func (h *Host) append(t *turn, ev session.Event) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.ctx), 10*time.Second)
	defer cancel()
	if _, err := h.sessions.Append(ctx, t.conv, h.id, ev); err != nil {
		if errors.Is(err, session.ErrLeaseLost) {
			t.lost.Store(true)
			t.cancel()
		}
		t.unsaved.Add(1)
		h.log.Error("host: an event was not saved", "conversation", t.conv, "type", ev.Type, "err", err)
		return
	}
	h.notify(t.conv)
}

// notify wakes every stream waiting on conversation id.
func (h *Host) notify(id string) {
	h.mu.Lock()
	if ch, ok := h.watch[id]; ok {
		close(ch)
		delete(h.watch, id)
	}
	h.mu.Unlock()
}

// watching counts a stream of conversation id in (+1) or out (-1); the last one out drops
// the conversation's wake-up channel, so conversations nobody follows hold nothing.
func (h *Host) watching(id string, delta int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.streams[id] += delta
	if h.streams[id] <= 0 {
		delete(h.streams, id)
		delete(h.watch, id)
	}
}

// waitFor returns a channel closed at the next event this host appends to conversation id.
func (h *Host) waitFor(id string) <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch, ok := h.watch[id]
	if !ok {
		ch = make(chan struct{})
		h.watch[id] = ch
	}
	return ch
}
