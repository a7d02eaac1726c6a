// This file holds the conversation endpoints: create, read, take a turn, answer a paused
// turn. A turn answers as JSON once it ends, or, asked with Accept: text/event-stream, as
// the stream of its events ending with the result event.

package host

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/host/session"
)

type createRequest struct {
	Agent string `json:"agent"`
}

type createResponse struct {
	ID    string `json:"id"`
	Agent string `json:"agent"`
}

func (h *Host) createConversation(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if bad := decodeBody(r, &req, true); bad != nil {
		bad.write(w)
		return
	}
	name := req.Agent
	if name == "" {
		name = h.first
	}
	a := h.agents[name]
	if a == nil {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("this host serves no agent %q (it serves %s)", name, strings.Join(h.agentNames(), ", ")), "agent")
		return
	}
	cp, err := a.NewConversation().Checkpoint()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "checkpointing a new conversation: "+err.Error(), "")
		return
	}
	id := "conv-" + randomHex(12)
	if err := h.sessions.Create(r.Context(), &session.Conversation{ID: id, Agent: name, Checkpoint: cp}); err != nil {
		storeError(err, id).write(w)
		return
	}
	w.Header().Set("Location", "/v1/conversations/"+id)
	writeJSON(w, http.StatusCreated, createResponse{ID: id, Agent: name})
}

func (h *Host) agentNames() []string {
	out := make([]string, 0, len(h.agents))
	for n := range h.agents {
		out = append(out, n)
	}
	return out
}

// ConversationState is what GET /v1/conversations/{id} returns.
type ConversationState struct {
	ID    string `json:"id"`
	Agent string `json:"agent"`
	// State is idle, paused or running (a host holds its lease).
	State string `json:"state"`
	// Turns counts the turns that ended.
	Turns int `json:"turns"`
	// LastEventID is the sequence number of its last event (resume a stream after it).
	LastEventID int64 `json:"lastEventId"`
	// RunID is the run in flight, when one is.
	RunID string `json:"runId,omitempty"`
	// Pending is the question a paused conversation waits on.
	Pending   *agent.PauseInfo `json:"pending"`
	UpdatedAt time.Time        `json:"updatedAt"`
}

func (h *Host) getConversation(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := h.sessions.Get(r.Context(), id)
	if err != nil {
		storeError(err, id).write(w)
		return
	}
	st := ConversationState{ID: c.ID, Agent: c.Agent, State: string(c.State), Turns: c.Turns, LastEventID: c.LastSeq, UpdatedAt: c.UpdatedAt}
	if c.Owner != "" && time.Now().Before(c.LeaseUntil) {
		st.State, st.RunID = "running", c.RunID
	}
	if a := h.agents[c.Agent]; a != nil && c.State == session.StatePaused {
		if conv, err := a.LoadConversation(c.Checkpoint); err == nil {
			st.Pending = conv.Pending()
		}
	}
	writeJSON(w, http.StatusOK, st)
}

// timeInput is a turn's clock input for an agent with the time layer.
type timeInput struct {
	// Now is the message's time (RFC 3339).
	Now time.Time `json:"now"`
	// Zone is the person's time zone (an IANA name), overriding the agent's.
	Zone string `json:"zone,omitempty"`
}

func (ti *timeInput) given() (*clock.Given, *badRequest) {
	if ti == nil {
		return nil, nil
	}
	g := &clock.Given{Now: ti.Now, Zone: ti.Zone}
	if err := g.Check(); err != nil {
		return nil, &badRequest{http.StatusBadRequest, "bad_request", err.Error(), "time.zone"}
	}
	return g, nil
}

type turnRequest struct {
	Message      string     `json:"message"`
	Time         *timeInput `json:"time"`
	AbandonPause bool       `json:"abandonPause"`
}

type answerRequest struct {
	Answer json.RawMessage `json:"answer"`
	Time   *timeInput      `json:"time"`
}

func (h *Host) postTurn(w http.ResponseWriter, r *http.Request) {
	var req turnRequest
	if bad := decodeBody(r, &req, false); bad != nil {
		bad.write(w)
		return
	}
	if strings.TrimSpace(req.Message) == "" {
		writeError(w, http.StatusBadRequest, "bad_request", "message is empty", "message")
		return
	}
	g, bad := req.Time.given()
	if bad != nil {
		bad.write(w)
		return
	}
	h.serveTurn(w, r, turnInput{message: req.Message, time: g, abandon: req.AbandonPause})
}

func (h *Host) postAnswer(w http.ResponseWriter, r *http.Request) {
	var req answerRequest
	if bad := decodeBody(r, &req, false); bad != nil {
		bad.write(w)
		return
	}
	if len(req.Answer) == 0 || string(req.Answer) == "null" {
		writeError(w, http.StatusBadRequest, "bad_request", `answer is missing: give the person's answer as a JSON value, such as "yes"`, "answer")
		return
	}
	g, bad := req.Time.given()
	if bad != nil {
		bad.write(w)
		return
	}
	h.serveTurn(w, r, turnInput{resume: true, answer: req.Answer, time: g})
}

// serveTurn starts the turn and answers in the form the client asked for.
func (h *Host) serveTurn(w http.ResponseWriter, r *http.Request, in turnInput) {
	t, bad := h.begin(r.PathValue("id"), in)
	if bad != nil {
		bad.write(w)
		return
	}
	if wantsStream(r) {
		h.stream(w, r, t.conv, t.startSeq, t)
		return
	}
	select {
	case <-t.done:
	case <-r.Context().Done():
		return // the client left; the turn goes on and its result is in the event log
	}
	res := t.result
	if res.Error != nil {
		writeJSON(w, http.StatusBadGateway, errorResponse{*res.Error})
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func wantsStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}
