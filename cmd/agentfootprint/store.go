// This file holds what the commands that read or write stored runs share: the --store
// flag, opening the store it names, and loading a run's record by id or from a file.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/internal/backend"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/spf13/cobra"
	"os"
)

// storeFlagUsage describes --store the same way on every command.
const storeFlagUsage = "where runs are kept: a SQLite file path or a postgres:// URL " +
	"(default: agentfootprint/runs.db under $XDG_DATA_HOME, else ~/.local/share; on macOS and Windows the user config directory)"

// addStoreFlag registers --store on cmd, writing the value to target.
func addStoreFlag(cmd *cobra.Command, target *string) {
	cmd.Flags().StringVar(target, "store", "", storeFlagUsage)
}

// commandContext is the command's context, or Background when it has none.
func commandContext(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}

// openStore opens, for reading, the store --store names ("" is the default SQLite file) and
// returns it with the name to show in messages. A SQLite file that does not exist is refused
// naming its path, and is not created: reading never leaves a store behind.
func openStore(ctx context.Context, target string) (store.Store, string, error) {
	st, where, err := backend.OpenExisting(ctx, target)
	var miss *backend.MissingError
	if errors.As(err, &miss) {
		if target == "" {
			return nil, "", fmt.Errorf("%w; `agentfootprint demo` stores a run there", err)
		}
		return nil, "", fmt.Errorf("%w; `agentfootprint demo --store %s` or `agentfootprint scenario run FILE --store %s` stores one there", err, target, target)
	}
	return openedStore(st, where, target, err)
}

// createStore opens the store --store names for writing, creating a SQLite file on first use.
func createStore(ctx context.Context, target string) (store.Store, string, error) {
	st, where, err := backend.Open(ctx, target)
	return openedStore(st, where, target, err)
}

// openedStore names the store in an opening error.
func openedStore(st store.Store, where, target string, err error) (store.Store, string, error) {
	if err != nil {
		if target == "" {
			return nil, "", fmt.Errorf("opening the default run store: %w", err)
		}
		return nil, "", fmt.Errorf("opening the run store %s: %w", target, err)
	}
	return st, where, nil
}

// unknownRunError names a run id the store does not hold.
type unknownRunError struct {
	ID    string
	Where string
}

func (e *unknownRunError) Error() string {
	return fmt.Sprintf("no run %q in %s (`agentfootprint runs` lists the stored runs)", e.ID, e.Where)
}

// getRun reads run id from the store named by target. An unknown id is an *unknownRunError.
func getRun(ctx context.Context, target, id string) (*store.Run, error) {
	st, where, err := openStore(ctx, target)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	run, err := st.GetRun(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, &unknownRunError{ID: id, Where: where}
	}
	if err != nil {
		return nil, fmt.Errorf("reading run %s from %s: %w", id, where, err)
	}
	return run, nil
}

// loadRecord returns the record arg names: a record file or directory when one exists at
// that path (explain.Open reads both forms), else a run id in the store named by target
// (--store; "" is the default store). An unknown id is an *unknownRunError.
func loadRecord(ctx context.Context, target, arg string) (*record.Record, error) {
	if st, err := os.Stat(arg); err == nil {
		rec, err := explain.Open(arg)
		if err != nil && !st.IsDir() {
			if shown, ok := shownRecord(arg); ok {
				return shown, nil
			}
		}
		return rec, err
	}
	run, err := getRun(ctx, target, arg)
	if err != nil {
		return nil, err
	}
	return store.DecodeRecord(run)
}

// shownRecord reads the record out of a `show --json` file ({run, standing, limits,
// record}), reporting false for any other file.
func shownRecord(path string) (*record.Record, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var shown struct {
		Run    json.RawMessage `json:"run"`
		Record json.RawMessage `json:"record"`
	}
	if json.Unmarshal(data, &shown) != nil || len(shown.Run) == 0 || len(shown.Record) == 0 {
		return nil, false
	}
	rec, err := record.Decode(shown.Record)
	return rec, err == nil && rec.Log != nil
}

// saveReport stores the record of a scenario run (its last turn) in the store target names
// and returns the stored header and the store's name. The status is failed when runErr is
// set, paused when the run waits for a person, incomplete when the manifest does not say
// the turn completed, else complete.
func saveReport(ctx context.Context, target string, rep *scenario.Report, runErr error) (store.RunInfo, string, error) {
	if rep == nil || rep.Record == nil {
		return store.RunInfo{}, "", errors.New("the run left no record to store")
	}
	status := store.StatusComplete
	switch {
	case runErr != nil:
		status = store.StatusFailed
	case rep.Paused != nil:
		status = store.StatusPaused
	case !rep.Record.Manifest.Complete:
		status = store.StatusIncomplete
	}
	run, err := store.RunFromRecord(rep.Record, status, rep.Answer)
	if err != nil {
		return store.RunInfo{}, "", err
	}
	st, where, err := createStore(ctx, target)
	if err != nil {
		return store.RunInfo{}, "", err
	}
	defer st.Close()
	if err := st.PutRun(ctx, run); err != nil {
		return store.RunInfo{}, where, fmt.Errorf("storing run %s in %s: %w", run.ID, where, err)
	}
	return run.RunInfo, where, nil
}
