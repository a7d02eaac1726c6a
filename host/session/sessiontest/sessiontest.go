// Package sessiontest is the battery every session.Store backend must pass, so that the
// single-host SQLite store and the many-host PostgreSQL store are held to the same
// behaviour by the same code: create, turn, pause, answer, replay after N, a concurrent
// turn refused, lease expiry and takeover, two hosts on one database.
package sessiontest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/host/session"
	"github.com/google/go-cmp/cmp"
)

// Database makes a fresh, empty database for one test and returns a function that opens a
// new handle on it: each handle stands for one host. The battery closes the handles.
type Database func(t testing.TB) (open func() (session.Store, error))

// Run runs the battery against the backend db makes.
func Run(t *testing.T, db Database) {
	tests := []struct {
		name string
		fn   func(t *testing.T, open func() session.Store)
	}{
		{"Create", testCreate},
		{"Turn", testTurn},
		{"PauseAndAnswer", testPauseAndAnswer},
		{"ReplayAfterN", testReplay},
		{"ConcurrentTurnRefused", testConcurrentTurn},
		{"LeaseExpiry", testLeaseExpiry},
		{"TwoHosts", testTwoHosts},
		{"Refusals", testRefusals},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opener := db(t)
			open := func() session.Store {
				t.Helper()
				s, err := opener()
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				return s
			}
			tc.fn(t, open)
		})
	}
}

var ctx = context.Background()

const ttl = 5 * time.Second

func create(t *testing.T, s session.Store, id string) {
	t.Helper()
	if err := s.Create(ctx, &session.Conversation{ID: id, Agent: "demo", Checkpoint: json.RawMessage(`{"v":0}`)}); err != nil {
		t.Fatal(err)
	}
}

func ev(run, typ string, i int) session.Event {
	return session.Event{RunID: run, Type: typ, Data: json.RawMessage(fmt.Sprintf(`{"type":%q,"n":%d}`, typ, i))}
}

// brief is what the battery compares of a conversation.
type brief struct {
	Agent, Owner, RunID, Checkpoint string
	State                           session.State
	Turns                           int
	LastSeq                         int64
}

func briefOf(c *session.Conversation) brief {
	return brief{Agent: c.Agent, Owner: c.Owner, RunID: c.RunID, Checkpoint: string(c.Checkpoint), State: c.State, Turns: c.Turns, LastSeq: c.LastSeq}
}

func mustGet(t *testing.T, s session.Store, id string) *session.Conversation {
	t.Helper()
	c, err := s.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testCreate(t *testing.T, open func() session.Store) {
	s := open()
	create(t, s, "c1")
	c := mustGet(t, s, "c1")
	want := brief{Agent: "demo", Checkpoint: `{"v":0}`, State: session.StateIdle}
	if d := cmp.Diff(want, briefOf(c)); d != "" {
		t.Errorf("created conversation (-want +got):\n%s", d)
	}
	if c.CreatedAt.IsZero() || c.UpdatedAt.IsZero() {
		t.Errorf("times not set: %+v", c)
	}
	err := s.Create(ctx, &session.Conversation{ID: "c1", Agent: "demo", Checkpoint: json.RawMessage(`{}`)})
	if !errors.Is(err, session.ErrExists) {
		t.Errorf("second Create of c1: %v, want ErrExists", err)
	}
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Get(nope): %v, want ErrNotFound", err)
	}
	if _, err := s.Events(ctx, "nope", 0, 0); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Events(nope): %v, want ErrNotFound", err)
	}
}

// turn runs one turn as a host does: acquire, append, release.
func turn(t *testing.T, s session.Store, id, owner, run string, events int, state session.State, cp string) []int64 {
	t.Helper()
	if _, err := s.Acquire(ctx, id, owner, ttl); err != nil {
		t.Fatal(err)
	}
	var seqs []int64
	for i := range events {
		n, err := s.Append(ctx, id, owner, ev(run, "agentfootprint.llm.request", i))
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, n)
	}
	res := ev(run, "result", events)
	n, err := s.Release(ctx, id, owner, session.End{Checkpoint: json.RawMessage(cp), State: state, Turn: true, Event: &res})
	if err != nil {
		t.Fatal(err)
	}
	return append(seqs, n)
}

