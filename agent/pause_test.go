// End-to-end tests of pause and resume, conversations, cancellation and
// provider failures.

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

func TestPauseAndResume(t *testing.T) {
	var c counter
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{
			call("c1", "service_status", `{"service":"checkout"}`),
			call("c2", "ask_approval", `{"action":"restart checkout"}`),
			call("c3", "service_status", `{"service":"payments"}`),
		}},
		scripted.Reply{Content: "Restart approved; checkout and payments checked."},
	)
	a, err := agent.New(p, agent.WithTools(statusTool(t, &c), approvalTool(t, &c)))
	if err != nil {
		t.Fatal(err)
	}
	var log eventLog
	log.on(a)
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "fix checkout"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Paused || res.PauseData == nil {
		t.Fatalf("not paused: %+v", res)
	}
	if res.PauseData.ToolCallID != "c2" || res.PauseData.ToolName != "ask_approval" {
		t.Errorf("pause data = %+v", res.PauseData)
	}
	if diff := cmp.Diff(res.PauseData, conv.Pending()); diff != "" {
		t.Errorf("Pending differs from the result's pause (-result +pending):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"status:checkout", "approve:restart checkout"}, c.List()); diff != "" {
		t.Errorf("calls before the pause (-want +got):\n%s", diff)
	}
	// A new turn of this conversation is refused while the question is pending.
	if _, err := conv.Send(context.Background(), agent.Input{Message: "other"}); !errors.Is(err, agent.ErrPendingQuestion) {
		t.Errorf("Send while paused: %v, want ErrPendingQuestion", err)
	}
	// The checkpoint, pause included, survives JSON; a tampered pause is
	// refused naming its field.
	b, err := conv.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		field string
		edit  func(pause map[string]json.RawMessage)
	}{
		{"pause.flow", func(p map[string]json.RawMessage) { delete(p, "flow") }},
		{"pause.version", func(p map[string]json.RawMessage) { p["version"] = json.RawMessage(`9`) }},
		{"pause.turn", func(p map[string]json.RawMessage) { p["turn"] = json.RawMessage(`0`) }},
	} {
		var ce *agent.CheckpointError
		if back, err := a.LoadConversation(tamperPause(t, b, bad.edit)); back != nil || !errors.As(err, &ce) || ce.Field != bad.field {
			t.Errorf("LoadConversation(bad %s) = %v", bad.field, err)
		}
	}
	loaded, err := a.LoadConversation(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(conv.Pending(), loaded.Pending()); diff != "" {
		t.Errorf("the loaded pause differs (-saved +loaded):\n%s", diff)
	}
	res2, err := loaded.Resume(context.Background(), json.RawMessage(`"approved by the operator"`))
	if err != nil {
		t.Fatal(err)
	}
	if res2.Paused || res2.Answer != "Restart approved; checkout and payments checked." {
		t.Fatalf("after resume: paused=%v answer=%q", res2.Paused, res2.Answer)
	}
	// Earlier calls were not re-run; the later call ran once.
	if diff := cmp.Diff([]string{"status:checkout", "approve:restart checkout", "status:payments"}, c.List()); diff != "" {
		t.Errorf("calls after resume (-want +got):\n%s", diff)
	}
	want := []string{"c1:checkout is degraded: error rate 12%", "c2:approved by the operator", "c3:payments is degraded: error rate 12%"}
	if diff := cmp.Diff(want, toolMessages(p.Requests()[1].Messages)); diff != "" {
		t.Errorf("tool messages (-want +got):\n%s", diff)
	}
	if res2.Iterations != 2 {
		t.Errorf("iterations = %d, want 2", res2.Iterations)
	}
	if n, m := len(log.of(event.PauseRequest)), len(log.of(event.PauseResume)); n != 1 || m != 1 {
		t.Errorf("pause.request %d, pause.resume %d", n, m)
	}
	ids := stageIDs(res2.Record)
	wantIDs := []string{"input", "seed#0", "context#1", "call-llm#2", "sf-route#3", "tool-calls#4", "tool-calls#5",
		"context#6", "call-llm#7", "sf-route#8", "prepare-final#9", "break-final#10"}
	if diff := cmp.Diff(wantIDs, ids); diff != "" {
		t.Errorf("resumed log (-want +got):\n%s", diff)
	}
	if legs := res2.Record.Manifest.Legs; len(legs) != 2 || legs[1].ResumedFrom != legs[0].RunID {
		t.Errorf("legs = %+v", legs)
	}
	// The resumed record carries both legs' events and blobs and survives JSON.
	if _, err := json.Marshal(res2.Record); err != nil {
		t.Fatal(err)
	}
	if ev := res2.Record.Events.Slice(); len(ev) == 0 || ev[0].Type != event.AgentTurnStart {
		t.Errorf("resumed record events start with %v", ev)
	}
	lr := valueAt[state.LLMRequest](t, res2.Record, "call-llm#2", "llmRequest")
	if _, ok := res2.Record.Blob(lr.Request.Blob); !ok {
		t.Error("the first leg's request blob is missing from the resumed record")
	}
	// The pending question is cleared: a next turn is allowed again (it
	// reaches the model, whose script is spent), and a second Resume is
	// refused.
	if pi := loaded.Pending(); pi != nil {
		t.Errorf("still pending after the resume: %+v", pi)
	}
	if _, err := loaded.Resume(context.Background(), json.RawMessage(`"again"`)); !errors.Is(err, agent.ErrNotPaused) {
		t.Errorf("second Resume: %v, want ErrNotPaused", err)
	}
	_, err = loaded.Send(context.Background(), agent.Input{Message: "thanks"})
	var se *scripted.ScriptExhaustedError
	if !errors.As(err, &se) || se.Call != 3 {
		t.Errorf("Send after resume: %v, want the third model call", err)
	}
}

