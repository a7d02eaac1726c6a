// Package storetest is the conformance suite every store.Store backend must pass, plus a
// shared write-throughput benchmark, so that SQLite and PostgreSQL are held to the same
// behaviour by the same code.
package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/google/go-cmp/cmp"
)

// Run runs every conformance test against stores made by open. Each call of open returns a
// fresh, empty store for one test; the suite closes it (open may register its own
// t.Cleanup for files or schemas).
func Run(t *testing.T, open func(t testing.TB) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"RoundTrip", testRoundTrip},
		{"RecordBytesKept", testRecordBytesKept},
		{"Conversation", testConversation},
		{"LongConversation", testLongConversation},
		{"SharedBlobs", testSharedBlobs},
		{"NotFound", testNotFound},
		{"Replace", testReplace},
		{"Blobs", testBlobs},
		{"Invalid", testInvalid},
		{"List", testList},
		{"Checkpoints", testCheckpoints},
		{"ConcurrentWriters", testConcurrentWriters},
		{"ConcurrentRewrites", testConcurrentRewrites},
		{"CancelledWrite", testCancelledWrite},
		{"Closed", testClosed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			t.Cleanup(func() { s.Close() })
			tc.fn(t, s)
		})
	}
}

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 123456789, time.UTC)

// SampleRun returns a valid run with the given id, started i minutes after a fixed instant,
// holding a small record, two events and two blobs (one shared by every sample run).
func SampleRun(id string, i int) *store.Run {
	return &store.Run{
		RunInfo: store.RunInfo{
			ID:        id,
			SessionID: "session-" + id,
			AgentID:   "refunds",
			StartedAt: t0.Add(time.Duration(i) * time.Minute),
			EndedAt:   t0.Add(time.Duration(i)*time.Minute + 1500*time.Millisecond),
			Status:    store.StatusComplete,
			Answer:    "APPROVED — refund of 42 € for " + id,
		},
		Record: json.RawMessage(fmt.Sprintf(`{"format":"agentfootprint-go.record/1","manifest":{"runId":%q,"complete":true},"commits":[{"idx":0,"runtimeStageId":"input"}]}`, id)),
		Events: json.RawMessage(fmt.Sprintf(`[{"type":"agentfootprint.agent.turn_start","payload":{},"meta":{"runId":%q,"wallClockMs":1}},{"type":"agentfootprint.agent.turn_end","payload":{"finalContent":"APPROVED"},"meta":{"runId":%q,"wallClockMs":2}}]`, id, id)),
		Blobs: []store.Blob{
			{Data: []byte(`{"model":"scripted","messages":[{"role":"user","content":"refund order 7"}]}`)},
			{Data: []byte("response for " + id)},
		},
	}
}

func mustPut(t testing.TB, s store.Store, r *store.Run) {
	t.Helper()
	if err := s.PutRun(context.Background(), r); err != nil {
		t.Fatalf("PutRun(%q): %v", r.ID, err)
	}
}

// sortedBlobs is what GetRun must return for in: digests filled, duplicates removed,
// ordered by digest.
func sortedBlobs(in []store.Blob) []store.Blob {
	seen := map[string]bool{}
	var out []store.Blob
	for _, b := range in {
		d := store.Digest(b.Data)
		if seen[d] {
			continue
		}
		seen[d] = true
		data := b.Data
		if data == nil {
			data = []byte{}
		}
		out = append(out, store.Blob{SHA256: d, Data: data})
	}
	slices.SortFunc(out, func(a, b store.Blob) int { return strings.Compare(a.SHA256, b.SHA256) })
	return out
}