func testTurn(t *testing.T, open func() session.Store) {
	s := open()
	create(t, s, "c1")
	l, err := s.Acquire(ctx, "c1", "host-a", ttl)
	if err != nil {
		t.Fatal(err)
	}
	if l.Owner != "host-a" || l.Abandoned != nil || !l.LeaseUntil.After(time.Now().Add(-time.Second)) {
		t.Errorf("lease = %+v", l)
	}
	n, err := s.Append(ctx, "c1", "host-a", ev("run-1", "agentfootprint.agent.turn_start", 0))
	if err != nil || n != 1 {
		t.Fatalf("Append = %d, %v; want 1", n, err)
	}
	mid := mustGet(t, s, "c1")
	if d := cmp.Diff(brief{Agent: "demo", Owner: "host-a", RunID: "run-1", Checkpoint: `{"v":0}`, State: session.StateIdle, LastSeq: 1}, briefOf(mid)); d != "" {
		t.Errorf("mid-turn (-want +got):\n%s", d)
	}
	res := ev("run-1", "result", 1)
	n, err = s.Release(ctx, "c1", "host-a", session.End{Checkpoint: json.RawMessage(`{"v":1}`), State: session.StateIdle, Turn: true, Event: &res})
	if err != nil || n != 2 {
		t.Fatalf("Release = %d, %v; want 2", n, err)
	}
	after := mustGet(t, s, "c1")
	if d := cmp.Diff(brief{Agent: "demo", Checkpoint: `{"v":1}`, State: session.StateIdle, Turns: 1, LastSeq: 2}, briefOf(after)); d != "" {
		t.Errorf("after the turn (-want +got):\n%s", d)
	}
	if _, err := s.Append(ctx, "c1", "host-a", ev("run-1", "late", 2)); !errors.Is(err, session.ErrLeaseLost) {
		t.Errorf("Append after Release: %v, want ErrLeaseLost", err)
	}
}

func testPauseAndAnswer(t *testing.T, open func() session.Store) {
	s := open()
	create(t, s, "c1")
	turn(t, s, "c1", "host-a", "run-1", 2, session.StatePaused, `{"v":"paused"}`)
	c := mustGet(t, s, "c1")
	if c.State != session.StatePaused || string(c.Checkpoint) != `{"v":"paused"}` {
		t.Fatalf("after the pause: %+v", briefOf(c))
	}
	// The answer: a release without a checkpoint keeps the stored one.
	if _, err := s.Acquire(ctx, "c1", "host-a", ttl); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Release(ctx, "c1", "host-a", session.End{State: session.StatePaused}); err != nil {
		t.Fatal(err)
	}
	if c := mustGet(t, s, "c1"); string(c.Checkpoint) != `{"v":"paused"}` || c.Turns != 1 {
		t.Errorf("a release without a checkpoint changed it: %+v", briefOf(c))
	}
	turn(t, s, "c1", "host-a", "run-2", 1, session.StateIdle, `{"v":"answered"}`)
	c = mustGet(t, s, "c1")
	if d := cmp.Diff(brief{Agent: "demo", Checkpoint: `{"v":"answered"}`, State: session.StateIdle, Turns: 2, LastSeq: 5}, briefOf(c)); d != "" {
		t.Errorf("after the answer (-want +got):\n%s", d)
	}
}