func TestConversationTurns(t *testing.T) {
	p := scripted.New(
		scripted.Reply{Content: "Checkout is degraded."},
		scripted.Reply{Content: "I said checkout."},
	)
	a, err := agent.New(p)
	if err != nil {
		t.Fatal(err)
	}
	conv := a.NewConversation()
	if h := conv.History(); h != nil {
		t.Fatalf("a new conversation has history %+v", h)
	}
	var log eventLog
	log.on(a)
	if _, err := conv.Send(context.Background(), agent.Input{Message: "What is broken?"}); err != nil {
		t.Fatal(err)
	}
	res, err := conv.Send(context.Background(), agent.Input{Message: "Which one again?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "I said checkout." {
		t.Errorf("answer = %q", res.Answer)
	}
	msgs := p.Requests()[1].Messages
	var roles []string
	for _, m := range msgs {
		roles = append(roles, string(m.Role)+":"+m.Content)
	}
	want := []string{"user:What is broken?", "assistant:Checkout is degraded.", "user:Which one again?"}
	if diff := cmp.Diff(want, roles); diff != "" {
		t.Errorf("second request (-want +got):\n%s", diff)
	}
	starts := log.of(event.AgentTurnStart)
	if len(starts) != 2 || starts[1].Payload.(event.TurnStart).TurnNumber != 2 {
		t.Errorf("turn_start = %+v", starts)
	}
	if diff := cmp.Diff(res.History, conv.History()); diff != "" {
		t.Errorf("result and conversation histories differ (-result +conversation):\n%s", diff)
	}
	cv := checkpointOf(t, conv)
	if len(cv.History) != 4 || cv.OriginalInput.Message != "Which one again?" || cv.Pause != nil {
		t.Fatalf("conversation = %+v", cv)
	}
	// A checkpoint that went through JSON continues the same way on a fresh
	// agent, and the saved bytes and the first conversation stay as they were.
	b, err := conv.Checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	saved := string(b)
	p2 := scripted.New(scripted.Reply{Content: "Third."})
	a2, _ := agent.New(p2)
	back, err := a2.LoadConversation(b)
	if err != nil {
		t.Fatal(err)
	}
	res3, err := back.Send(context.Background(), agent.Input{Message: "And now?"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p2.Requests()[0].Messages); n != 5 || res3.Answer != "Third." {
		t.Errorf("continued request has %d messages, answer %q", n, res3.Answer)
	}
	if string(b) != saved || len(conv.History()) != 4 || len(back.History()) != 6 {
		t.Errorf("continuing changed the saved conversation: %d and %d messages", len(conv.History()), len(back.History()))
	}
}

func TestCancellation(t *testing.T) {
	p := scripted.New(scripted.Reply{Content: "slow", Delay: 5 * time.Second})
	a, _ := agent.New(p)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	res, err := a.Run(ctx, agent.Input{Message: "hi"})
	if err == nil {
		t.Fatal("no error after cancellation")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
	}
	var rce *agent.RunCheckpointError
	if errors.As(err, &rce) {
		t.Error("a cancelled run is not a provider failure")
	}
	if res == nil || res.Record == nil || res.Record.Manifest.Complete {
		t.Fatal("a cancelled run must still return its (incomplete) record")
	}
	ids := stageIDs(res.Record)
	if ids[len(ids)-1] != "call-llm#2" {
		t.Errorf("last commit = %s, want the cancelled call-llm#2", ids[len(ids)-1])
	}
}

func TestProviderErrorCheckpoint(t *testing.T) {
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "service_status", `{"service":"checkout"}`)}},
		scripted.Reply{Err: &llm.Error{Provider: "scripted", Kind: llm.KindServer, Resumable: true, Message: "the provider failed on its side"}},
		scripted.Reply{Content: "Checkout is degraded."},
	)
	a, _ := agent.New(p, agent.WithTools(statusTool(t, nil)))
	var log eventLog
	log.on(a)
	conv := a.NewConversation()
	_, err := conv.Send(context.Background(), agent.Input{Message: "check"})
	if fe := log.of(event.ErrorFatal); len(fe) != 1 || fe[0].Payload.(event.ErrorFatalPayload).Stage != "call-llm" {
		t.Errorf("error.fatal events = %+v", fe)
	}
	var rce *agent.RunCheckpointError
	if !errors.As(err, &rce) {
		t.Fatalf("error %T %v, want *agent.RunCheckpointError", err, err)
	}
	if !rce.Resumable || llm.KindOf(err) != llm.KindServer {
		t.Errorf("resumable=%v kind=%s", rce.Resumable, llm.KindOf(err))
	}
	cv := decodeCheckpoint(t, rce.Checkpoint)
	if cv.LastCompletedIteration != 1 || len(cv.History) != 3 || cv.FailurePoint == nil || cv.FailurePoint.Phase != "llm" || cv.FailurePoint.Stage != "call-llm" {
		t.Errorf("checkpoint = %s", mustJSON(t, cv))
	}
	if !strings.Contains(err.Error(), "resuming from the checkpoint later may succeed") {
		t.Errorf("message %q does not say resuming can help", err)
	}
	// The conversation keeps that checkpoint: its next turn continues from
	// the last iteration boundary (the call's result is not lost).
	if diff := cmp.Diff(cv.History, conv.History()); diff != "" {
		t.Errorf("conversation history differs from the error's checkpoint (-error +conversation):\n%s", diff)
	}
	res, err := conv.Send(context.Background(), agent.Input{Message: "try again"})
	if err != nil || res.Answer != "Checkout is degraded." {
		t.Fatalf("next turn: %v %q", err, res.Answer)
	}
	msgs := p.Requests()[2].Messages
	if len(msgs) != 4 || msgs[2].Role != llm.RoleTool || msgs[3].Content != "try again" {
		t.Errorf("next turn's request = %+v", msgs)
	}
}

