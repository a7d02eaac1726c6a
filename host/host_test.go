// This file tests the handler through httptest: every endpoint, both response forms of a
// turn, replay and resume of event streams, the refusals, a client that hangs up, and a
// conversation taken over from a host that stopped mid-turn.

package host_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/host"
	"github.com/agentfootprint/agentfootprint-go/host/session"
	sessionsqlite "github.com/agentfootprint/agentfootprint-go/host/session/sqlite"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

// tokenModel answers from the request alone: for "<tok> restart" it asks for
// restart_service (a check-in: the turn pauses for the person's consent), for "<tok> wait"
// it calls slow_status (which blocks until the test lets it go), otherwise service_status;
// after the tool it answers "<tok>: <the tool's result>".
func tokenModel() *scripted.Provider {
	return scripted.Func(func(req *llm.Request, _ int, _ int64) scripted.Reply {
		var user string
		for _, m := range req.Messages {
			if m.Role == llm.RoleUser {
				user = m.Content
			}
		}
		tok, verb, _ := strings.Cut(user, " ")
		last := req.Messages[len(req.Messages)-1]
		if last.Role == llm.RoleUser {
			args := json.RawMessage(`{"service":"` + tok + `"}`)
			name := map[string]string{"restart": "restart_service", "wait": "slow_status"}[verb]
			if name == "" {
				name = "service_status"
			}
			return scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c-" + tok, Name: name, Args: args}}}
		}
		return scripted.Reply{Content: tok + ": " + last.Content}
	})
}

type statusIn struct {
	Service string `json:"service" jsonschema:"the service"`
}

// gate blocks slow_status until released.
type gate struct {
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func newGate() *gate { return &gate{started: make(chan struct{}, 16), release: make(chan struct{})} }

func (g *gate) open() { g.once.Do(func() { close(g.release) }) }

func testAgent(t testing.TB, g *gate) *agent.Agent {
	t.Helper()
	status := tool.Must(tool.New("service_status", "Report a service's health.",
		func(ctx context.Context, in statusIn) (string, error) { return in.Service + " is healthy", nil }))
	restart := tool.Must(tool.New("restart_service", "Restart a service.",
		func(ctx context.Context, in statusIn) (string, error) { return "restarted " + in.Service, nil },
		tool.WithCheckIn(func(json.RawMessage) bool { return true })))
	slow := tool.Must(tool.New("slow_status", "Report a service's health, slowly.",
		func(ctx context.Context, in statusIn) (string, error) {
			g.started <- struct{}{}
			select {
			case <-g.release:
				return in.Service + " is healthy at last", nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}))
	a, err := agent.New(tokenModel(), agent.WithID("ops"), agent.WithTools(status, restart, slow))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

type fixture struct {
	url  string
	h    *host.Host
	gate *gate
	path string
}

// newHost serves a fresh host over one SQLite file (path "" makes one).
func newHost(t testing.TB, path string, opts ...host.Option) *fixture {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "host.db")
	}
	ss, err := sessionsqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return serveOn(t, ss, rs, path, opts...)
}

// serveOn serves a fresh host over the given stores.
func serveOn(t testing.TB, ss session.Store, rs store.Store, path string, opts ...host.Option) *fixture {
	t.Helper()
	g := newGate()
	base := []host.Option{host.WithAgent("ops", testAgent(t, g)), host.WithSessions(ss), host.WithRuns(rs), host.WithTiming(host.Timing{Poll: 20 * time.Millisecond})}
	h, err := host.New(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		g.open()
		srv.Close()
		h.Close()
		ss.Close()
		rs.Close()
	})
	return &fixture{url: srv.URL, h: h, gate: g, path: path}
}

func do(t testing.TB, method, url, body string, hdr ...string) (int, []byte) {
	t.Helper()
	// Errors, not Fatal: do runs on the tests' goroutines too.
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Error(err)
		return 0, nil
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return 0, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func decode[T any](t testing.TB, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Errorf("decoding %s: %v", b, err)
	}
	return v
}

