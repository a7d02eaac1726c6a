// The Conversation handle: one conversation's history, its pending pause and
// its one turn in flight, kept apart from the Agent so one Agent serves any
// number of conversations at once.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Conversation is one conversation with an Agent: its history so far, the
// question it waits on when a tool paused it, and the turn in flight. A
// Conversation takes one turn at a time (a second concurrent Send or Resume
// gets ErrRunInFlight); the conversations of one Agent are independent of
// each other and may run concurrently. Save one with Checkpoint and restore
// it, in this process or another, with Agent.LoadConversation.
type Conversation struct {
	a *Agent

	mu       sync.Mutex
	state    *conversationCheckpoint // nil until a turn has left history
	pending  *pauseCheckpoint        // the pause waiting for Resume, or nil
	inFlight bool
	// abandoned is the run id of a pause dropped by AbandonPause, until the
	// next turn records it.
	abandoned string
	// identity is who the conversation is for, stamped on its events.
	identity Identity
	// err is a bad WithHistory, refused by Send.
	err error
	// oneShot marks Run's conversation, which nobody holds after its turn.
	oneShot bool
}

// Identity is the caller's identity for a conversation, as the caller
// states it (the framework checks nothing): every event of its turns
// carries it in event.Meta (sessionId, principal, tenant), and its
// checkpoint keeps it. A host sets SessionID to its conversation id, so a
// listener on Agent.On can tell conversations apart.
type Identity struct {
	SessionID string `json:"sessionId,omitempty"`
	Principal string `json:"principal,omitempty"`
	Tenant    string `json:"tenant,omitempty"`
}

// ConversationOption configures a conversation at its start.
type ConversationOption func(*Conversation)

// WithIdentity stamps id on every event of the conversation's turns and
// keeps it in its checkpoint.
func WithIdentity(id Identity) ConversationOption {
	return func(c *Conversation) { c.identity = id }
}

// WithHistory starts the conversation from an earlier history, as if its
// turns had been taken with this agent: the next Send continues after it
// (a conversation held by another system, or an edited copy of one, comes
// in so without a checkpoint). The messages are copied. A history Send
// cannot continue from (a message of an unknown role, a tool message that
// names no call) makes Send fail with a *CheckpointError naming the
// message.
func WithHistory(history []llm.Message) ConversationOption {
	return func(c *Conversation) {
		cp := c.a.checkpoint("", cloneMessages(history), 0, "")
		if err := validateHistory(cp.History); err != nil {
			c.err = err
			return
		}
		c.state, c.err = cp, nil
	}
}

// NewConversation starts an empty conversation with the agent.
func (a *Agent) NewConversation(opts ...ConversationOption) *Conversation {
	c := &Conversation{a: a}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c
}

// Identity returns who the conversation is for (WithIdentity, or the
// identity its checkpoint kept).
func (c *Conversation) Identity() Identity { return c.identity }

// LoadConversation restores a conversation from the bytes Checkpoint wrote;
// opts apply after the checkpoint (WithIdentity replaces the identity it
// kept). It refuses, naming the field, a checkpoint that is not JSON, of
// another version, of another agent (agent.id), or with a malformed field;
// a paused conversation comes back paused.
func (a *Agent) LoadConversation(data []byte, opts ...ConversationOption) (*Conversation, error) {
	cp, err := decodeCheckpoint(data)
	if err != nil {
		return nil, err
	}
	if cp.Agent != nil && cp.Agent.ID != "" && cp.Agent.ID != a.cfg.id {
		return nil, &CheckpointError{Field: "agent.id", Reason: fmt.Sprintf("the checkpoint belongs to agent %q, not %q", cp.Agent.ID, a.cfg.id)}
	}
	c := &Conversation{a: a, state: cp, pending: cp.Pause}
	cp.Pause = nil
	if len(cp.Identity) > 0 && string(cp.Identity) != "null" {
		if err := json.Unmarshal(cp.Identity, &c.identity); err != nil {
			return nil, &CheckpointError{Field: "identity", Reason: "not an identity object {sessionId, principal, tenant}: " + err.Error()}
		}
	}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c, nil
}

// Send takes the conversation's next turn with the person's message. It
// refuses ErrRunInFlight while a turn of this conversation runs and
// ErrPendingQuestion while it is paused; a bad Input.Time is refused before
// anything runs. A turn whose model call fails returns a
// *RunCheckpointError, and the conversation keeps the checkpoint as of the
// last iteration boundary, so the next Send continues from there.
func (c *Conversation) Send(ctx context.Context, in Input) (*Result, error) {
	a := c.a
	if err := a.checkTimeInput(in.Time); err != nil {
		return nil, err
	}
	c.mu.Lock()
	switch {
	case c.err != nil:
		c.mu.Unlock()
		return nil, c.err
	case c.inFlight:
		c.mu.Unlock()
		return nil, ErrRunInFlight
	case c.pending != nil:
		c.mu.Unlock()
		return nil, ErrPendingQuestion
	}
	c.inFlight = true
	from := c.state
	abandoned := c.abandoned
	c.mu.Unlock()

	rs := &runState{a: a, start: a.cfg.now(), message: in.Message, turn: 1, given: in.Time, abandoned: abandoned, identity: c.identity, oneShot: c.oneShot}
	if from != nil {
		rs.prior = closeOpenCalls(cloneMessages(from.History))
		rs.turn = userTurns(rs.prior) + 1
		rs.from = from
	}
	res, end, err := a.startTurn(ctx, rs, in.RunID)
	c.settle(end, true)
	return res, err
}

