// Package session keeps what a host needs to serve conversations from any of several
// processes: each conversation's latest checkpoint and state, the log of its events with a
// sequence number per conversation, and the lease that lets one host at a time run a turn of
// it.
//
// This file holds the Store interface and the values it keeps. Backends live in
// sub-packages: session/sqlite (one host, the same file as the run store) and
// session/postgres (several hosts on one database). Both pass the one battery in
// session/sessiontest.
//
// A lease is a claim on one conversation by one owner (a host id) until an expiry. While it
// is live no other owner can take the conversation, append to its log or save its
// checkpoint; once it has expired the next Acquire takes it and learns which run the
// previous owner left unfinished.
package session

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Errors a caller branches on.
var (
	// ErrNotFound: no conversation has this id.
	ErrNotFound = errors.New("session: no such conversation")
	// ErrExists: Create was given an id already taken.
	ErrExists = errors.New("session: a conversation with this id already exists")
	// ErrBusy: another owner (or this one) holds a live lease on the conversation.
	ErrBusy = errors.New("session: a turn of this conversation is in flight")
	// ErrLeaseLost: the caller's lease has expired or another owner has taken it.
	ErrLeaseLost = errors.New("session: the lease on this conversation is no longer held")
	// ErrClosed: the store has been closed.
	ErrClosed = errors.New("session: the store is closed")
)

// State is where a conversation stands between turns.
type State string

// The states a store keeps.
const (
	// StateIdle: the conversation waits for the person's next message.
	StateIdle State = "idle"
	// StatePaused: a tool asked the person something; the next step is an answer.
	StatePaused State = "paused"
)

// valid reports whether s is one of the states above.
func (s State) valid() bool { return s == StateIdle || s == StatePaused }

// Conversation is one conversation as the store keeps it.
type Conversation struct {
	// ID names the conversation.
	ID string `json:"id"`
	// Agent names the agent that serves it.
	Agent string `json:"agent"`
	// Checkpoint is the conversation's latest checkpoint (agent.Conversation.Checkpoint),
	// kept byte for byte.
	Checkpoint json.RawMessage `json:"-"`
	// State is idle or paused.
	State State `json:"state"`
	// Turns counts the turns that ended (completed, paused or failed).
	Turns int `json:"turns"`
	// LastSeq is the sequence number of the conversation's last event (0: none yet).
	LastSeq int64 `json:"lastSeq"`
	// Owner is the holder of the lease, "" when none was ever taken or it was released.
	Owner string `json:"owner,omitempty"`
	// LeaseUntil is when the lease expires (zero when there is none).
	LeaseUntil time.Time `json:"leaseUntil,omitzero"`
	// RunID is the run the lease holder is running, as its events named it ("" before
	// the first event or when no turn is in flight).
	RunID string `json:"runId,omitempty"`
	// CreatedAt and UpdatedAt are set by the store.
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"` // see CreatedAt
}

// Lease is what Acquire hands the new lease holder.
type Lease struct {
	// Conversation is the conversation as of the acquisition (its Owner is the caller).
	Conversation
	// Abandoned is set when the previous owner's lease expired while it held the
	// conversation (a host that stopped mid-turn): it names that owner and the run it was
	// running ("" when it had emitted nothing yet).
	Abandoned *Abandoned
}

// Abandoned names a turn whose host stopped answering before it ended.
type Abandoned struct {
	Owner string `json:"owner"`
	RunID string `json:"runId,omitempty"`
}

// Event is one entry of a conversation's log.
type Event struct {
	// Seq is the event's position in its conversation's log, from 1, without gaps.
	Seq int64 `json:"seq"`
	// RunID is the run the event belongs to ("" for an event of the host itself).
	RunID string `json:"runId,omitempty"`
	// Type is the event's name (an agent event name, or one of the host's).
	Type string `json:"type"`
	// Data is the event as JSON, kept byte for byte.
	Data json.RawMessage `json:"data"`
	// At is when the store appended it.
	At time.Time `json:"at"`
}

// End is what a lease holder saves when it gives the conversation back.
type End struct {
	// Checkpoint replaces the stored checkpoint when non-nil.
	Checkpoint json.RawMessage
	// State is the conversation's state from now on. Required.
	State State
	// Turn counts the turn that ended (adds one to Turns).
	Turn bool
	// Event, when set, is appended to the log in the same transaction as the release, so
	// whoever reads it finds the conversation already free.
	Event *Event
}

// Store keeps conversations, their event logs and their leases. Every method is safe for
// concurrent use, from one process or several sharing the database.
type Store interface {
	// Create stores a new idle conversation with its first checkpoint. It refuses an
	// empty id and an id taken (ErrExists).
	Create(ctx context.Context, c *Conversation) error
	// Get returns the conversation with this id (ErrNotFound).
	Get(ctx context.Context, id string) (*Conversation, error)
	// Acquire takes the lease on the conversation for owner until now+ttl. It refuses
	// ErrBusy while another lease (owner's own included) is live, and ErrNotFound.
	Acquire(ctx context.Context, id, owner string, ttl time.Duration) (*Lease, error)
	// Renew extends owner's lease to now+ttl. It refuses ErrLeaseLost once another owner
	// has taken the conversation (an expired lease nobody took is still owner's).
	Renew(ctx context.Context, id, owner string, ttl time.Duration) error
	// Append adds ev to the log under owner's lease and returns its sequence number;
	// ev.RunID, when set, becomes the conversation's RunID. It refuses ErrLeaseLost once
	// another owner has taken the conversation, so a host that lost it writes nothing more.
	Append(ctx context.Context, id, owner string, ev Event) (int64, error)
	// Release saves end and frees the conversation under owner's lease (ErrLeaseLost as
	// for Append). It returns the sequence number of end.Event, or 0.
	Release(ctx context.Context, id, owner string, end End) (int64, error)
	// Events returns up to limit events of the conversation with Seq > after, in order
	// (ErrNotFound for an unknown conversation). limit <= 0 means 100.
	Events(ctx context.Context, id string, after int64, limit int) ([]Event, error)
	// Close releases the store's connections.
	Close() error
}

// CheckEnd refuses an End a store must not save.
func CheckEnd(end End) error {
	if !end.State.valid() {
		return errors.New("session: End.State must be idle or paused")
	}
	if end.Event != nil && end.Event.Type == "" {
		return errors.New("session: End.Event has no type")
	}
	return nil
}