func (f *fixture) create(t testing.TB) string {
	t.Helper()
	code, b := do(t, "POST", f.url+"/v1/conversations", `{}`)
	if code != http.StatusCreated {
		t.Errorf("create: %d %s", code, b)
	}
	return decode[struct{ ID string }](t, b).ID
}

type errBody struct {
	Error host.ErrorBody `json:"error"`
}

func TestTurnAndRuns(t *testing.T) {
	f := newHost(t, "")
	id := f.create(t)
	code, b := do(t, "POST", f.url+"/v1/conversations/"+id+"/turns", `{"message":"checkout status"}`)
	if code != 200 {
		t.Fatalf("turn: %d %s", code, b)
	}
	res := decode[host.Result](t, b)
	if res.Answer != "checkout: checkout is healthy" || res.Paused || res.Pending != nil || res.ConversationID != id || !strings.HasPrefix(res.RunID, "run-") {
		t.Errorf("result = %+v", res)
	}
	if res.Standing == "" || res.Reasons == nil {
		t.Errorf("standing %q, reasons %v: want a standing and a list", res.Standing, res.Reasons)
	}
	code, b = do(t, "POST", f.url+"/v1/conversations/"+id+"/turns", `{"message":"billing status"}`)
	if code != 200 || decode[host.Result](t, b).Answer != "billing: billing is healthy" {
		t.Fatalf("second turn: %d %s", code, b)
	}
	code, b = do(t, "GET", f.url+"/v1/conversations/"+id, "")
	st := decode[host.ConversationState](t, b)
	if code != 200 || st.State != "idle" || st.Turns != 2 || st.Agent != "ops" || st.Pending != nil || st.LastEventID < 4 {
		t.Errorf("state: %d %+v", code, st)
	}
	code, b = do(t, "GET", f.url+"/v1/runs?limit=1", "")
	list := decode[host.RunList](t, b)
	if code != 200 || len(list.Runs) != 1 || list.Runs[0].SessionID != id || list.Next == "" {
		t.Fatalf("runs: %d %s", code, b)
	}
	code, b = do(t, "GET", f.url+"/v1/runs?limit=5&before="+list.Next, "")
	older := decode[host.RunList](t, b)
	if code != 200 || len(older.Runs) != 1 || older.Runs[0].ID != res.RunID {
		t.Errorf("runs before %s: %d %s (want the first turn's %s)", list.Next, code, b, res.RunID)
	}
	code, b = do(t, "GET", f.url+"/v1/runs/"+res.RunID, "")
	run := decode[struct {
		RunID, SessionID, Status string
		Record                   struct{ Manifest struct{ RunID string } }
	}](t, b)
	if code != 200 || run.RunID != res.RunID || run.Status != "complete" || run.Record.Manifest.RunID != res.RunID {
		t.Errorf("run: %d %.300s", code, b)
	}
	code, b = do(t, "GET", f.url+"/v1/runs/"+res.RunID+"/explain", "")
	ch := decode[struct {
		Format string
		Answer struct{ Text string }
	}](t, b)
	if code != 200 || ch.Format == "" || ch.Answer.Text != res.Answer {
		t.Errorf("explain: %d %.300s", code, b)
	}
	if code, b := do(t, "GET", f.url+"/v1/runs/run-nope", ""); code != 404 || decode[errBody](t, b).Error.Code != "not_found" {
		t.Errorf("unknown run: %d %s", code, b)
	}
	if code, b := do(t, "GET", f.url+"/healthz", ""); code != 200 || !bytes.Contains(b, []byte(`"ok"`)) {
		t.Errorf("healthz: %d %s", code, b)
	}
}

