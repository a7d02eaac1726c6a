// Tests that the conversations of one Agent are independent when they run,
// pause and resume concurrently, and that a Conversation refuses bad input
// by name while losing nothing it holds.

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

// tokenModel replies from the request alone, so concurrent conversations
// sharing it get distinguishable answers. The person's message is
// "<token> restart" or "<token> status": the first model call asks for the
// matching tool on service <token> (call id "<r|s>-<token>"), the second
// answers "<token>: " followed by the tool's result.
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
			if verb == "restart" {
				return scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "r-" + tok, Name: "restart_service", Args: args}}}
			}
			return scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "s-" + tok, Name: "service_status", Args: args}}}
		}
		return scripted.Reply{Content: tok + ": " + last.Content}
	})
}

// restartTool restarts a service once the person consents (a check-in on
// every call) and counts what it restarted.
func restartTool(t testing.TB, c *counter) *tool.Tool {
	t.Helper()
	return tool.Must(tool.New("restart_service", "Restart a service.",
		func(ctx context.Context, in statusIn) (string, error) {
			c.Add("restart:" + in.Service)
			return "restarted " + in.Service, nil
		}, tool.WithCheckIn(func(json.RawMessage) bool { return true })))
}

// TestConversationsConcurrent runs 50 conversations of one Agent at once:
// the even ones pause on a check-in and are resumed later, in reverse
// order, from other goroutines (every fourth after a trip through
// Checkpoint and LoadConversation); the odd ones complete. Each ends with
// its own answer, history and record, and no conversation ever shows
// another's pause.
func TestConversationsConcurrent(t *testing.T) {
	const n = 50
	var ran counter
	a, err := agent.New(tokenModel(), agent.WithTools(restartTool(t, &ran), statusTool(t, &ran)))
	if err != nil {
		t.Fatal(err)
	}
	token := func(i int) string { return fmt.Sprintf("k%02d", i) }
	pauses := func(i int) bool { return i%2 == 0 }

	convs := make([]*agent.Conversation, n)
	first := make([]*agent.Result, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conv := a.NewConversation()
			verb := "status"
			if pauses(i) {
				verb = "restart"
			}
			res, err := conv.Send(context.Background(), agent.Input{Message: token(i) + " " + verb})
			if err != nil {
				t.Errorf("conversation %d: %v", i, err)
				return
			}
			convs[i], first[i] = conv, res
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	// ownPause checks that conversation i waits on its own call, or on
	// nothing once it is done.
	ownPause := func(i int, conv *agent.Conversation) {
		pi := conv.Pending()
		if pi == nil {
			return
		}
		if !pauses(i) || pi.ToolCallID != "r-"+token(i) {
			t.Errorf("conversation %d shows the pause of call %s", i, pi.ToolCallID)
			return
		}
		// Compared as JSON: a loaded pause's data comes back as decoded
		// JSON, not as the agent.CheckInRequest it was written from.
		var got any
		if err := json.Unmarshal([]byte(mustJSON(t, pi.Data)), &got); err != nil {
			t.Error(err)
		}
		want := map[string]any{"toolName": "restart_service", "args": map[string]any{"service": token(i)}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("conversation %d pause data (-want +got):\n%s", i, diff)
		}
	}
	runIDs := map[string]int{}
	for i, res := range first {
		if prev, dup := runIDs[res.RunID]; dup || res.RunID == "" {
			t.Errorf("conversations %d and %d share run id %q", prev, i, res.RunID)
		}
		runIDs[res.RunID] = i
		if pauses(i) {
			if !res.Paused || res.PauseData == nil || res.PauseData.ToolCallID != "r-"+token(i) || res.Answer != "" {
				t.Errorf("conversation %d: paused=%v pause=%+v answer=%q", i, res.Paused, res.PauseData, res.Answer)
			}
			if convs[i].Pending() == nil {
				t.Errorf("conversation %d does not wait", i)
			}
			ownPause(i, convs[i])
			continue
		}
		want := token(i) + ": " + token(i) + " is degraded: error rate 12%"
		if res.Paused || res.Answer != want || convs[i].Pending() != nil {
			t.Errorf("conversation %d: paused=%v answer=%q, want %q", i, res.Paused, res.Answer, want)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// Resume the paused ones in reverse order, each from its own goroutine,
	// while a watcher keeps reading every conversation's Pending.
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			select {
			case <-stop:
				return
			default:
			}
			for i, conv := range convs {
				ownPause(i, conv)
			}
			runtime.Gosched()
		}
	}()
	final := make([]*agent.Result, n)
	for i := n - 1; i >= 0; i-- {
		if !pauses(i) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			conv := convs[i]
			if i%4 == 0 {
				b, err := conv.Checkpoint()
				if err != nil {
					t.Errorf("conversation %d: Checkpoint: %v", i, err)
					return
				}
				if conv, err = a.LoadConversation(b); err != nil {
					t.Errorf("conversation %d: LoadConversation: %v", i, err)
					return
				}
				ownPause(i, conv)
			}
			res, err := conv.Resume(context.Background(), json.RawMessage(`"yes"`))
			if err != nil {
				t.Errorf("conversation %d: Resume: %v", i, err)
				return
			}
			if pi := conv.Pending(); pi != nil {
				t.Errorf("conversation %d still waits on %s", i, pi.ToolCallID)
			}
			final[i] = res
		}()
	}
	wg.Wait()
	close(stop)
	<-watched

	var wantRan []string
	for i := range n {
		res := final[i]
		if !pauses(i) {
			res = first[i]
			wantRan = append(wantRan, "status:"+token(i))
		} else {
			wantRan = append(wantRan, "restart:"+token(i))
		}
		if res == nil {
			continue // reported above
		}
		if pauses(i) {
			want := token(i) + ": restarted " + token(i)
			if res.Paused || res.Answer != want {
				t.Errorf("conversation %d after resume: paused=%v answer=%q, want %q", i, res.Paused, res.Answer, want)
			}
			legs := res.Record.Manifest.Legs
			if len(legs) != 2 || legs[0].RunID != first[i].RunID || legs[1].ResumedFrom != first[i].RunID {
				t.Errorf("conversation %d legs = %+v, want the second resuming %s", i, legs, first[i].RunID)
			}
			if prev, dup := runIDs[res.RunID]; dup && prev != i {
				t.Errorf("conversation %d's resumed run id %q belongs to conversation %d", i, res.RunID, prev)
			}
		} else if legs := res.Record.Manifest.Legs; len(legs) != 1 || legs[0].RunID != res.RunID {
			t.Errorf("conversation %d legs = %+v", i, legs)
		}
		if !res.Record.Manifest.Complete || res.Record.Manifest.RunID != res.RunID {
			t.Errorf("conversation %d record: complete=%v runId=%q, want %q", i, res.Record.Manifest.Complete, res.Record.Manifest.RunID, res.RunID)
		}
		// The history holds this conversation's messages and calls only.
		for _, m := range res.History {
			switch {
			case m.Role == llm.RoleUser && !strings.HasPrefix(m.Content, token(i)+" "),
				m.Role == llm.RoleTool && !strings.HasSuffix(m.ToolCallID, "-"+token(i)),
				m.Role == llm.RoleAssistant && m.Content != "" && !strings.HasPrefix(m.Content, token(i)+": "):
				t.Errorf("conversation %d holds another's message %+v", i, m)
			}
		}
		if h := res.History; len(h) != 4 {
			t.Errorf("conversation %d history has %d messages, want 4", i, len(h))
		}
	}
	got := ran.List()
	slices.Sort(got)
	slices.Sort(wantRan)
	if diff := cmp.Diff(wantRan, got); diff != "" {
		t.Errorf("tool executions (-want +got):\n%s", diff)
	}
}