func TestConversationRefusals(t *testing.T) {
	good := `{"version":1,"runId":"r","history":[{"role":"user","content":"hi"}],"lastCompletedIteration":1,"originalInput":{"message":"hi"},"checkpointedAt":"2026-11-29T10:00:00Z"}`
	a, _ := agent.New(scripted.New())
	if _, err := a.LoadConversation([]byte(good)); err != nil {
		t.Fatalf("good checkpoint refused: %v", err)
	}
	for _, tc := range []struct{ name, json, field string }{
		{"version", strings.Replace(good, `"version":1`, `"version":2`, 1), "version"},
		{"missing runId", strings.Replace(good, `"runId":"r",`, ``, 1), "runId"},
		{"role", strings.Replace(good, `"role":"user"`, `"role":"robot"`, 1), "history[0].role"},
		{"time", strings.Replace(good, `2026-11-29T10:00:00Z`, `yesterday`, 1), "checkpointedAt"},
		{"unknown", strings.Replace(good, `"runId"`, `"extra":1,"runId"`, 1), "extra"},
		{"phase", strings.Replace(good, `"runId"`, `"failurePoint":{"iteration":1,"phase":"later"},"runId"`, 1), "failurePoint.phase"},
		{"ledger kind", strings.Replace(good, `"runId"`, `"findingsLedger":[{"kind":"period","turn":1,"iteration":1},{"kind":"mood","turn":1,"iteration":1}],"runId"`, 1), "findingsLedger[1].kind"},
		{"ledger turn", strings.Replace(good, `"runId"`, `"findingsLedger":[{"kind":"clock","iteration":1}],"runId"`, 1), "findingsLedger[0].turn"},
		{"ledger shape", strings.Replace(good, `"runId"`, `"findingsLedger":{"kind":"clock"},"runId"`, 1), "findingsLedger"},
		{"another agent", strings.Replace(good, `"runId"`, `"agent":{"id":"billing-bot"},"runId"`, 1), "agent.id"},
		{"agent shape", strings.Replace(good, `"runId"`, `"agent":"billing-bot","runId"`, 1), "agent"},
		{"pause shape", strings.Replace(good, `"runId"`, `"pause":[],"runId"`, 1), "pause"},
		{"pause version", strings.Replace(good, `"runId"`, `"pause":{"version":2,"turn":1},"runId"`, 1), "pause.version"},
		{"pause flow", strings.Replace(good, `"runId"`, `"pause":{"version":1,"turn":1},"runId"`, 1), "pause.flow"},
		{"not JSON", `{"version":1,`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conv, err := a.LoadConversation([]byte(tc.json))
			var ce *agent.CheckpointError
			if conv != nil || !errors.As(err, &ce) || ce.Field != tc.field {
				t.Errorf("error %v, want field %q", err, tc.field)
			}
			if tc.field != "" && !strings.Contains(err.Error(), `"`+tc.field+`"`) {
				t.Errorf("message %q does not name the field", err)
			}
		})
	}
}

