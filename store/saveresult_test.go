// SaveResult and LoadRecord round trips: the record survives, the status follows the
// turn, and bad input is refused by name.

package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/audit"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

type statusIn struct {
	Service string `json:"service" jsonschema:"the service to check"`
}

// runAgent runs one scripted turn: a tool call, then an answer (or whatever replies say).
func runAgent(t *testing.T, replies []scripted.Reply, fn func(context.Context, statusIn) (string, error)) (*agent.Result, error) {
	t.Helper()
	status, err := tool.New("service_status", "Report a service's health.", fn)
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(scripted.New(replies...), agent.WithTools(status), agent.WithID("triage"))
	if err != nil {
		t.Fatal(err)
	}
	return a.Run(context.Background(), agent.Input{Message: "Is checkout healthy?"})
}

func call(args string) scripted.Reply {
	return scripted.Reply{Content: "Checking.", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "service_status", Args: json.RawMessage(args)}}}
}

func degraded(ctx context.Context, in statusIn) (string, error) {
	return in.Service + " is degraded", nil
}

func openStore(t *testing.T) store.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestSaveLoadKeepsTheRecord(t *testing.T) {
	res, err := runAgent(t, []scripted.Reply{call(`{"service":"checkout"}`), {Content: "Checkout is degraded."}}, degraded)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	ctx := context.Background()
	info, err := store.SaveResult(ctx, st, res, nil)
	if err != nil {
		t.Fatal(err)
	}
	if info.ID != res.RunID || info.Status != store.StatusComplete || info.Answer != "Checkout is degraded." || info.AgentID != "triage" {
		t.Errorf("header %+v", info)
	}
	rec, run, err := store.LoadRecord(ctx, st, res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Blobs) == 0 || len(run.Blobs) != len(res.Record.Blobs) {
		t.Errorf("stored %d blobs, the record has %d", len(run.Blobs), len(res.Record.Blobs))
	}
	var inside struct {
		Blobs map[string]string `json:"blobs"`
	}
	if err := json.Unmarshal(run.Record, &inside); err != nil || len(inside.Blobs) != 0 {
		t.Errorf("the stored record still carries %d blobs (%v)", len(inside.Blobs), err)
	}
	got, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("reloaded record differs (-saved +loaded):\n%s", d)
	}
	// The events stay in the record, where the audit exporter reads them.
	ar, err := audit.FromStore(run)
	if err != nil {
		t.Fatal(err)
	}
	if len(ar.Events) != res.Record.Events.Len() || ar.RecordFormat != record.Format {
		t.Errorf("audit input: %d events (want %d), format %q", len(ar.Events), res.Record.Events.Len(), ar.RecordFormat)
	}
}

func TestStatus(t *testing.T) {
	pause := func(ctx context.Context, in statusIn) (string, error) {
		return "", tool.Pause(map[string]any{"question": "Restart " + in.Service + "?"})
	}
	cases := []struct {
		name    string
		replies []scripted.Reply
		fn      func(context.Context, statusIn) (string, error)
		want    store.Status
		answer  string
	}{
		{"complete", []scripted.Reply{{Content: "All good."}}, degraded, store.StatusComplete, "All good."},
		{"paused", []scripted.Reply{call(`{"service":"checkout"}`)}, pause, store.StatusPaused, ""},
		{"failed", []scripted.Reply{{Err: &llm.Error{Kind: llm.KindAuth, Message: "bad key"}}}, degraded, store.StatusFailed, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, runErr := runAgent(t, c.replies, c.fn)
			run, err := store.RunFromResult(res, runErr)
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != c.want || run.Answer != c.answer {
				t.Errorf("status %q answer %q, want %q %q (run error %v)", run.Status, run.Answer, c.want, c.answer, runErr)
			}
			if err := run.Validate(); err != nil {
				t.Errorf("the store would refuse it: %v", err)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	st := openStore(t)
	_, _, err := store.LoadRecord(context.Background(), st, "run-missing")
	if !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), "run-missing") {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := store.RunFromResult(nil, nil); err == nil {
		t.Error("nil result accepted")
	}
	cases := []struct {
		name string
		m    record.Manifest
		want string
	}{
		{"no id", record.Manifest{StartedAt: "2026-01-02T03:04:05Z"}, "manifest.runId"},
		{"bad start", record.Manifest{RunID: "r", StartedAt: "yesterday"}, "manifest.startedAt"},
		{"bad end", record.Manifest{RunID: "r", StartedAt: "2026-01-02T03:04:05Z", EndedAt: "soon"}, "manifest.endedAt"},
	}
	for _, c := range cases {
		_, err := store.RunFromRecord(&record.Record{Manifest: c.m}, store.StatusComplete, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %s", c.name, err, c.want)
		}
	}
	_, err = store.DecodeRecord(&store.Run{RunInfo: store.RunInfo{ID: "r9"}, Record: json.RawMessage(`{"format":"other/1"}`)})
	if err == nil || !strings.Contains(err.Error(), "r9") || !strings.Contains(err.Error(), "other/1") {
		t.Errorf("foreign format: %v", err)
	}
}