func testRoundTrip(t *testing.T, s store.Store) {
	ctx := context.Background()
	in := SampleRun("run-1", 0)
	in.Blobs = append(in.Blobs, store.Blob{Data: in.Blobs[0].Data}, store.Blob{Data: []byte{}})
	in.StartedAt = in.StartedAt.In(time.FixedZone("CET", 3600))
	want := *in
	want.Blobs = sortedBlobs(in.Blobs)
	mustPut(t, s, in)
	got, err := s.GetRun(ctx, "run-1")
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("GetRun after PutRun (-want +got):\n%s", diff)
	}
	if got.StartedAt.Location() != time.UTC {
		t.Errorf("StartedAt location = %v, want UTC", got.StartedAt.Location())
	}

	// A run with no events and no end keeps them absent.
	bare := SampleRun("run-bare", 1)
	bare.Events, bare.EndedAt, bare.Blobs, bare.Status, bare.Answer = nil, time.Time{}, nil, store.StatusIncomplete, ""
	mustPut(t, s, bare)
	got, err = s.GetRun(ctx, "run-bare")
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	if diff := cmp.Diff(bare, got); diff != "" {
		t.Errorf("bare run round trip (-want +got):\n%s", diff)
	}
}

func testRecordBytesKept(t *testing.T, s store.Store) {
	// Key order, whitespace, escapes and big numbers are the record's own bytes: a store
	// that re-encodes (for example into PostgreSQL jsonb) would change the audit hash.
	record := json.RawMessage("{ \"z\": 1, \"a\": [1.0, 12345678901234567890, \"\\u00e9\\u2028<&>\"],\n\t\"dup\": 1, \"dup\": 2 }")
	events := json.RawMessage("[ {\"type\":\"x\",  \"payload\":{\"b\":1,\"a\":2}} ]")
	r := SampleRun("bytes", 0)
	r.Record, r.Events = record, events
	mustPut(t, s, r)
	got, err := s.GetRun(context.Background(), "bytes")
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	if !bytes.Equal(got.Record, record) {
		t.Errorf("Record = %s, want the exact bytes %s", got.Record, record)
	}
	if !bytes.Equal(got.Events, events) {
		t.Errorf("Events = %s, want the exact bytes %s", got.Events, events)
	}
}

func testNotFound(t *testing.T, s store.Store) {
	ctx := context.Background()
	mustPut(t, s, SampleRun("present", 0))
	_, err := s.GetRun(ctx, "run-missing")
	checkNotFound(t, err, "run", "run-missing")
	_, err = s.GetBlob(ctx, store.Digest([]byte("never stored")))
	checkNotFound(t, err, "blob", store.Digest([]byte("never stored")))
	_, err = s.GetCheckpoint(ctx, "session-missing")
	checkNotFound(t, err, "checkpoint", "session-missing")

	_, err = s.GetBlob(ctx, "not-a-digest")
	var inv *store.InvalidError
	if !errors.As(err, &inv) || !strings.Contains(err.Error(), "not-a-digest") {
		t.Errorf("GetBlob(bad digest) = %v, want an *InvalidError naming it", err)
	}
}

func checkNotFound(t *testing.T, err error, kind, id string) {
	t.Helper()
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("%s %q: err = %v, want ErrNotFound", kind, id, err)
		return
	}
	var nf *store.NotFoundError
	if !errors.As(err, &nf) || nf.Kind != kind || nf.ID != id {
		t.Errorf("%s %q: err = %#v, want *NotFoundError{%q, %q}", kind, id, err, kind, id)
	}
	if !strings.Contains(err.Error(), id) {
		t.Errorf("error %q does not name %q", err, id)
	}
}

func testReplace(t *testing.T, s store.Store) {
	ctx := context.Background()
	first := SampleRun("run-r", 0)
	first.Status = store.StatusPaused
	mustPut(t, s, first)
	oldBlob := first.Blobs[1].SHA256

	second := SampleRun("run-r", 3)
	second.Answer = "resumed answer"
	second.Blobs = []store.Blob{{Data: []byte("only blob now")}}
	mustPut(t, s, second)

	got, err := s.GetRun(ctx, "run-r")
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	want := *second
	want.Blobs = sortedBlobs(second.Blobs)
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("replaced run (-want +got):\n%s", diff)
	}
	// Blobs are shared by content: the replaced run's blob stays readable by digest.
	if data, err := s.GetBlob(ctx, oldBlob); err != nil || string(data) != "response for run-r" {
		t.Errorf("GetBlob(old blob) = %q, %v; want it kept", data, err)
	}
	list, err := s.ListRuns(ctx, store.Filter{})
	if err != nil || len(list) != 1 {
		t.Errorf("ListRuns after replace = %d runs, %v; want 1", len(list), err)
	}
}