func testReplay(t *testing.T, open func() session.Store) {
	s := open()
	create(t, s, "c1")
	create(t, s, "c2")
	turn(t, s, "c1", "h", "run-1", 4, session.StateIdle, `{}`)
	turn(t, s, "c2", "h", "run-9", 2, session.StateIdle, `{}`)
	turn(t, s, "c1", "h", "run-2", 1, session.StateIdle, `{}`)
	all, err := s.Events(ctx, "c1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, e := range all {
		if e.Seq != int64(i+1) {
			t.Errorf("event %d has seq %d", i, e.Seq)
		}
		got = append(got, fmt.Sprintf("%d %s %s", e.Seq, e.RunID, e.Type))
	}
	want := []string{"1 run-1 agentfootprint.llm.request", "2 run-1 agentfootprint.llm.request", "3 run-1 agentfootprint.llm.request",
		"4 run-1 agentfootprint.llm.request", "5 run-1 result", "6 run-2 agentfootprint.llm.request", "7 run-2 result"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("c1's log (-want +got):\n%s", d)
	}
	if string(all[2].Data) != `{"type":"agentfootprint.llm.request","n":2}` {
		t.Errorf("event data not kept byte for byte: %s", all[2].Data)
	}
	page, err := s.Events(ctx, "c1", 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != 2 || page[0].Seq != 5 || page[1].Seq != 6 {
		t.Errorf("Events(after 4, limit 2) = %+v", page)
	}
	none, err := s.Events(ctx, "c1", 7, 0)
	if err != nil || len(none) != 0 {
		t.Errorf("Events(after the last) = %v, %v", none, err)
	}
}

func testConcurrentTurn(t *testing.T, open func() session.Store) {
	s := open()
	create(t, s, "c1")
	if _, err := s.Acquire(ctx, "c1", "host-a", ttl); err != nil {
		t.Fatal(err)
	}
	for _, owner := range []string{"host-a", "host-b"} {
		if _, err := s.Acquire(ctx, "c1", owner, ttl); !errors.Is(err, session.ErrBusy) {
			t.Errorf("Acquire by %s during a turn: %v, want ErrBusy", owner, err)
		}
	}
	if _, err := s.Release(ctx, "c1", "host-a", session.End{State: session.StateIdle}); err != nil {
		t.Fatal(err)
	}
	// Racing acquirers: exactly one wins.
	create(t, s, "c2")
	var wg sync.WaitGroup
	var mu sync.Mutex
	won, busy := 0, 0
	for i := range 8 {
		wg.Go(func() {
			_, err := s.Acquire(ctx, "c2", fmt.Sprintf("host-%d", i), ttl)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won++
			case errors.Is(err, session.ErrBusy):
				busy++
			default:
				t.Errorf("Acquire: %v", err)
			}
		})
	}
	wg.Wait()
	if won != 1 || busy != 7 {
		t.Errorf("8 racing acquirers: %d won, %d busy; want 1 and 7", won, busy)
	}
}

