// This file holds the conformance checks of what a store keeps for a conversation: the runs
// of a multi-turn conversation, whose records and request bodies repeat the turns before
// them, read back byte for byte (however a backend lays them out), and so do runs written in
// a backend's earlier layout.

package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/google/go-cmp/cmp"
)

// ConversationRuns returns the runs of a conversation of turns turns, shaped like agent
// turns saved one by one: each record holds the history so far (a 2 KB page of log lines
// per turn, different for each turn) and the turn's own steps, each turn has events, and
// its blobs are request bodies that repeat the history in another encoding, a response,
// and two awkward blobs (empty; bytes that start like a backend's stored form).
func ConversationRuns(turns int) []*store.Run {
	var history []string
	var runs []*store.Run
	for n := 1; n <= turns; n++ {
		id := fmt.Sprintf("conv-%02d", n)
		history = append(history,
			fmt.Sprintf(`{"role":"user","content":"What does page %d say?"}`, n),
			fmt.Sprintf(`{"role":"tool","content":%q}`, page(n)))
		var commits []string
		for i := range 6 {
			commits = append(commits, fmt.Sprintf(`{"idx":%d,"stage":"step","runtimeStageId":"step#%d","ops":[{"key":"iteration","verb":"set","value":%d}]}`, i, i, i))
		}
		record := fmt.Sprintf(`{"format":"agentfootprint-go.record/4","manifest":{"runId":%q,"turnNumber":%d,"complete":true},`+
			`"commits":[{"idx":0,"ops":[{"key":"history","verb":"set","value":[%s]}]},%s]}`,
			id, n, strings.Join(history, ","), strings.Join(commits, ","))
		var events []string
		for i := range 8 {
			events = append(events, fmt.Sprintf(`{"type":"agentfootprint.agent.step","payload":{"i":%d},"meta":{"runId":%q,"wallClockMs":%d}}`, i, id, 1764417600000+n*1000+i))
		}
		request := fmt.Sprintf(`{"model":"m","messages":[%s]}`, strings.Join(history, ","))
		runs = append(runs, &store.Run{
			RunInfo: store.RunInfo{
				ID: id, SessionID: "conversation", AgentID: "logs",
				StartedAt: t0.Add(time.Duration(n) * time.Minute), EndedAt: t0.Add(time.Duration(n)*time.Minute + time.Second),
				Status: store.StatusComplete, Answer: fmt.Sprintf("Page %d: resets.", n),
			},
			Record: json.RawMessage(record),
			Events: json.RawMessage("[" + strings.Join(events, ",") + "]"),
			Blobs: []store.Blob{
				{Data: []byte(request)},
				{Data: []byte(request[:len(request)-2] + `,{"role":"assistant","content":"Page resets."}]}`)},
				{Data: []byte(fmt.Sprintf(`{"response":%q}`, id))},
				{Data: []byte{}},
				{Data: append([]byte("\x00afs\x01\x00"), page(n)...)},
			},
		})
	}
	return runs
}

// page returns about 2 KB of log lines for page n, different for every n.
func page(n int) string {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	var b strings.Builder
	for b.Len() < 2000 {
		fmt.Fprintf(&b, "12:%02d:%02d req=%016x /checkout %d %dms\n", r.IntN(60), r.IntN(60), r.Uint64(), []int{200, 502}[r.IntN(2)], r.IntN(3000))
	}
	return b.String()
}

// checkReadsBack fails t unless s returns run exactly as it was put: header, record and
// events byte for byte, blobs sorted by digest, and every blob by digest too.
func checkReadsBack(t *testing.T, s store.Store, want *store.Run) {
	t.Helper()
	ctx := context.Background()
	got, err := s.GetRun(ctx, want.ID)
	if err != nil {
		t.Fatalf("GetRun(%s): %v", want.ID, err)
	}
	if !bytes.Equal(got.Record, want.Record) {
		t.Errorf("run %s: record of %d bytes reads back as %d different bytes", want.ID, len(want.Record), len(got.Record))
	}
	if !bytes.Equal(got.Events, want.Events) {
		t.Errorf("run %s: events of %d bytes read back as %d different bytes", want.ID, len(want.Events), len(got.Events))
	}
	w := *want
	w.Blobs = sortedBlobs(want.Blobs)
	if diff := cmp.Diff(w.RunInfo, got.RunInfo); diff != "" {
		t.Errorf("run %s (-want +got):\n%s", want.ID, diff)
	}
	if len(got.Blobs) != len(w.Blobs) {
		t.Errorf("run %s: %d blobs, want %d", want.ID, len(got.Blobs), len(w.Blobs))
	}
	for i := range min(len(got.Blobs), len(w.Blobs)) {
		if got.Blobs[i].SHA256 != w.Blobs[i].SHA256 || !bytes.Equal(got.Blobs[i].Data, w.Blobs[i].Data) {
			t.Errorf("run %s: blob %d is %s (%d bytes), want %s (%d bytes)", want.ID, i,
				got.Blobs[i].SHA256, len(got.Blobs[i].Data), w.Blobs[i].SHA256, len(w.Blobs[i].Data))
		}
	}
	for _, b := range w.Blobs {
		data, err := s.GetBlob(ctx, b.SHA256)
		if err != nil || !bytes.Equal(data, b.Data) {
			t.Errorf("run %s: GetBlob(%s) = %d bytes, %v; want its %d bytes", want.ID, b.SHA256, len(data), err, len(b.Data))
		}
	}
}

