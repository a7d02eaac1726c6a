// This file writes server-sent events: a conversation's log replayed after a sequence
// number and tailed live, or one turn's events ending with its result. Each frame is
//
//	id: <sequence number in the conversation's log>
//	event: <event type>
//	data: <the event as one line of JSON>
//
// after a first "retry: 1000" line asking a browser to reconnect a second after a drop,
// so a client that reconnects with Last-Event-ID (or ?after=N) gets each event once.

package host

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/host/session"
)

// heartbeat is how often an idle stream sends a comment line, so proxies keep it open.
const heartbeat = 15 * time.Second

// reconnectMs is the reconnection delay a stream asks EventSource clients for.
const reconnectMs = 1000

func (h *Host) getEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	after := int64(0)
	if v := r.URL.Query().Get("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("after=%q: want a sequence number (0 or more)", v), "after")
			return
		}
		after = n
	}
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("Last-Event-ID %q: want a sequence number", v), "Last-Event-ID")
			return
		}
		after = max(after, n)
	}
	if _, err := h.sessions.Get(r.Context(), id); err != nil {
		storeError(err, id).write(w)
		return
	}
	h.stream(w, r, id, after, nil)
}

// stream writes the events of conversation id after seq. With t, it ends after t's result
// event; without, it tails until the client leaves or the host shuts down.
func (h *Host) stream(w http.ResponseWriter, r *http.Request, id string, seq int64, t *turn) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// A browser's EventSource waits this long before reconnecting after a drop.
	if _, err := fmt.Fprintf(w, "retry: %d\n\n", reconnectMs); err != nil {
		return
	}
	if err := rc.Flush(); err != nil {
		return
	}
	ctx := r.Context()
	h.watching(id, 1)
	defer h.watching(id, -1)
	poll := time.NewTicker(h.poll)
	defer poll.Stop()
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	for {
		wake := h.waitFor(id)
		var finished bool
		if t != nil {
			select {
			case <-t.done:
				finished = true
			default:
			}
		}
		evs, err := h.sessions.Events(context.WithoutCancel(ctx), id, seq, 200)
		if err != nil {
			h.log.Error("host: reading events for a stream", "conversation", id, "err", err)
			return
		}
		for _, e := range evs {
			if err := h.frame(rc, w, e); err != nil {
				return
			}
			seq = e.Seq
			if t != nil && e.Type == EventResult {
				return
			}
		}
		if len(evs) > 0 {
			if rc.Flush() != nil {
				return
			}
			if len(evs) == 200 {
				continue
			}
		}
		if finished {
			// The turn ended but its result event was not saved: send what it returned.
			h.frame(rc, w, session.Event{Type: EventResult, Data: mustJSON(t.result)})
			rc.Flush()
			return
		}
		var done <-chan struct{}
		if t != nil {
			done = t.done
		}
		select {
		case <-ctx.Done():
			return
		case <-h.base.Done():
			return
		case <-wake:
		case <-done:
		case <-poll.C:
		case <-beat.C:
			h.deadline(rc)
			if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil || rc.Flush() != nil {
				return
			}
		}
	}
}

// frame writes one event under the write deadline.
func (h *Host) frame(rc *http.ResponseController, w http.ResponseWriter, e session.Event) error {
	h.deadline(rc)
	var b strings.Builder
	if e.Seq > 0 {
		fmt.Fprintf(&b, "id: %d\n", e.Seq)
	}
	fmt.Fprintf(&b, "event: %s\n", e.Type)
	// The data is JSON, which holds no raw newline; a line per data field keeps any
	// other text framed too.
	for _, line := range strings.Split(string(e.Data), "\n") {
		fmt.Fprintf(&b, "data: %s\n", line)
	}
	b.WriteString("\n")
	_, err := w.Write([]byte(b.String()))
	return err
}

func (h *Host) deadline(rc *http.ResponseController) {
	if err := rc.SetWriteDeadline(time.Now().Add(h.writeTO)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		h.log.Debug("host: setting a write deadline", "err", err)
	}
}