func testBlobs(t *testing.T, s store.Store) {
	ctx := context.Background()
	data := []byte("exact request bytes \x00\xff")
	d1, err := s.PutBlob(ctx, data)
	if err != nil {
		t.Fatalf("PutBlob: %v", err)
	}
	d2, err := s.PutBlob(ctx, bytes.Clone(data))
	if err != nil {
		t.Fatalf("PutBlob again: %v", err)
	}
	if d1 != store.Digest(data) || d2 != d1 {
		t.Errorf("digests = %s, %s; want both %s", d1, d2, store.Digest(data))
	}
	for _, key := range []string{d1, "sha256:" + d1, strings.ToUpper(d1)} {
		got, err := s.GetBlob(ctx, key)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("GetBlob(%s) = %q, %v; want %q", key, got, err, data)
		}
	}
	empty, err := s.PutBlob(ctx, nil)
	if err != nil {
		t.Fatalf("PutBlob(nil): %v", err)
	}
	got, err := s.GetBlob(ctx, empty)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("GetBlob(empty) = %#v, %v; want an empty non-nil slice", got, err)
	}
	// A run may reference a blob stored earlier by PutBlob.
	r := SampleRun("run-b", 0)
	r.Blobs = []store.Blob{{SHA256: "sha256:" + strings.ToUpper(d1), Data: data}}
	mustPut(t, s, r)
	run, err := s.GetRun(ctx, "run-b")
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	if diff := cmp.Diff([]store.Blob{{SHA256: d1, Data: data}}, run.Blobs); diff != "" {
		t.Errorf("blobs (-want +got):\n%s", diff)
	}
}

func testInvalid(t *testing.T, s store.Store) {
	ctx := context.Background()
	cases := []struct {
		field  string
		mutate func(r *store.Run)
	}{
		{"Run.ID", func(r *store.Run) { r.ID = "" }},
		{"Run.ID", func(r *store.Run) { r.ID = strings.Repeat("x", 300) }},
		{"Run.ID", func(r *store.Run) { r.ID = "a\x00b" }},
		{"Run.SessionID", func(r *store.Run) { r.SessionID = "\xff" }},
		{"Run.StartedAt", func(r *store.Run) { r.StartedAt = time.Time{} }},
		{"Run.StartedAt", func(r *store.Run) { r.StartedAt = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC); r.EndedAt = time.Time{} }},
		{"Run.EndedAt", func(r *store.Run) { r.EndedAt = r.StartedAt.Add(-time.Second) }},
		{"Run.Status", func(r *store.Run) { r.Status = "done" }},
		{"Run.Answer", func(r *store.Run) { r.Answer = "bad \xff" }},
		{"Run.Record", func(r *store.Run) { r.Record = nil }},
		{"Run.Record", func(r *store.Run) { r.Record = json.RawMessage(`{"truncated": `) }},
		{"Run.Record", func(r *store.Run) { r.Record = json.RawMessage(`[1]`) }},
		{"Run.Events", func(r *store.Run) { r.Events = json.RawMessage(`{"type":"x"}`) }},
		{"Run.Blobs[1].SHA256", func(r *store.Run) { r.Blobs[1].SHA256 = store.Digest([]byte("other")) }},
		{"Run.Blobs[0].SHA256", func(r *store.Run) { r.Blobs[0].SHA256 = "md5:abc" }},
	}
	for i, tc := range cases {
		r := SampleRun(fmt.Sprintf("invalid-%d", i), 0)
		tc.mutate(r)
		err := s.PutRun(ctx, r)
		var inv *store.InvalidError
		if !errors.As(err, &inv) || inv.Field != tc.field {
			t.Errorf("case %d: PutRun = %v, want *InvalidError on %s", i, err, tc.field)
		}
	}
	if err := s.PutRun(ctx, nil); err == nil {
		t.Error("PutRun(nil) succeeded")
	}
	list, err := s.ListRuns(ctx, store.Filter{})
	if err != nil || len(list) != 0 {
		t.Errorf("after refused writes ListRuns = %v, %v; want none", list, err)
	}
	for _, f := range []store.Filter{{Limit: -1}, {Status: "done"}, {Since: t0, Until: t0}} {
		if _, err := s.ListRuns(ctx, f); err == nil {
			t.Errorf("ListRuns(%+v) accepted an invalid filter", f)
		}
	}
	for _, cp := range []*store.Checkpoint{nil, {SessionID: "", Data: json.RawMessage(`{}`)}, {SessionID: "s", Data: json.RawMessage(`{`)}, {SessionID: "s"}} {
		if err := s.PutCheckpoint(ctx, cp); err == nil {
			t.Errorf("PutCheckpoint(%+v) accepted an invalid checkpoint", cp)
		}
	}
}