func testLeaseExpiry(t *testing.T, open func() session.Store) {
	s := open()
	create(t, s, "c1")
	short := 300 * time.Millisecond
	if _, err := s.Acquire(ctx, "c1", "host-a", short); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "c1", "host-a", ev("run-a", "agentfootprint.agent.turn_start", 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Acquire(ctx, "c1", "host-b", ttl); !errors.Is(err, session.ErrBusy) {
		t.Fatalf("Acquire before expiry: %v, want ErrBusy", err)
	}
	// host-a keeps its lease alive by renewing it...
	time.Sleep(short / 2)
	if err := s.Renew(ctx, "c1", "host-a", short); err != nil {
		t.Fatal(err)
	}
	time.Sleep(short / 2)
	if _, err := s.Acquire(ctx, "c1", "host-b", ttl); !errors.Is(err, session.ErrBusy) {
		t.Fatalf("Acquire after a renewal: %v, want ErrBusy", err)
	}
	// ...then stops (a host that died), and the lease runs out.
	time.Sleep(short + 200*time.Millisecond)
	l, err := s.Acquire(ctx, "c1", "host-b", ttl)
	if err != nil {
		t.Fatalf("Acquire after expiry: %v", err)
	}
	if d := cmp.Diff(&session.Abandoned{Owner: "host-a", RunID: "run-a"}, l.Abandoned); d != "" {
		t.Errorf("Abandoned (-want +got):\n%s", d)
	}
	if l.Owner != "host-b" || l.RunID != "" {
		t.Errorf("lease = %+v", l)
	}
	if _, err := s.Append(ctx, "c1", "host-a", ev("run-a", "late", 1)); !errors.Is(err, session.ErrLeaseLost) {
		t.Errorf("the old owner's Append: %v, want ErrLeaseLost", err)
	}
	if err := s.Renew(ctx, "c1", "host-a", ttl); !errors.Is(err, session.ErrLeaseLost) {
		t.Errorf("the old owner's Renew: %v, want ErrLeaseLost", err)
	}
	if _, err := s.Release(ctx, "c1", "host-a", session.End{Checkpoint: json.RawMessage(`{"stale":true}`), State: session.StateIdle}); !errors.Is(err, session.ErrLeaseLost) {
		t.Errorf("the old owner's Release: %v, want ErrLeaseLost", err)
	}
	failed := ev("run-a", "turn_failed", 1)
	if _, err := s.Release(ctx, "c1", "host-b", session.End{State: session.StateIdle, Turn: true, Event: &failed}); err != nil {
		t.Fatal(err)
	}
	evs, err := s.Events(ctx, "c1", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[0].Type != "agentfootprint.agent.turn_start" || evs[1].Type != "turn_failed" {
		t.Errorf("log after the takeover: %+v", evs)
	}
	if c := mustGet(t, s, "c1"); string(c.Checkpoint) != `{"v":0}` || c.Turns != 1 {
		t.Errorf("the stale owner's checkpoint got in, or the failed turn was not counted: %+v", briefOf(c))
	}
}

func testTwoHosts(t *testing.T, open func() session.Store) {
	a, b := open(), open()
	create(t, a, "c1")
	if c := mustGet(t, b, "c1"); c.Agent != "demo" {
		t.Fatalf("host b reads %+v", briefOf(c))
	}
	if _, err := b.Acquire(ctx, "c1", "host-b", ttl); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Acquire(ctx, "c1", "host-a", ttl); !errors.Is(err, session.ErrBusy) {
		t.Errorf("host a during host b's turn: %v, want ErrBusy", err)
	}
	if _, err := b.Append(ctx, "c1", "host-b", ev("run-b", "agentfootprint.agent.turn_start", 0)); err != nil {
		t.Fatal(err)
	}
	evs, err := a.Events(ctx, "c1", 0, 0)
	if err != nil || len(evs) != 1 || evs[0].RunID != "run-b" {
		t.Errorf("host a reads host b's event: %+v, %v", evs, err)
	}
	if _, err := b.Release(ctx, "c1", "host-b", session.End{Checkpoint: json.RawMessage(`{"by":"b"}`), State: session.StateIdle, Turn: true}); err != nil {
		t.Fatal(err)
	}
	seqs := turn(t, a, "c1", "host-a", "run-a", 1, session.StateIdle, `{"by":"a"}`)
	if d := cmp.Diff([]int64{2, 3}, seqs); d != "" {
		t.Errorf("host a continues the sequence (-want +got):\n%s", d)
	}
	if c := mustGet(t, b, "c1"); string(c.Checkpoint) != `{"by":"a"}` || c.Turns != 2 {
		t.Errorf("host b reads %+v", briefOf(c))
	}
}

func testRefusals(t *testing.T, open func() session.Store) {
	s := open()
	if err := s.Create(ctx, &session.Conversation{Agent: "demo", Checkpoint: json.RawMessage(`{}`)}); err == nil {
		t.Error("Create without an id was accepted")
	}
	if err := s.Create(ctx, &session.Conversation{ID: "x", Agent: "demo"}); err == nil {
		t.Error("Create without a checkpoint was accepted")
	}
	if _, err := s.Acquire(ctx, "nope", "h", ttl); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Acquire(nope): %v, want ErrNotFound", err)
	}
	create(t, s, "c1")
	if _, err := s.Acquire(ctx, "c1", "h", ttl); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Release(ctx, "c1", "h", session.End{State: "running"}); err == nil {
		t.Error("Release with state running was accepted")
	}
	if _, err := s.Append(ctx, "c1", "h", session.Event{}); err == nil {
		t.Error("Append of an event without a type was accepted")
	}
	s.Close()
	if _, err := s.Get(ctx, "c1"); !errors.Is(err, session.ErrClosed) {
		t.Errorf("Get after Close: %v, want ErrClosed", err)
	}
}
