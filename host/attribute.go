// This file places each agent event in the conversation whose turn emitted it, and
// persists it there before anyone is told. An agent delivers the events of all its
// conversations to one listener; the host loads each conversation with its id as the
// caller identity (agent.WithIdentity), so every event names its conversation in
// event.Meta.SessionID.

package host

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/host/session"
)

// bind makes t the turn whose events carry its conversation's id. The lease
// lets one turn of a conversation run on this host at a time.
func (h *Host) bind(t *turn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.byConv[t.conv] = t
}

// unbind drops t once its turn has ended.
func (h *Host) unbind(t *turn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byConv[t.conv] == t {
		delete(h.byConv, t.conv)
	}
}

// onEvent is the listener on every served agent.
func (h *Host) onEvent(e event.Event) {
	h.mu.Lock()
	t := h.byConv[e.Meta.SessionID]
	h.mu.Unlock()
	if t == nil {
		h.log.Warn("host: an event of a conversation no turn of this host is running was not kept", "type", e.Type, "runId", e.Meta.RunID, "conversation", e.Meta.SessionID)
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