func testList(t *testing.T, s store.Store) {
	ctx := context.Background()
	specs := []struct {
		id      string
		minute  int
		session string
		agent   string
		status  store.Status
	}{
		{"a", 0, "s1", "refunds", store.StatusComplete},
		{"b", 1, "s1", "refunds", store.StatusFailed},
		{"c", 2, "s2", "loans", store.StatusComplete},
		{"d", 2, "s2", "loans", store.StatusPaused}, // same start as c: id breaks the tie
		{"e", 5, "", "loans", store.StatusIncomplete},
	}
	for _, sp := range specs {
		r := SampleRun(sp.id, sp.minute)
		r.SessionID, r.AgentID, r.Status = sp.session, sp.agent, sp.status
		mustPut(t, s, r)
	}
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	cases := []struct {
		name   string
		filter store.Filter
		want   []string
	}{
		{"all newest first", store.Filter{}, []string{"e", "d", "c", "b", "a"}},
		{"limit", store.Filter{Limit: 2}, []string{"e", "d"}},
		{"session", store.Filter{SessionID: "s1"}, []string{"b", "a"}},
		{"agent", store.Filter{AgentID: "loans"}, []string{"e", "d", "c"}},
		{"status", store.Filter{Status: store.StatusComplete}, []string{"c", "a"}},
		{"since inclusive", store.Filter{Since: at(2)}, []string{"e", "d", "c"}},
		{"until exclusive", store.Filter{Until: at(2)}, []string{"b", "a"}},
		{"window and agent", store.Filter{Since: at(1), Until: at(5), AgentID: "loans", Limit: 1}, []string{"d"}},
		{"nothing", store.Filter{SessionID: "nobody"}, nil},
	}
	for _, tc := range cases {
		got, err := s.ListRuns(ctx, tc.filter)
		if err != nil {
			t.Fatalf("%s: ListRuns: %v", tc.name, err)
		}
		var ids []string
		for _, r := range got {
			ids = append(ids, r.ID)
		}
		if diff := cmp.Diff(tc.want, ids); diff != "" {
			t.Errorf("%s: ids (-want +got):\n%s", tc.name, diff)
		}
	}
	got, err := s.ListRuns(ctx, store.Filter{SessionID: "s2", Status: store.StatusComplete})
	if err != nil || len(got) != 1 {
		t.Fatalf("ListRuns = %v, %v", got, err)
	}
	if diff := cmp.Diff(SampleRun("c", 2).RunInfo, func() store.RunInfo {
		r := got[0]
		r.SessionID, r.AgentID = "session-c", "refunds"
		return r
	}()); diff != "" {
		t.Errorf("listed header (-want +got):\n%s", diff)
	}
}