func TestCheckIn(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer string
		ran    bool
		served string
	}{
		{"consent", `true`, true, "restarted checkout"},
		{"consent word", `"Yes"`, true, "restarted checkout"},
		{"declined", `"no"`, false, "did not consent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c counter
			restart := tool.Must(tool.New("restart_service", "Restart a service.",
				func(ctx context.Context, in statusIn) (string, error) {
					c.Add("restart:" + in.Service)
					return "restarted " + in.Service, nil
				}, tool.WithCheckIn(func(json.RawMessage) bool { return true })))
			p := scripted.New(
				scripted.Reply{ToolCalls: []llm.ToolCall{
					call("r1", "restart_service", `{"service":"checkout"}`),
					call("q1", "ask_approval", `{"action":"again"}`),
				}},
				scripted.Reply{Content: "ok"},
			)
			a, _ := agent.New(p, agent.WithTools(restart, approvalTool(t, &c)))
			var log eventLog
			log.on(a)
			conv := a.NewConversation()
			res, err := conv.Send(context.Background(), agent.Input{Message: "restart"})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Paused || res.PauseData.Kind != agent.PauseCheckIn || len(c.List()) != 0 {
				t.Fatalf("paused=%v data=%+v calls=%v", res.Paused, res.PauseData, c.List())
			}
			if ci, ok := res.PauseData.Data.(agent.CheckInRequest); !ok || ci.ToolName != "restart_service" || string(ci.Args) != `{"service":"checkout"}` {
				t.Errorf("check-in data = %#v", res.PauseData.Data)
			}
			res, err = conv.Resume(context.Background(), json.RawMessage(tc.answer))
			if err != nil {
				t.Fatal(err)
			}
			if res.Paused || res.Answer != "ok" {
				t.Errorf("resumed turn: paused=%v answer=%q; want the model's answer \"ok\"", res.Paused, res.Answer)
			}
			msgs := toolMessages(p.Requests()[1].Messages)
			if !strings.Contains(msgs[0], tc.served) {
				t.Errorf("served %q, want %q", msgs[0], tc.served)
			}
			// The approval tool in the resumed batch tried to pause again: refused by name.
			if !strings.Contains(msgs[1], `"ask_approval" asked to pause again`) {
				t.Errorf("second call served %q", msgs[1])
			}
			want := []string{"approve:again"}
			if tc.ran {
				want = []string{"restart:checkout", "approve:again"}
			}
			if diff := cmp.Diff(want, c.List()); diff != "" {
				t.Errorf("executions (-want +got):\n%s", diff)
			}
			if n, m := len(log.of(event.ToolsStart)), len(log.of(event.ToolsResult)); n != 2 || m != 2 {
				t.Errorf("tools.start %d, tools.result %d; want 2 and 2", n, m)
			}
		})
	}
}