func TestPauseAndAnswer(t *testing.T) {
	f := newHost(t, "")
	id := f.create(t)
	turns, answers := f.url+"/v1/conversations/"+id+"/turns", f.url+"/v1/conversations/"+id+"/answers"
	if code, b := do(t, "POST", answers, `{"answer":"yes"}`); code != 409 || decode[errBody](t, b).Error.Code != "not_paused" {
		t.Errorf("answer before a pause: %d %s", code, b)
	}
	code, b := do(t, "POST", turns, `{"message":"db restart"}`)
	res := decode[host.Result](t, b)
	if code != 200 || !res.Paused || res.Pending == nil || res.Pending.ToolName != "restart_service" || res.Answer != "" {
		t.Fatalf("pausing turn: %d %s", code, b)
	}
	if code, b := do(t, "POST", turns, `{"message":"db status"}`); code != 409 || decode[errBody](t, b).Error.Code != "paused" {
		t.Errorf("turn while paused: %d %s", code, b)
	}
	code, b = do(t, "GET", f.url+"/v1/conversations/"+id, "")
	if st := decode[host.ConversationState](t, b); code != 200 || st.State != "paused" || st.Pending == nil || st.Pending.Kind != agent.PauseCheckIn {
		t.Errorf("paused state: %s", b)
	}
	code, b = do(t, "POST", answers, `{"answer":"yes"}`)
	if res := decode[host.Result](t, b); code != 200 || res.Answer != "db: restarted db" || res.Paused {
		t.Fatalf("answer: %d %s", code, b)
	}
	if code, b := do(t, "POST", answers, `{}`); code != 400 || decode[errBody](t, b).Error.Field != "answer" {
		t.Errorf("answer without an answer: %d %s", code, b)
	}
	// A question can be dropped instead: the next turn says so and goes on.
	code, b = do(t, "POST", turns, `{"message":"web restart"}`)
	paused := decode[host.Result](t, b)
	if code != 200 || !paused.Paused {
		t.Fatalf("second pause: %d %s", code, b)
	}
	code, b = do(t, "POST", turns, `{"message":"web status","abandonPause":true}`)
	res = decode[host.Result](t, b)
	if code != 200 || res.Answer != "web: web is healthy" || res.Paused {
		t.Fatalf("turn dropping the question: %d %s", code, b)
	}
	_, b = do(t, "GET", f.url+"/v1/runs/"+res.RunID, "")
	run := decode[struct {
		Record struct {
			Manifest struct{ AbandonedPause string }
		}
	}](t, b)
	if run.Record.Manifest.AbandonedPause != paused.RunID {
		t.Errorf("the new turn's record names abandoned pause %q, want %q", run.Record.Manifest.AbandonedPause, paused.RunID)
	}
}

// frame is one parsed server-sent event.
type frame struct {
	ID    int64
	Event string
	Data  string
}

// readFrames reads frames from r until stop says so or the stream ends.
func readFrames(t testing.TB, r io.Reader, stop func(frame) bool) []frame {
	t.Helper()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	var out []frame
	var cur frame
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Event == "" && cur.Data == "" {
				continue
			}
			out = append(out, cur)
			if stop != nil && stop(cur) {
				return out
			}
			cur = frame{}
		case strings.HasPrefix(line, "id: "):
			cur.ID, _ = strconv.ParseInt(line[4:], 10, 64)
		case strings.HasPrefix(line, "event: "):
			cur.Event = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.Data += line[6:]
		}
	}
	return out
}

func stream(t testing.TB, ctx context.Context, method, url, body string, hdr ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("stream %s: %d %s %s", url, resp.StatusCode, ct, b)
	}
	return resp
}

func isResult(f frame) bool { return f.Event == host.EventResult }