// putAndCheck stores runs in order, then reads each back.
func putAndCheck(t *testing.T, s store.Store, runs []*store.Run) {
	t.Helper()
	for _, r := range runs {
		mustPut(t, s, r)
	}
	for _, r := range runs {
		checkReadsBack(t, s, r)
	}
}

func testConversation(t *testing.T, s store.Store) {
	runs := ConversationRuns(8)
	putAndCheck(t, s, runs)
	// A turn stored again (a resumed run) replaces its row and still reads back, and so
	// does the turn after it, which a backend may have stored as a delta on the old row.
	again := ConversationRuns(8)[4]
	again.Answer = "rewritten"
	again.Record = bytes.Replace(again.Record, []byte(`"complete":true`), []byte(`"complete":false`), 1)
	again.Blobs = append(again.Blobs, store.Blob{Data: []byte("one more blob")})
	mustPut(t, s, again)
	mustPut(t, s, again) // twice: two earlier versions
	checkReadsBack(t, s, again)
	for _, r := range runs[5:] {
		checkReadsBack(t, s, r)
	}
}

// testSharedBlobs stores two conversations, the second listing again, in its second turn, a
// blob the first wrote in its fifth (a store may keep it as a delta on the first
// conversation's turns), then pushes both out of any small cache a backend keeps and reads
// every turn back.
func testSharedBlobs(t *testing.T, s store.Store) {
	a := ConversationRuns(6)
	b := ConversationRuns(4)
	for _, r := range b {
		r.ID = "other-" + r.ID
		r.SessionID = "other conversation"
		r.Record = bytes.Replace(r.Record, []byte(`"conv-`), []byte(`"other-conv-`), 1)
	}
	b[1].Blobs = append(b[1].Blobs, a[4].Blobs[1])
	for _, r := range append(slices.Clone(a), b...) {
		mustPut(t, s, r)
	}
	for i := range 40 {
		mustPut(t, s, SampleRun(fmt.Sprintf("filler-%02d", i), i))
	}
	for _, r := range append(a, b...) {
		checkReadsBack(t, s, r)
	}
}

// testLongConversation stores a conversation longer than any chain of deltas a backend
// keeps (the stored encoding starts over after 32) and reads every turn back.
func testLongConversation(t *testing.T, s store.Store) {
	putAndCheck(t, s, ConversationRuns(40))
}

// RunOldRows checks that runs written in a backend's earlier layout still read back: open
// returns a fresh store, and putOld writes a run into it the way the backend's previous
// schema did (a backend test reaches its own internals for that). The first half of a
// conversation is written the old way and the rest the current way, so old rows and new
// ones share blobs and history.
func RunOldRows(t *testing.T, open func(t testing.TB) store.Store, putOld func(s store.Store, run *store.Run) error) {
	s := open(t)
	t.Cleanup(func() { s.Close() })
	runs := ConversationRuns(8)
	for i, r := range runs {
		if i < len(runs)/2 {
			if err := putOld(s, r); err != nil {
				t.Fatalf("writing run %s the old way: %v", r.ID, err)
			}
			continue
		}
		mustPut(t, s, r)
	}
	for _, r := range runs {
		checkReadsBack(t, s, r)
	}
	// The last old row written again the current way: the turn after it, which a backend
	// may have stored as a delta on the old row, still reads back.
	again := ConversationRuns(8)[len(runs)/2-1]
	again.Record = bytes.Replace(again.Record, []byte(`"complete":true`), []byte(`"complete":false`), 1)
	again.Blobs = again.Blobs[:2]
	mustPut(t, s, again)
	// Other runs written meanwhile push what a backend may keep in memory of the old row
	// out of a small cache, so the read below goes to what the store holds.
	for i := range 40 {
		mustPut(t, s, SampleRun(fmt.Sprintf("other-%02d", i), i))
	}
	checkReadsBack(t, s, again)
	checkReadsBack(t, s, runs[len(runs)/2])
}