// TestContinueFromPause: a conversation whose pause was abandoned goes on,
// here or (through its checkpoint) elsewhere; the calls left open get a
// result saying they were not run.
func TestContinueFromPause(t *testing.T) {
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{
		call("c1", "service_status", `{"service":"checkout"}`),
		call("c2", "ask_approval", `{"action":"restart"}`),
	}})
	a, _ := agent.New(p, agent.WithTools(statusTool(t, nil), approvalTool(t, nil)))
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "fix"})
	if err != nil || !res.Paused {
		t.Fatalf("paused=%v err=%v", res.Paused, err)
	}
	if h := res.History; len(h) != 3 {
		t.Fatalf("paused history = %+v", h)
	}
	if cv := checkpointOf(t, conv); len(cv.History) != 3 || cv.LastCompletedIteration != 0 || cv.Pause == nil {
		t.Fatalf("paused conversation = %s", mustJSON(t, cv))
	}
	dropped := conv.AbandonPause()
	if dropped == nil || dropped.ToolCallID != "c2" {
		t.Fatalf("AbandonPause returned %+v", dropped)
	}
	if again := conv.AbandonPause(); again != nil || conv.Pending() != nil {
		t.Errorf("the pause is still there after AbandonPause: %+v", again)
	}
	cv := checkpointOf(t, conv)
	if cv.Pause != nil || len(cv.History) != 3 {
		t.Fatalf("checkpoint after AbandonPause = %s", mustJSON(t, cv))
	}
	p2 := scripted.New(scripted.Reply{Content: "Never mind then."})
	a2, _ := agent.New(p2, agent.WithTools(statusTool(t, nil), approvalTool(t, nil)))
	res2, err := reload(t, a2, conv).Send(context.Background(), agent.Input{Message: "forget it"})
	if err != nil {
		t.Fatal(err)
	}
	got := toolMessages(p2.Requests()[0].Messages)
	want := []string{"c1:checkout is degraded: error rate 12%", "c2:This call was not run: the conversation went on without its result."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool messages (-want +got):\n%s", diff)
	}
	if res2.Answer != "Never mind then." {
		t.Errorf("answer = %q", res2.Answer)
	}
	// The first conversation accepts a new turn once the pause is abandoned;
	// that turn closes the open call the same way, and its record names the
	// dropped run.
	res3, err := conv.Send(context.Background(), agent.Input{Message: "new"})
	if errors.Is(err, agent.ErrPendingQuestion) {
		t.Fatal("still pending after AbandonPause")
	}
	if diff := cmp.Diff(want, toolMessages(p.Requests()[1].Messages)); diff != "" {
		t.Errorf("tool messages of the turn after the abandoned pause (-want +got):\n%s", diff)
	}
	if got := res3.Record.Manifest.AbandonedPause; got != res.RunID {
		t.Errorf("abandonedPause = %q, want %q", got, res.RunID)
	}
}