func TestTurnAsStream(t *testing.T) {
	f := newHost(t, "")
	id := f.create(t)
	resp := stream(t, context.Background(), "POST", f.url+"/v1/conversations/"+id+"/turns", `{"message":"api status"}`)
	frames := readFrames(t, resp.Body, nil) // the stream ends after the result
	resp.Body.Close()
	if len(frames) < 3 {
		t.Fatalf("frames: %+v", frames)
	}
	last := frames[len(frames)-1]
	if last.Event != host.EventResult {
		t.Fatalf("the stream ends with %q, want result", last.Event)
	}
	if res := decode[host.Result](t, []byte(last.Data)); res.Answer != "api: api is healthy" {
		t.Errorf("result event: %s", last.Data)
	}
	var names []string
	for i, fr := range frames {
		if fr.ID != int64(i+1) {
			t.Errorf("frame %d has id %d, want %d", i, fr.ID, i+1)
		}
		names = append(names, fr.Event)
		if fr.Event != host.EventResult {
			ev := decode[struct {
				Type string
				Meta struct{ RunID string }
			}](t, []byte(fr.Data))
			if ev.Type != fr.Event || ev.Meta.RunID == "" {
				t.Errorf("frame %d data %s", i, fr.Data)
			}
		}
	}
	for _, want := range []string{"agentfootprint.agent.turn_start", "agentfootprint.tools.result", "agentfootprint.agent.turn_end"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("no %s in %v", want, names)
		}
	}
}

// TestEventsResume: a replay after N, then a reconnect with Last-Event-ID, together give
// every event of the log exactly once, and the live tail delivers a later turn's events.
func TestEventsResume(t *testing.T) {
	f := newHost(t, "")
	id := f.create(t)
	do(t, "POST", f.url+"/v1/conversations/"+id+"/turns", `{"message":"a status"}`)
	_, b := do(t, "GET", f.url+"/v1/conversations/"+id, "")
	total := decode[host.ConversationState](t, b).LastEventID

	ctx, cancel := context.WithCancel(context.Background())
	resp := stream(t, ctx, "GET", f.url+"/v1/conversations/"+id+"/events?after=0", "")
	first := readFrames(t, resp.Body, func(fr frame) bool { return fr.ID == 3 })
	cancel() // the connection drops after event 3
	resp.Body.Close()

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	resp = stream(t, ctx, "GET", f.url+"/v1/conversations/"+id+"/events?after=0", "", "Last-Event-ID", "3")
	defer resp.Body.Close()
	// While this stream tails, a second turn runs; its events arrive live.
	go do(t, "POST", f.url+"/v1/conversations/"+id+"/turns", `{"message":"b status"}`)
	results := 0
	rest := readFrames(t, resp.Body, func(fr frame) bool {
		if isResult(fr) {
			results++
		}
		return results == 2
	})
	var got []int64
	for _, fr := range append(first, rest...) {
		got = append(got, fr.ID)
	}
	var want []int64
	for i := int64(1); i <= int64(len(got)); i++ {
		want = append(want, i)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("event ids over the reconnect (-want +got):\n%s", d)
	}
	if int64(len(got)) <= total {
		t.Errorf("got %d events, the first turn alone left %d", len(got), total)
	}
	if code, b := do(t, "GET", f.url+"/v1/conversations/"+id+"/events?after=x", ""); code != 400 || decode[errBody](t, b).Error.Field != "after" {
		t.Errorf("after=x: %d %s", code, b)
	}
}

