// This file holds the Store interface and the values it persists. Backends live in
// sub-packages: store/sqlite (the embedded default) and store/postgres (for several processes
// or hosts sharing runs). Both pass the one conformance suite in store/storetest.

package store

import (
	"context"
	"encoding/json"
	"time"
)

// Store persists runs, content-addressed blobs and conversation checkpoints.
//
// Every method is safe for concurrent use. A Store never exposes half of a write: PutRun
// stores the run row, its blobs and their links in one transaction, so a writer that crashes
// or is cancelled part-way leaves the previous state (no run, or the previous version of it).
type Store interface {
	// PutRun stores run as a whole, replacing any run with the same ID, together with its
	// blobs. It refuses a run that fails Validate.
	PutRun(ctx context.Context, run *Run) error
	// GetRun returns the run with this ID, blobs included. An unknown ID is an error that
	// wraps ErrNotFound and names the ID.
	GetRun(ctx context.Context, id string) (*Run, error)
	// ListRuns returns the headers of the runs that match filter, newest first (by
	// StartedAt, then by ID descending).
	ListRuns(ctx context.Context, filter Filter) ([]RunInfo, error)
	// PutBlob stores data under its SHA-256 digest and returns the digest (lowercase hex).
	// Storing the same bytes twice keeps one copy.
	PutBlob(ctx context.Context, data []byte) (string, error)
	// GetBlob returns the bytes stored under digest (lowercase hex, optionally prefixed
	// "sha256:"). An unknown digest wraps ErrNotFound.
	GetBlob(ctx context.Context, digest string) ([]byte, error)
	// PutCheckpoint stores the latest checkpoint of a conversation, replacing the previous
	// one for the same session.
	PutCheckpoint(ctx context.Context, cp *Checkpoint) error
	// GetCheckpoint returns the latest checkpoint of a session. An unknown session wraps
	// ErrNotFound.
	GetCheckpoint(ctx context.Context, sessionID string) (*Checkpoint, error)
	// Close releases the store's connections. Calls after Close fail.
	Close() error
}

// Status is how a run ended, as the agent observed it. The store never infers it.
type Status string

// The run statuses a store accepts.
const (
	// StatusComplete: Run returned normally with an answer.
	StatusComplete Status = "complete"
	// StatusPaused: the run is waiting for input (a tool or a person asked a question).
	StatusPaused Status = "paused"
	// StatusFailed: Run returned an error.
	StatusFailed Status = "failed"
	// StatusIncomplete: the run was recorded without Run returning (cancelled, or saved
	// while still running).
	StatusIncomplete Status = "incomplete"
)

// valid reports whether s is one of the statuses above.
func (s Status) valid() bool {
	switch s {
	case StatusComplete, StatusPaused, StatusFailed, StatusIncomplete:
		return true
	}
	return false
}

// RunInfo is the header of a stored run: what ListRuns returns and what a listing shows.
type RunInfo struct {
	// ID is the run id from the record's manifest (runId). Required.
	ID string `json:"runId"`
	// SessionID names the conversation the run belongs to; empty for a one-off run.
	SessionID string `json:"sessionId,omitempty"`
	// AgentID is the id of the agent that ran.
	AgentID string `json:"agentId,omitempty"`
	// StartedAt is when the run started. Required.
	StartedAt time.Time `json:"startedAt"`
	// EndedAt is when the run ended; zero while it has not.
	EndedAt time.Time `json:"endedAt,omitzero"`
	// Status is how the run ended. Required.
	Status Status `json:"status"`
	// Answer is the final answer text, empty when there was none.
	Answer string `json:"answer,omitempty"`
}

// Run is one stored run: its header, the record, the events and the blobs it references.
type Run struct {
	RunInfo
	// Record is the run record JSON (format agentfootprint-go.record/4: manifest, structure,
	// commits, subflows). Kept byte for byte. Required.
	Record json.RawMessage `json:"record"`
	// Events is the JSON array of events dispatched during the run ({type, payload, meta}
	// each), as the audit exporter reads it. Empty means no events were kept.
	Events json.RawMessage `json:"events,omitempty"`
	// Blobs are the content-addressed bodies the record refers to by digest: request and
	// response bytes, raw tool outputs. GetRun returns them sorted by digest.
	Blobs []Blob `json:"blobs,omitempty"`
}

// Blob is a body kept under the lowercase hex SHA-256 of its bytes.
type Blob struct {
	// SHA256 is the lowercase hex digest of Data. PutRun computes it when empty and refuses a
	// blob whose digest does not match its bytes.
	SHA256 string `json:"sha256"`
	// Data is the exact bytes.
	Data []byte `json:"data"`
}

// Checkpoint is the latest saved state of a conversation, keyed by session id.
type Checkpoint struct {
	// SessionID is the conversation key. Required.
	SessionID string `json:"sessionId"`
	// RunID is the run that wrote the checkpoint, when known.
	RunID string `json:"runId,omitempty"`
	// Data is the checkpoint JSON, kept byte for byte. Required.
	Data json.RawMessage `json:"data"`
	// UpdatedAt is when the checkpoint was stored; the store sets it on PutCheckpoint.
	UpdatedAt time.Time `json:"updatedAt"`
}

// Filter selects runs for ListRuns. Zero fields do not filter.
type Filter struct {
	// SessionID keeps the runs of one conversation.
	SessionID string
	// AgentID keeps the runs of one agent.
	AgentID string
	// Status keeps the runs that ended this way.
	Status Status
	// Since keeps runs started at or after this instant.
	Since time.Time
	// Until keeps runs started before this instant.
	Until time.Time
	// Limit caps the number of runs returned; 0 means no cap. Negative is refused.
	Limit int
}
