// Package runrecord is the older home of the calls that move agent run records in and out of
// a store.Store. They now live in package store itself (store.SaveResult, store.LoadRecord,
// store.RunFromRecord, store.DecodeRecord), which is where a program looks first; the
// functions here call those and stay so existing code keeps building.
package runrecord

import (
	"context"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/store"
)

// FromResult builds the store.Run for one turn; see store.RunFromResult.
func FromResult(res *agent.Result, runErr error) (*store.Run, error) {
	return store.RunFromResult(res, runErr)
}

// FromRecord builds the store.Run for rec with the given status and answer; see
// store.RunFromRecord.
func FromRecord(rec *record.Record, status store.Status, answer string) (*store.Run, error) {
	return store.RunFromRecord(rec, status, answer)
}

// Save stores the turn and returns its header as stored; see store.SaveResult.
func Save(ctx context.Context, st store.Store, res *agent.Result, runErr error) (store.RunInfo, error) {
	return store.SaveResult(ctx, st, res, runErr)
}

// Decode turns a stored run back into its record; see store.DecodeRecord.
func Decode(run *store.Run) (*record.Record, error) {
	return store.DecodeRecord(run)
}

// Load reads run id from st and decodes its record; see store.LoadRecord.
func Load(ctx context.Context, st store.Store, id string) (*record.Record, *store.Run, error) {
	return store.LoadRecord(ctx, st, id)
}
