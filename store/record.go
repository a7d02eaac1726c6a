// This file holds the way an agent run record goes in and out of a Store: SaveResult (the
// one call a program makes after agent.Run), RunFromRecord / RunFromResult (the stored form
// without saving it), DecodeRecord and LoadRecord (the way back).

package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
)

// SaveResult stores one turn: res and runErr are what agent.Run (or a follow-up turn)
// returned. It returns the run's header as stored; the status is chosen as RunFromResult
// says. It refuses a nil result or one without a record, and reports a refused write naming
// the run.
func SaveResult(ctx context.Context, s Store, res *agent.Result, runErr error) (RunInfo, error) {
	run, err := RunFromResult(res, runErr)
	if err != nil {
		return RunInfo{}, err
	}
	if err := s.PutRun(ctx, run); err != nil {
		return RunInfo{}, fmt.Errorf("store: storing run %s: %w", run.ID, err)
	}
	return run.RunInfo, nil
}

// RunFromResult builds the Run for one turn without storing it. The status is paused when
// the turn stopped for a person, failed when runErr is set, incomplete when the manifest does
// not say the turn completed, else complete.
func RunFromResult(res *agent.Result, runErr error) (*Run, error) {
	if res == nil || res.Record == nil {
		return nil, fmt.Errorf("store: the result holds no run record")
	}
	rec := res.Record
	status := StatusComplete
	switch {
	case runErr != nil:
		status = StatusFailed
	case res.Paused:
		status = StatusPaused
	case !rec.Manifest.Complete:
		status = StatusIncomplete
	}
	return RunFromRecord(rec, status, res.Answer)
}

// RunFromRecord builds the Run for rec with the given status and answer. The run id, agent
// id and times come from the manifest; the record's blobs (request and response bodies, raw
// tool outputs) move out of the record JSON into content-addressed blobs, sorted by digest,
// so the same bytes are kept once however many runs refer to them. It refuses a record
// without a run id, or with a start or end time that is not RFC 3339, naming the field.
func RunFromRecord(rec *record.Record, status Status, answer string) (*Run, error) {
	if rec == nil {
		return nil, fmt.Errorf("store: nil record")
	}
	m := rec.Manifest
	if m.RunID == "" {
		return nil, fmt.Errorf("store: manifest.runId is empty")
	}
	started, err := time.Parse(time.RFC3339Nano, m.StartedAt)
	if err != nil {
		return nil, fmt.Errorf("store: manifest.startedAt %q: %w", m.StartedAt, err)
	}
	var ended time.Time
	if m.EndedAt != "" {
		if ended, err = time.Parse(time.RFC3339Nano, m.EndedAt); err != nil {
			return nil, fmt.Errorf("store: manifest.endedAt %q: %w", m.EndedAt, err)
		}
	}
	slim := *rec
	slim.Blobs = nil
	data, err := json.Marshal(&slim)
	if err != nil {
		return nil, fmt.Errorf("store: encoding the record of run %s: %w", m.RunID, err)
	}
	run := &Run{
		RunInfo: RunInfo{ID: m.RunID, AgentID: m.AgentID, StartedAt: started, EndedAt: ended, Status: status, Answer: answer},
		Record:  data,
	}
	digests := make([]string, 0, len(rec.Blobs))
	for d := range rec.Blobs {
		digests = append(digests, d)
	}
	sort.Strings(digests)
	for _, d := range digests {
		run.Blobs = append(run.Blobs, Blob{SHA256: d, Data: rec.Blobs[d]})
	}
	return run, nil
}

// DecodeRecord turns a stored run back into its record, with the run's blobs in
// Record.Blobs (blobs kept inside the record JSON, as a file export has them, are kept too).
// It refuses a record of another format or a malformed one, naming the run.
func DecodeRecord(run *Run) (*record.Record, error) {
	if run == nil {
		return nil, fmt.Errorf("store: nil run")
	}
	rec, err := record.Decode(run.Record)
	if err != nil {
		return nil, fmt.Errorf("store: run %s: %w", run.ID, err)
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

// LoadRecord reads run id from s and decodes its record; the stored run is returned too, for
// its header. An unknown id is an error wrapping ErrNotFound that names it.
func LoadRecord(ctx context.Context, s Store, id string) (*record.Record, *Run, error) {
	run, err := s.GetRun(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	rec, err := DecodeRecord(run)
	if err != nil {
		return nil, nil, err
	}
	return rec, run, nil
}