// blockingTool blocks each call until release is closed, saying on started
// that it runs.
func blockingTool(started chan<- struct{}, release <-chan struct{}) *tool.Tool {
	return tool.Must(tool.New("service_status", "Report a service's health.",
		func(ctx context.Context, in statusIn) (string, error) {
			started <- struct{}{}
			select {
			case <-release:
				return in.Service + " is fine", nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}))
}

// TestConversationInFlight: while a turn runs, its conversation refuses a
// second Send, a Resume and a Checkpoint with ErrRunInFlight, and the turn
// then ends untouched; another conversation of the same agent is free.
func TestConversationInFlight(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	// Replies follow the request, since the two conversations' calls
	// interleave.
	p := scripted.Func(func(req *llm.Request, _ int, _ int64) scripted.Reply {
		switch last := req.Messages[len(req.Messages)-1]; {
		case last.Role == llm.RoleTool:
			return scripted.Reply{Content: "Checkout is fine."}
		case last.Content == "check":
			return scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"checkout"}`)}}
		default:
			return scripted.Reply{Content: "Hello from the other conversation."}
		}
	})
	a := must(agent.New(p, agent.WithTools(blockingTool(started, release))))
	conv := a.NewConversation()
	type outcome struct {
		res *agent.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := conv.Send(context.Background(), agent.Input{Message: "check"})
		done <- outcome{res, err}
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool never ran")
	}
	if _, err := conv.Send(context.Background(), agent.Input{Message: "meanwhile"}); !errors.Is(err, agent.ErrRunInFlight) {
		t.Errorf("Send in flight: %v, want ErrRunInFlight", err)
	}
	if _, err := conv.Resume(context.Background(), json.RawMessage(`"yes"`)); !errors.Is(err, agent.ErrRunInFlight) {
		t.Errorf("Resume in flight: %v, want ErrRunInFlight", err)
	}
	if b, err := conv.Checkpoint(); b != nil || !errors.Is(err, agent.ErrRunInFlight) {
		t.Errorf("Checkpoint in flight: %s %v, want ErrRunInFlight", b, err)
	}
	if pi := conv.AbandonPause(); pi != nil {
		t.Errorf("AbandonPause in flight returned %+v", pi)
	}
	other := a.NewConversation()
	if res, err := other.Send(context.Background(), agent.Input{Message: "hi"}); err != nil || res.Answer != "Hello from the other conversation." {
		t.Errorf("another conversation while one is in flight: %v %+v", err, res)
	}
	close(release)
	out := <-done
	if out.err != nil || out.res.Answer != "Checkout is fine." {
		t.Fatalf("the turn in flight: %v %+v", out.err, out.res)
	}
	if h := conv.History(); len(h) != 4 || h[3].Content != "Checkout is fine." {
		t.Errorf("history after the turn = %+v", h)
	}
	if _, err := conv.Checkpoint(); err != nil {
		t.Errorf("Checkpoint after the turn: %v", err)
	}
}

// TestConversationRefusesBadInput: Resume with nothing paused, Send while
// paused and a Resume answer that is not JSON are refused, and the
// conversation keeps its pause and history through each refusal.
func TestConversationRefusesBadInput(t *testing.T) {
	var c counter
	p := scripted.New(
		scripted.Reply{Content: "Hello."},
		scripted.Reply{ToolCalls: []llm.ToolCall{call("q1", "ask_approval", `{"action":"restart"}`)}},
		scripted.Reply{Content: "Restarting."},
	)
	a := must(agent.New(p, agent.WithTools(approvalTool(t, &c))))
	conv := a.NewConversation()
	if _, err := conv.Resume(context.Background(), json.RawMessage(`"yes"`)); !errors.Is(err, agent.ErrNotPaused) {
		t.Errorf("Resume of a new conversation: %v, want ErrNotPaused", err)
	}
	must(conv.Send(context.Background(), agent.Input{Message: "hi"}))
	if _, err := conv.Resume(context.Background(), json.RawMessage(`"yes"`)); !errors.Is(err, agent.ErrNotPaused) {
		t.Errorf("Resume after a finished turn: %v, want ErrNotPaused", err)
	}
	if pi := conv.AbandonPause(); pi != nil {
		t.Errorf("AbandonPause with nothing paused returned %+v", pi)
	}
	res := must(conv.Send(context.Background(), agent.Input{Message: "restart it"}))
	if !res.Paused {
		t.Fatalf("not paused: %+v", res)
	}
	before := must(conv.Checkpoint())
	if _, err := conv.Send(context.Background(), agent.Input{Message: "other"}); !errors.Is(err, agent.ErrPendingQuestion) {
		t.Errorf("Send while paused: %v, want ErrPendingQuestion", err)
	}
	if _, err := conv.Resume(context.Background(), json.RawMessage(`{not json`)); err == nil || !strings.Contains(err.Error(), "not a JSON value") {
		t.Errorf("Resume with a non-JSON answer: %v", err)
	}
	if diff := cmp.Diff(string(before), string(must(conv.Checkpoint()))); diff != "" {
		t.Errorf("a refusal changed the conversation (-before +after):\n%s", diff)
	}
	if p.Calls() != 2 {
		t.Errorf("the refusals reached the model: %d calls", p.Calls())
	}
	done := must(conv.Resume(context.Background(), json.RawMessage(`"approved"`)))
	if done.Answer != "Restarting." || len(done.History) != 6 {
		t.Errorf("after the refusals: answer %q, %d messages", done.Answer, len(done.History))
	}
}

// TestLoadConversationRefusals: LoadConversation refuses, naming the field,
// another agent's checkpoint, a future version, a corrupted field and bytes
// that are not JSON; a refusal returns no conversation and leaves the
// source conversation as it was.
func TestLoadConversationRefusals(t *testing.T) {
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{call("q1", "ask_approval", `{"action":"restart"}`)}})
	billing := must(agent.New(p, agent.WithID("billing"), agent.WithTools(approvalTool(t, nil))))
	support := must(agent.New(scripted.New(), agent.WithID("support"), agent.WithTools(approvalTool(t, nil))))
	conv := billing.NewConversation()
	if res := must(conv.Send(context.Background(), agent.Input{Message: "restart"})); !res.Paused {
		t.Fatal("not paused")
	}
	good := must(conv.Checkpoint())
	set := func(field, value string) []byte {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(good, &top); err != nil {
			t.Fatal(err)
		}
		top[field] = json.RawMessage(value)
		return []byte(mustJSON(t, top))
	}
	for _, tc := range []struct {
		name  string
		on    *agent.Agent
		data  []byte
		field string
	}{
		{"another agent", support, good, "agent.id"},
		{"future version", billing, set("version", "2"), "version"},
		{"corrupted history", billing, set("history", `"lost"`), "history"},
		{"corrupted message", billing, set("history", `[{"role":"tool","content":"x"}]`), "history[0].toolCallId"},
		{"corrupted time", billing, set("checkpointedAt", `"soon"`), "checkpointedAt"},
		{"corrupted pause", billing, set("pause", `{"version":1,"turn":1,"flow":"broken"}`), "pause.flow"},
		{"future pause", billing, tamperPause(t, good, func(p map[string]json.RawMessage) { p["version"] = json.RawMessage(`2`) }), "pause.version"},
		{"not JSON", billing, []byte("checkpoint, trust me"), ""},
		{"empty", billing, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			back, err := tc.on.LoadConversation(tc.data)
			var ce *agent.CheckpointError
			if back != nil || !errors.As(err, &ce) || ce.Field != tc.field {
				t.Fatalf("LoadConversation = %v, %v; want a refusal naming %q", back, err, tc.field)
			}
			if !strings.Contains(err.Error(), fmt.Sprintf("field %q", tc.field)) {
				t.Errorf("message %q does not name the field", err)
			}
		})
	}
	if string(must(conv.Checkpoint())) != string(good) || conv.Pending() == nil {
		t.Error("a refused load changed the source conversation")
	}
	// The agent a checkpoint belongs to loads it, pause included.
	back := must(billing.LoadConversation(good))
	if pi := back.Pending(); pi == nil || pi.ToolCallID != "q1" {
		t.Errorf("loaded pause = %+v", pi)
	}
}

// TestResumeLoadedMatchesInPlace: a paused conversation saved with
// Checkpoint and loaded on a fresh Agent resumes to the same answer,
// history and record (apart from the run ids) as resuming it in place.
func TestResumeLoadedMatchesInPlace(t *testing.T) {
	fixed := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	batch := scripted.Reply{ToolCalls: []llm.ToolCall{
		call("c1", "service_status", `{"service":"checkout"}`),
		call("q1", "ask_approval", `{"action":"restart checkout"}`),
		call("c2", "service_status", `{"service":"payments"}`),
	}}
	final := scripted.Reply{Content: "Approved; both checked."}
	build := func(replies ...scripted.Reply) *agent.Agent {
		return must(agent.New(scripted.New(replies...), agent.WithTools(statusTool(t, nil), approvalTool(t, nil)),
			agent.WithClock(func() time.Time { return fixed })))
	}
	pausedOn := func(a *agent.Agent) (*agent.Conversation, *agent.Result) {
		conv := a.NewConversation()
		res := must(conv.Send(context.Background(), agent.Input{Message: "fix checkout"}))
		if !res.Paused {
			t.Fatal("not paused")
		}
		return conv, res
	}
	answer := json.RawMessage(`"approved by the operator"`)

	conv, firstHere := pausedOn(build(batch, final))
	here := must(conv.Resume(context.Background(), answer))

	// The fresh agent's model picks up where the first one's stopped.
	saved, firstThere := pausedOn(build(batch))
	fresh := build(final)
	loaded := must(fresh.LoadConversation(must(saved.Checkpoint())))
	there := must(loaded.Resume(context.Background(), answer))

	if here.Answer != there.Answer || here.Iterations != there.Iterations || here.Paused || there.Paused {
		t.Errorf("in place %q after %d, loaded %q after %d", here.Answer, here.Iterations, there.Answer, there.Iterations)
	}
	if diff := cmp.Diff(here.History, there.History); diff != "" {
		t.Errorf("history (-in place +loaded):\n%s", diff)
	}
	if diff := cmp.Diff(conv.History(), loaded.History()); diff != "" {
		t.Errorf("conversation history (-in place +loaded):\n%s", diff)
	}
	// The records are the same document once each one's run ids are named
	// alike and the reply ids set aside (the fresh agent's model numbers
	// its replies from one, as a new provider session would).
	replyID := regexp.MustCompile(`"responseId":"[^"]*"`)
	norm := func(r *agent.Result, first *agent.Result) string {
		legs := r.Record.Manifest.Legs
		if len(legs) != 2 || legs[0].RunID != first.RunID || legs[1].ResumedFrom != first.RunID {
			t.Errorf("legs = %+v, want two, the second resuming %s", legs, first.RunID)
		}
		s := mustJSON(t, r.Record)
		for i, l := range legs {
			s = strings.ReplaceAll(s, l.RunID, fmt.Sprintf("RUN-%d", i))
		}
		return replyID.ReplaceAllString(s, `"responseId":"ID"`)
	}
	if diff := cmp.Diff(norm(here, firstHere), norm(there, firstThere)); diff != "" {
		t.Errorf("record (-in place +loaded):\n%s", diff)
	}
	if want := []string{"input", "seed#0", "context#1", "call-llm#2", "sf-route#3", "tool-calls#4", "tool-calls#5",
		"context#6", "call-llm#7", "sf-route#8", "prepare-final#9", "break-final#10"}; !slices.Equal(want, stageIDs(there.Record)) {
		t.Errorf("loaded resume's log = %v", stageIDs(there.Record))
	}
}

// TestResumeCancelledKeepsPause: a Resume that stops because its context
// ended, before the answer reached the record, leaves the question waiting,
// so the person's answer can be given again. (With the old API the caller
// kept the pause checkpoint and could.)
func TestResumeCancelledKeepsPause(t *testing.T) {
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("q1", "ask_approval", `{"action":"restart"}`)}},
		scripted.Reply{Content: "Restarting."},
	)
	a := must(agent.New(p, agent.WithTools(approvalTool(t, nil))))
	conv := a.NewConversation()
	must(conv.Send(context.Background(), agent.Input{Message: "restart"}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := conv.Resume(ctx, json.RawMessage(`"yes"`)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Resume: %v, want context.Canceled", err)
	}
	if pi := conv.Pending(); pi == nil || pi.ToolCallID != "q1" {
		t.Fatalf("after a cancelled Resume the conversation waits on %+v, want q1", pi)
	}
	res := must(conv.Resume(context.Background(), json.RawMessage(`"yes"`)))
	if res.Answer != "Restarting." || !slices.Equal(toolMessages(res.History), []string{"q1:yes"}) {
		t.Errorf("second Resume: %q %v", res.Answer, toolMessages(res.History))
	}
}

// TestAbandonPauseWhileResuming: while a Resume runs, AbandonPause drops
// nothing, so it must not return the pause as if it had dropped it.
func TestAbandonPauseWhileResuming(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("q1", "ask_approval", `{"action":"restart"}`), call("c1", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "Restarting."},
	)
	a := must(agent.New(p, agent.WithTools(approvalTool(t, nil), blockingTool(started, release))))
	conv := a.NewConversation()
	must(conv.Send(context.Background(), agent.Input{Message: "restart"}))
	done := make(chan error, 1)
	go func() {
		_, err := conv.Resume(context.Background(), json.RawMessage(`"yes"`))
		done <- err
	}()
	<-started
	pi := conv.AbandonPause()
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if pi != nil {
		t.Errorf("AbandonPause during a Resume returned %+v, but the resume went on", pi)
	}
}

// TestEmptyConversationCheckpoint: a conversation that has taken no turn
// saves too; loaded elsewhere, its first Send is turn 1 with no history.
func TestEmptyConversationCheckpoint(t *testing.T) {
	a := must(agent.New(scripted.New(scripted.Reply{Content: "Hello."})))
	b := must(a.NewConversation().Checkpoint())
	conv := must(a.LoadConversation(b))
	if h, pi := conv.History(), conv.Pending(); len(h) != 0 || pi != nil {
		t.Fatalf("loaded empty conversation: history %+v, pending %+v", h, pi)
	}
	res := must(conv.Send(context.Background(), agent.Input{Message: "hi"}))
	if res.Answer != "Hello." || len(res.History) != 2 || res.Record.Manifest.TurnNumber != 1 {
		t.Errorf("first turn: %q, %d messages, turn %d", res.Answer, len(res.History), res.Record.Manifest.TurnNumber)
	}
}