// Resume answers the question the conversation is paused on: answer becomes
// the paused call's result (a JSON value; a JSON string is served as its
// text; for a check-in, true or "yes" runs the call), the later calls of the
// batch run, and the turn goes on. Calls that ran before the pause are not
// run again. It refuses ErrNotPaused when nothing waits, ErrRunInFlight while
// a turn runs, and an answer that is not JSON. A Resume that fails for any
// reason leaves the question waiting, so it can be answered again; the
// Result, when there is one, holds the failed leg's record.
func (c *Conversation) Resume(ctx context.Context, answer json.RawMessage, opts ...ResumeOption) (*Result, error) {
	var ro resumeConfig
	for _, o := range opts {
		if o != nil {
			o(&ro)
		}
	}
	c.mu.Lock()
	switch {
	case c.inFlight:
		c.mu.Unlock()
		return nil, ErrRunInFlight
	case c.pending == nil:
		c.mu.Unlock()
		return nil, ErrNotPaused
	}
	c.inFlight = true
	cp := c.pending
	c.mu.Unlock()

	ro.identity = c.identity
	res, end, err := c.a.resumeTurn(ctx, cp, answer, ro)
	if err != nil {
		// A resume that failed (refused before it ran, its context ended,
		// the model call failed) leaves the conversation as it was: the
		// question still waits and the answer can be given again. The
		// failed leg's record is in res.
		end = turnEnd{pending: cp}
	}
	c.settle(end, false)
	return res, err
}

// settle records what a finished leg left and frees the conversation for
// the next turn. A leg that ends without a new pause clears the old one.
func (c *Conversation) settle(end turnEnd, fresh bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inFlight = false
	if fresh {
		c.abandoned = ""
	}
	if end.state != nil {
		c.state = end.state
	}
	c.pending = end.pending
}

// Pending returns what the conversation waits for (the paused call and what
// its tool asked), or nil when it is not paused. For a conversation loaded
// from a checkpoint, Data is the decoded JSON of what the tool asked (a
// check-in's is still a CheckInRequest).
func (c *Conversation) Pending() *PauseInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil {
		return nil
	}
	return pauseInfoOf(c.pending)
}

// pauseInfoOf reads the pause data of a pause checkpoint: typed when the
// pause happened in this process, decoded from JSON when it was loaded.
func pauseInfoOf(cp *pauseCheckpoint) *PauseInfo {
	if cp.Flow == nil {
		return nil
	}
	if pi, ok := cp.Flow.PauseData.(PauseInfo); ok {
		return &pi
	}
	b, err := json.Marshal(cp.Flow.PauseData)
	if err != nil {
		return nil
	}
	var pi PauseInfo
	if json.Unmarshal(b, &pi) != nil || pi.ToolCallID == "" {
		return nil
	}
	if pi.Kind == PauseCheckIn {
		var raw struct {
			Data json.RawMessage `json:"data"`
		}
		var ci CheckInRequest
		if json.Unmarshal(b, &raw) == nil && json.Unmarshal(raw.Data, &ci) == nil {
			pi.Data = ci
		}
	}
	return &pi
}

// AbandonPause drops the question the conversation waits on, so the next
// Send starts a new turn; that turn's record names the dropped run
// (manifest abandonedPause) and the call left without a result is answered
// as not run. It returns what it dropped, or nil when nothing was pending or
// a turn is in flight (a Resume being answered is not dropped).
func (c *Conversation) AbandonPause() *PauseInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil || c.inFlight {
		return nil
	}
	pi := pauseInfoOf(c.pending)
	if c.pending.Flow != nil {
		c.abandoned = c.pending.Flow.RunID
	}
	c.pending = nil
	return pi
}

// History returns the conversation's messages so far (a copy).
func (c *Conversation) History() []llm.Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == nil {
		return nil
	}
	return cloneMessages(c.state.History)
}

// Checkpoint encodes the conversation for LoadConversation: its history, the
// findings ledger the armed layers carry across turns, and the pending pause
// when it is paused. It refuses while a turn is in flight (ErrRunInFlight),
// because the state is about to change. An empty conversation encodes too.
func (c *Conversation) Checkpoint() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inFlight {
		return nil, ErrRunInFlight
	}
	var cp conversationCheckpoint
	if c.state != nil {
		cp = *c.state.clone()
	} else {
		cp = *c.a.checkpoint("", nil, 0, "")
	}
	cp.Pause = c.pending
	if c.identity != (Identity{}) {
		b, err := json.Marshal(c.identity)
		if err != nil {
			return nil, err
		}
		cp.Identity = b
	}
	return json.Marshal(&cp)
}