// waitState polls the conversation until pred holds.
func waitState(t testing.TB, url string, pred func(host.ConversationState) bool) host.ConversationState {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, b := do(t, "GET", url, "")
		st := decode[host.ConversationState](t, b)
		if pred(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the conversation never reached the state wanted; last %s", b)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestConcurrentTurnAndHangUp: a second turn while one runs gets 409; the client of the
// first hangs up and the turn still ends, with its result saved.
func TestConcurrentTurnAndHangUp(t *testing.T) {
	f := newHost(t, "")
	id := f.create(t)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", f.url+"/v1/conversations/"+id+"/turns", strings.NewReader(`{"message":"x wait"}`))
	errc := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	<-f.gate.started
	st := waitState(t, f.url+"/v1/conversations/"+id, func(s host.ConversationState) bool { return s.State == "running" })
	if !strings.HasPrefix(st.RunID, "run-") {
		t.Errorf("running without its run id: %+v", st)
	}
	code, b := do(t, "POST", f.url+"/v1/conversations/"+id+"/turns", `{"message":"y status"}`)
	if code != 409 || decode[errBody](t, b).Error.Code != "turn_in_flight" {
		t.Errorf("concurrent turn: %d %s", code, b)
	}
	cancel()
	if err := <-errc; err == nil {
		t.Error("the cancelled request returned normally")
	}
	f.gate.open()
	st = waitState(t, f.url+"/v1/conversations/"+id, func(s host.ConversationState) bool { return s.Turns == 1 && s.State == "idle" })
	resp := stream(t, context.Background(), "GET", f.url+"/v1/conversations/"+id+"/events", "")
	frames := readFrames(t, resp.Body, isResult)
	resp.Body.Close()
	res := decode[host.Result](t, []byte(frames[len(frames)-1].Data))
	if res.Answer != "x: x is healthy at last" {
		t.Errorf("the turn whose client left ended with %+v", res)
	}
}

func TestRefusals(t *testing.T) {
	f := newHost(t, "", host.WithMaxBody(256))
	id := f.create(t)
	turns := f.url + "/v1/conversations/" + id + "/turns"
	cases := []struct {
		name, method, url, body string
		code                    int
		errCode, field          string
	}{
		{"not JSON", "POST", turns, `{"message":`, 400, "bad_request", ""},
		{"unknown field", "POST", turns, `{"message":"a","mesage":"b"}`, 400, "bad_request", "mesage"},
		{"wrong type", "POST", turns, `{"message":7}`, 400, "bad_request", "message"},
		{"empty message", "POST", turns, `{"message":" "}`, 400, "bad_request", "message"},
		{"no body", "POST", turns, ``, 400, "bad_request", ""},
		{"two values", "POST", turns, `{"message":"a"} {}`, 400, "bad_request", ""},
		{"too large", "POST", turns, `{"message":"` + strings.Repeat("x", 300) + `"}`, 413, "too_large", ""},
		{"bad zone", "POST", turns, `{"message":"a status","time":{"now":"2026-12-01T10:00:00Z","zone":"Mars/Olympus"}}`, 400, "bad_request", "time.zone"},
		{"time without the time layer", "POST", turns, `{"message":"a status","time":{"now":"2026-12-01T10:00:00Z"}}`, 400, "bad_request", "time"},
		{"unknown conversation", "POST", f.url + "/v1/conversations/conv-nope/turns", `{"message":"a"}`, 404, "not_found", ""},
		{"unknown agent", "POST", f.url + "/v1/conversations", `{"agent":"billing"}`, 400, "bad_request", "agent"},
		{"unknown endpoint", "GET", f.url + "/v2/things", ``, 404, "not_found", ""},
		{"wrong method", "DELETE", f.url + "/v1/conversations/" + id, ``, 405, "method_not_allowed", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, b := do(t, tc.method, tc.url, tc.body)
			if code != tc.code {
				t.Fatalf("%d %s, want %d", code, b, tc.code)
			}
			if tc.errCode == "" {
				return
			}
			e := decode[errBody](t, b).Error
			if e.Code != tc.errCode || e.Field != tc.field || e.Message == "" {
				t.Errorf("error %+v, want code %s field %q", e, tc.errCode, tc.field)
			}
		})
	}
}

func TestToken(t *testing.T) {
	f := newHost(t, "", host.WithToken("s3cret"))
	if code, _ := do(t, "GET", f.url+"/healthz", ""); code != 200 {
		t.Errorf("healthz without a token: %d", code)
	}
	for _, auth := range []string{"", "Bearer wrong", "s3cret", "Bearer s3cret2"} {
		code, b := do(t, "POST", f.url+"/v1/conversations", `{}`, "Authorization", auth)
		if code != 401 || decode[errBody](t, b).Error.Code != "unauthorized" {
			t.Errorf("Authorization %q: %d %s", auth, code, b)
		}
	}
	if code, b := do(t, "POST", f.url+"/v1/conversations", `{}`, "Authorization", "Bearer s3cret"); code != 201 {
		t.Errorf("with the token: %d %s", code, b)
	}
}

// TestTakeover: a host that stopped mid-turn (its lease taken by hand here, with an event
// of its run appended) holds the conversation until the lease expires; the next host then
// marks that turn failed, keeps its events, and runs the new turn.
func TestTakeover(t *testing.T) {
	f := newHost(t, "", host.WithTiming(host.Timing{Lease: 300 * time.Millisecond}))
	id := f.create(t)
	ss, err := sessionsqlite.Open(context.Background(), f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	ctx := context.Background()
	if _, err := ss.Acquire(ctx, id, "host-dead", 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if _, err := ss.Append(ctx, id, "host-dead", session.Event{RunID: "run-dead", Type: "agentfootprint.agent.turn_start", Data: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	turns := f.url + "/v1/conversations/" + id + "/turns"
	if code, b := do(t, "POST", turns, `{"message":"a status"}`); code != 409 {
		t.Fatalf("during the dead host's lease: %d %s", code, b)
	}
	time.Sleep(400 * time.Millisecond)
	code, b := do(t, "POST", turns, `{"message":"a status"}`)
	if code != 200 || decode[host.Result](t, b).Answer != "a: a is healthy" {
		t.Fatalf("after the lease expired: %d %s", code, b)
	}
	evs, err := ss.Events(ctx, id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) < 3 || evs[0].RunID != "run-dead" || evs[1].Type != host.EventTurnFailed {
		t.Fatalf("log: %+v", evs)
	}
	failed := decode[host.TurnFailed](t, evs[1].Data)
	if d := cmp.Diff(host.TurnFailed{RunID: "run-dead", Host: "host-dead", Reason: failed.Reason}, failed); d != "" || failed.Reason == "" {
		t.Errorf("turn_failed (-want +got):\n%s", d)
	}
	// The dead host, come back, writes nothing more.
	if _, err := ss.Append(ctx, id, "host-dead", session.Event{Type: "late", Data: json.RawMessage(`{}`)}); err == nil {
		t.Error("the old owner could still append")
	}
}

// TestConversationsConcurrent: many conversations through one host at once keep their own
// events and answers (the first-event gate places each run).
func TestConversationsConcurrent(t *testing.T) {
	f := newHost(t, "")
	const n = 12
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id := f.create(t)
			tok := fmt.Sprintf("svc%d", i)
			code, b := do(t, "POST", f.url+"/v1/conversations/"+id+"/turns", `{"message":"`+tok+` status"}`)
			if code != 200 || decode[host.Result](t, b).Answer != tok+": "+tok+" is healthy" {
				t.Errorf("%s: %d %s", tok, code, b)
				return
			}
			resp := stream(t, context.Background(), "GET", f.url+"/v1/conversations/"+id+"/events", "")
			frames := readFrames(t, resp.Body, isResult)
			resp.Body.Close()
			runs := map[string]bool{}
			for _, fr := range frames[:len(frames)-1] {
				runs[decode[struct{ Meta struct{ RunID string } }](t, []byte(fr.Data)).Meta.RunID] = true
			}
			res := decode[host.Result](t, []byte(frames[len(frames)-1].Data))
			if len(runs) != 1 || !runs[res.RunID] {
				t.Errorf("%s: events of runs %v, result of %s", tok, runs, res.RunID)
			}
		})
	}
	wg.Wait()
}

func TestShutdownDrains(t *testing.T) {
	f := newHost(t, "")
	id := f.create(t)
	done := make(chan []byte, 1)
	go func() {
		_, b := do(t, "POST", f.url+"/v1/conversations/"+id+"/turns", `{"message":"z wait"}`)
		done <- b
	}()
	<-f.gate.started
	shut := make(chan error, 1)
	go func() { shut <- f.h.Shutdown(context.Background()) }()
	waitHealth := time.Now().Add(5 * time.Second)
	for {
		code, _ := do(t, "GET", f.url+"/healthz", "")
		if code == 503 {
			break
		}
		if time.Now().After(waitHealth) {
			t.Fatal("healthz never said draining")
		}
		time.Sleep(5 * time.Millisecond)
	}
	other := f.create(t)
	if code, b := do(t, "POST", f.url+"/v1/conversations/"+other+"/turns", `{"message":"a status"}`); code != 503 || decode[errBody](t, b).Error.Code != "draining" {
		t.Errorf("a turn during the drain: %d %s", code, b)
	}
	f.gate.open()
	if res := decode[host.Result](t, <-done); res.Answer != "z: z is healthy at last" {
		t.Errorf("the turn in flight during the drain: %+v", res)
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
}

func TestNewRefuses(t *testing.T) {
	if _, err := host.New(); err == nil {
		t.Error("New without an agent was accepted")
	}
	if _, err := host.New(host.WithAgent("ops", testAgent(t, newGate()))); err == nil || !strings.Contains(err.Error(), "session") {
		t.Errorf("New without a session store: %v", err)
	}
	if _, err := host.New(host.WithMaxBody(0)); err == nil {
		t.Error("WithMaxBody(0) was accepted")
	}
}

// TestLensSeam: a handler given WithLens answers GET /lens/ and /lens/{run}, sees the whole
// path (as lens.NewHandler routes it), and sits behind the token like every other endpoint.
func TestLensSeam(t *testing.T) {
	lens := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "lens saw %s", r.URL.Path)
	})
	f := newHost(t, "", host.WithLens(lens), host.WithToken("lens-token"))
	for path, want := range map[string]string{"/lens/": "lens saw /lens/", "/lens/run-abc": "lens saw /lens/run-abc"} {
		code, b := do(t, "GET", f.url+path, "", "Authorization", "Bearer lens-token")
		if code != 200 || string(b) != want {
			t.Errorf("GET %s: %d %q, want %q", path, code, b, want)
		}
		if code, _ := do(t, "GET", f.url+path, ""); code != 401 {
			t.Errorf("GET %s without the token: %d, want 401", path, code)
		}
	}
	g := newHost(t, "")
	if code, _ := do(t, "GET", g.url+"/lens/", ""); code != 404 {
		t.Errorf("GET /lens/ on a host without lens: %d, want 404", code)
	}
}

