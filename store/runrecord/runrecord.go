// Package runrecord moves agent run records in and out of a store.Store.
//
// An agent.Record (format agentfootprint-go.record/1) carries its request and response
// bodies and raw tool outputs as blobs keyed by SHA-256. On the way in, FromRecord keeps the
// record JSON without those bodies and hands them to the store as content-addressed blobs,
// so the same bytes are kept once however many runs refer to them; the events stay inside
// the record, where audit.FromStore reads them. On the way out, Decode puts the blobs back,
// so a loaded record is the record that was saved.
//
// The header a listing shows (status, answer, times) is taken from what the agent reported;
// nothing is guessed: a run is "complete" only when the manifest says Run returned normally.
package runrecord

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/store"
)

// FromResult builds the store.Run for one turn: res is what Agent.Run, Conversation.Send or
// Conversation.Resume returned and runErr the error it returned with it. The status is paused when the turn
// stopped for a person, failed when runErr is set, incomplete when the manifest does not say
// the turn completed, else complete. It refuses a nil result or one without a record.
func FromResult(res *agent.Result, runErr error) (*store.Run, error) {
	if res == nil || res.Record() == nil {
		return nil, fmt.Errorf("runrecord: the result holds no run record")
	}
	rec := res.Record()
	status := store.StatusComplete
	switch {
	case runErr != nil:
		status = store.StatusFailed
	case res.Paused:
		status = store.StatusPaused
	case !rec.Manifest.Complete:
		status = store.StatusIncomplete
	}
	return FromRecord(rec, status, res.Answer)
}

// FromRecord builds the store.Run for rec with the given status and answer. The run id,
// agent id and times come from the manifest; the blobs move out of the record JSON into
// store blobs (sorted by digest). It refuses a record without a run id or with a start time
// that is not RFC 3339, naming the manifest field.
func FromRecord(rec *agent.Record, status store.Status, answer string) (*store.Run, error) {
	if rec == nil {
		return nil, fmt.Errorf("runrecord: nil record")
	}
	m := rec.Manifest
	if m.RunID == "" {
		return nil, fmt.Errorf("runrecord: manifest.runId is empty")
	}
	started, err := time.Parse(time.RFC3339Nano, m.StartedAt)
	if err != nil {
		return nil, fmt.Errorf("runrecord: manifest.startedAt %q: %w", m.StartedAt, err)
	}
	var ended time.Time
	if m.EndedAt != "" {
		if ended, err = time.Parse(time.RFC3339Nano, m.EndedAt); err != nil {
			return nil, fmt.Errorf("runrecord: manifest.endedAt %q: %w", m.EndedAt, err)
		}
	}
	slim := *rec
	slim.Blobs = nil
	data, err := json.Marshal(&slim)
	if err != nil {
		return nil, fmt.Errorf("runrecord: encoding the record: %w", err)
	}
	run := &store.Run{
		RunInfo: store.RunInfo{ID: m.RunID, AgentID: m.AgentID, StartedAt: started, EndedAt: ended, Status: status, Answer: answer},
		Record:  data,
	}
	digests := make([]string, 0, len(rec.Blobs))
	for d := range rec.Blobs {
		digests = append(digests, d)
	}
	sort.Strings(digests)
	for _, d := range digests {
		run.Blobs = append(run.Blobs, store.Blob{SHA256: d, Data: rec.Blobs[d]})
	}
	return run, nil
}

// Save stores the turn (see FromResult) and returns its header as stored.
func Save(ctx context.Context, st store.Store, res *agent.Result, runErr error) (store.RunInfo, error) {
	run, err := FromResult(res, runErr)
	if err != nil {
		return store.RunInfo{}, err
	}
	if err := st.PutRun(ctx, run); err != nil {
		return store.RunInfo{}, fmt.Errorf("runrecord: storing run %s: %w", run.ID, err)
	}
	return run.RunInfo, nil
}

// Decode turns a stored run back into its record, with the run's blobs in Record.Blobs
// (blobs kept inside the record JSON, as a file export has them, are kept too). It refuses
// a record of another format or a malformed one, naming the run.
func Decode(run *store.Run) (*agent.Record, error) {
	if run == nil {
		return nil, fmt.Errorf("runrecord: nil run")
	}
	rec, err := agent.DecodeRecord(run.Record)
	if err != nil {
		return nil, fmt.Errorf("runrecord: run %s: %w", run.ID, err)
	}
	if len(run.Blobs) > 0 {
		blobs := make(map[string][]byte, len(rec.Blobs)+len(run.Blobs))
		for d, b := range rec.Blobs {
			blobs[d] = b
		}
		for _, b := range run.Blobs {
			blobs[b.SHA256] = b.Data
		}
		rec.Blobs = blobs
	}
	return rec, nil
}

// Load reads run id from st and decodes its record. An unknown id is an error wrapping
// store.ErrNotFound that names it. The stored run is returned too, for its header.
func Load(ctx context.Context, st store.Store, id string) (*agent.Record, *store.Run, error) {
	run, err := st.GetRun(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	rec, err := Decode(run)
	if err != nil {
		return nil, nil, err
	}
	return rec, run, nil
}