func TestToolProgressAndCallContext(t *testing.T) {
	var seen tool.Call
	slow := tool.Must(tool.New("slow_scan", "Scan slowly.", func(ctx context.Context, in statusIn) (string, error) {
		seen, _ = tool.CallFrom(ctx)
		seen.Progress(map[string]int{"done": 50})
		return "scanned", nil
	}))
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("s1", "slow_scan", `{"service":"a"}`)}},
		scripted.Reply{Content: "ok"},
	)
	a, _ := agent.New(p, agent.WithTools(slow))
	var log eventLog
	log.on(a)
	if _, err := a.NewConversation().Resume(context.Background(), json.RawMessage(`"yes"`)); !errors.Is(err, agent.ErrNotPaused) {
		t.Fatalf("Resume of a new conversation: %v, want ErrNotPaused", err)
	}
	if _, err := a.Run(context.Background(), agent.Input{Message: "scan"}); err != nil {
		t.Fatal(err)
	}
	if seen.ID != "s1" || seen.Name != "slow_scan" || seen.Iteration != 1 || seen.Turn != 1 || seen.Time != nil {
		t.Errorf("call context = %+v", seen)
	}
	pr := log.of(event.ToolsProgress)
	if len(pr) != 1 {
		t.Fatalf("progress events = %d", len(pr))
	}
	want := event.ToolsProgressPayload{ToolCallID: "s1", ToolName: "slow_scan", Iteration: 1, Payload: map[string]int{"done": 50}}
	if diff := cmp.Diff(want, pr[0].Payload); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

func TestCancellationDuringTools(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var c counter
	stopper := tool.Must(tool.New("stopper", "Cancels the run.", func(_ context.Context, in statusIn) (string, error) {
		c.Add("stop")
		cancel()
		return "stopping", nil
	}))
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{
		call("a", "stopper", `{"service":"x"}`),
		call("b", "service_status", `{"service":"x"}`),
	}}, scripted.Reply{Content: "never"})
	a, _ := agent.New(p, agent.WithTools(stopper, statusTool(t, &c)))
	res, err := a.Run(ctx, agent.Input{Message: "go"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if diff := cmp.Diff([]string{"stop"}, c.List()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if p.Calls() != 1 {
		t.Errorf("model calls = %d", p.Calls())
	}
	// The first call's result was committed before the run stopped.
	h := valueAt[[]llm.Message](t, res.Record, "tool-calls#4", "history")
	if got := toolMessages(h); len(got) != 1 || got[0] != "a:stopping" {
		t.Errorf("committed tool messages = %v", got)
	}
}

// TestResumeInAnotherAgent: a paused conversation's checkpoint resumes on a
// fresh agent built the same way (another process, in practice).
func TestResumeInAnotherAgent(t *testing.T) {
	build := func(p *scripted.Provider, c *counter) *agent.Agent {
		a, err := agent.New(p, agent.WithTools(statusTool(t, c), approvalTool(t, c)))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	var c1, c2 counter
	p1 := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{
		call("c1", "ask_approval", `{"action":"restart"}`),
		call("c2", "service_status", `{"service":"checkout"}`),
	}})
	conv := build(p1, &c1).NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "fix"})
	if err != nil || !res.Paused {
		t.Fatalf("paused=%v err=%v", res.Paused, err)
	}
	p2 := scripted.New(scripted.Reply{Content: "Approved and checked."})
	res2, err := reload(t, build(p2, &c2), conv).Resume(context.Background(), json.RawMessage(`{"approved":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if res2.Answer != "Approved and checked." || res2.Iterations != 2 {
		t.Errorf("answer %q after %d iterations", res2.Answer, res2.Iterations)
	}
	if diff := cmp.Diff([]string{"status:checkout"}, c2.List()); diff != "" {
		t.Errorf("second process ran (-want +got):\n%s", diff)
	}
	want := []string{`c1:{"approved":true}`, "c2:checkout is degraded: error rate 12%"}
	if diff := cmp.Diff(want, toolMessages(p2.Requests()[0].Messages)); diff != "" {
		t.Errorf("tool messages (-want +got):\n%s", diff)
	}
	rb, err := json.Marshal(res2.Record)
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.Decode(rb)
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Log.Validate(); err != nil {
		t.Errorf("resumed record invalid: %v", err)
	}
}

// tamperPause decodes a conversation checkpoint, lets edit change its pause
// object's fields, and encodes it again.
func tamperPause(t *testing.T, data []byte, edit func(pause map[string]json.RawMessage)) []byte {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	var pause map[string]json.RawMessage
	if err := json.Unmarshal(top["pause"], &pause); err != nil {
		t.Fatalf("the checkpoint has no pause object: %v", err)
	}
	edit(pause)
	top["pause"] = json.RawMessage(mustJSON(t, pause))
	return []byte(mustJSON(t, top))
}