// TestShutdownCancelsAfterTheDrain: a turn still running when the drain ends is cancelled;
// its conversation is saved free, with a failed result event and the failed run's record.
func TestShutdownCancelsAfterTheDrain(t *testing.T) {
	f := newHost(t, "")
	id := f.create(t)
	go func() {
		if resp, err := http.Post(f.url+"/v1/conversations/"+id+"/turns", "application/json", strings.NewReader(`{"message":"q wait"}`)); err == nil {
			resp.Body.Close()
		}
	}()
	<-f.gate.started
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := f.h.Shutdown(ctx); err != context.DeadlineExceeded {
		t.Errorf("Shutdown = %v, want the drain's deadline", err)
	}
	ss, err := sessionsqlite.Open(context.Background(), f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	c, err := ss.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if c.Owner != "" || c.State != session.StateIdle || c.Turns != 1 {
		t.Errorf("after the drain: owner %q state %s turns %d", c.Owner, c.State, c.Turns)
	}
	evs, err := ss.Events(context.Background(), id, 0, 0)
	if err != nil || len(evs) == 0 {
		t.Fatal(evs, err)
	}
	last := evs[len(evs)-1]
	res := decode[host.Result](t, last.Data)
	if last.Type != host.EventResult || res.Error == nil || res.Error.Code != "turn_failed" || res.RunID == "" {
		t.Fatalf("last event %s %s", last.Type, last.Data)
	}
	rs, err := sqlite.Open(context.Background(), f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	run, err := rs.GetRun(context.Background(), res.RunID)
	if err != nil || run.Status != store.StatusFailed {
		t.Errorf("the cancelled turn's run: %v %v", run, err)
	}
}