func testCheckpoints(t *testing.T, s store.Store) {
	ctx := context.Background()
	before := time.Now().Add(-time.Second)
	cp := &store.Checkpoint{SessionID: "conv-1", RunID: "run-1", Data: json.RawMessage(`{"v": 1, "history": ["hi"]}`)}
	if err := s.PutCheckpoint(ctx, cp); err != nil {
		t.Fatalf("PutCheckpoint: %v", err)
	}
	if cp.UpdatedAt.Before(before) {
		t.Errorf("UpdatedAt = %v, want set to now", cp.UpdatedAt)
	}
	got, err := s.GetCheckpoint(ctx, "conv-1")
	if err != nil {
		t.Fatalf("GetCheckpoint: %v", err)
	}
	if diff := cmp.Diff(cp, got); diff != "" {
		t.Errorf("checkpoint (-want +got):\n%s", diff)
	}
	next := &store.Checkpoint{SessionID: "conv-1", Data: json.RawMessage(`{"v":2}`)}
	if err := s.PutCheckpoint(ctx, next); err != nil {
		t.Fatalf("PutCheckpoint: %v", err)
	}
	got, err = s.GetCheckpoint(ctx, "conv-1")
	if err != nil {
		t.Fatalf("GetCheckpoint: %v", err)
	}
	if diff := cmp.Diff(next, got); diff != "" {
		t.Errorf("replaced checkpoint (-want +got):\n%s", diff)
	}
	if _, err := s.GetCheckpoint(ctx, "conv-2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("other session: err = %v, want ErrNotFound", err)
	}
}

func testConcurrentWriters(t *testing.T, s store.Store) {
	ctx := context.Background()
	const writers, each = 4, 5
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := s.PutRun(ctx, SampleRun(fmt.Sprintf("w%d-%d", w, i), w*each+i)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent PutRun: %v", err)
	}
	list, err := s.ListRuns(ctx, store.Filter{})
	if err != nil || len(list) != writers*each {
		t.Errorf("ListRuns = %d runs, %v; want %d", len(list), err, writers*each)
	}
}

// testConcurrentRewrites writes one turn of a conversation from several writers at once (a
// run stored again while another write of it is under way), then the next turn: every write
// succeeds, the turn reads back as one of the writes, and so does the turn after it.
func testConcurrentRewrites(t *testing.T, s store.Store) {
	ctx := context.Background()
	runs := ConversationRuns(3)
	mustPut(t, s, runs[0])
	const writers = 6
	versions := make([]*store.Run, writers)
	var wg sync.WaitGroup
	errs := make(chan error, writers*3)
	for w := range writers {
		r := *runs[1]
		r.Blobs = slices.Clone(r.Blobs) // PutRun fills in the digests: one list per writer
		r.Answer = fmt.Sprintf("written by %d", w)
		r.Record = bytes.Replace(r.Record, []byte(`"complete":true`), []byte(fmt.Sprintf(`"complete":true,"writer":%d`, w)), 1)
		versions[w] = &r
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				if err := s.PutRun(ctx, versions[w]); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent PutRun of one run: %v", err)
	}
	got, err := s.GetRun(ctx, runs[1].ID)
	if err != nil {
		t.Fatalf("GetRun: %v", err)
	}
	found := false
	for _, v := range versions {
		found = found || bytes.Equal(got.Record, v.Record) && got.Answer == v.Answer
	}
	if !found {
		t.Errorf("the run reads back as none of its writes (answer %q)", got.Answer)
	}
	mustPut(t, s, runs[2])
	checkReadsBack(t, s, runs[2])
}

func testCancelledWrite(t *testing.T, s store.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.PutRun(ctx, SampleRun("cancelled", 0)); err == nil {
		t.Fatal("PutRun with a cancelled context succeeded")
	}
	_, err := s.GetRun(context.Background(), "cancelled")
	if !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetRun after a cancelled write = %v, want ErrNotFound", err)
	}
}

func testClosed(t *testing.T, s store.Store) {
	mustPut(t, s, SampleRun("x", 0))
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.GetRun(context.Background(), "x"); !errors.Is(err, store.ErrClosed) {
		t.Errorf("GetRun after Close = %v, want ErrClosed", err)
	}
	if err := s.PutRun(context.Background(), SampleRun("y", 0)); !errors.Is(err, store.ErrClosed) {
		t.Errorf("PutRun after Close = %v, want ErrClosed", err)
	}
}
