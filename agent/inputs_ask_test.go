package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/honesty/inputs"
	inputslayer "github.com/agentfootprint/agentfootprint-go/internal/honesty/inputs"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

var askWindow = tool.Rule{Ask: "How far back should the search go?", Choices: []tool.Choice{{Value: "1h"}, {Value: "24h"}, {Value: "7d"}}}

func reply(t *testing.T, id string, values map[string]any) json.RawMessage {
	t.Helper()
	return json.RawMessage(mustJSON(t, map[string]any{"requestId": id, "values": values}))
}

// I5 and I6: one typed question for the batch, asked before anything of the
// batch is written; the answer fills every call, which run without another
// model call.
func TestInputsAskedWindow(t *testing.T) {
	sn := &seen{}
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{"service":"checkout"}`), call("c2", "search_logs", `{"service":"billing"}`)}},
		scripted.Reply{Content: "No errors."},
	)
	a, err := agent.New(p, agent.WithTools(searchLogs(t, askWindow, lookback, sn, []string{})))
	if err != nil {
		t.Fatal(err)
	}
	log := &eventLog{}
	log.on(a)
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "Any errors?"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Paused || res.PauseData == nil || res.PauseData.Kind != agent.PauseArguments {
		t.Fatalf("want an arguments pause, got %+v", res.PauseData)
	}
	pd := res.PauseData.Data.(inputs.PauseData)
	wantFields := []inputs.Field{{ID: "f1", Type: "string", Description: askWindow.Ask, Enum: []any{"1h", "24h", "7d"}}}
	if diff := cmp.Diff(wantFields, pd.Fields); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	if got := mustJSON(t, pd.Context); got != `{"agentfootprint":{"ask":"arguments","fields":[{"id":"f1","tool":"search_logs","argument":"window","calls":["c1","c2"]}]}}` {
		t.Errorf("context %s", got)
	}
	if n := len(log.of(event.ToolsStart)); n != 0 {
		t.Errorf("%d tools.start before the answer", n)
	}
	if got := rowsOfKind(t, res, "argument"); len(got) != 2 || !strings.Contains(got[0], `"asked":"missing"`) {
		t.Errorf("asked rows %v", got)
	}
	if as := res.Assessment; as == nil || as.Standing != "ask" {
		t.Errorf("standing while asked: %+v", as)
	}

	res, err = conv.Resume(context.Background(), reply(t, pd.RequestID, map[string]any{"f1": "7d"}))
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "No errors." {
		t.Errorf("answer %q", res.Answer)
	}
	if diff := cmp.Diff([]searchLogsIn{{Service: "checkout", Window: "7d"}, {Service: "billing", Window: "7d"}}, sn.got()); diff != "" {
		t.Errorf("execute args (-want +got):\n%s", diff)
	}
	rows := rowsOfKind(t, res, "argument")
	want := `{"kind":"argument","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"argument":"window","rule":"ask","period":true,"source":"answered","value":"7d"}`
	if len(rows) != 4 || rows[2] != want {
		t.Errorf("rows %v\nwant third %s", rows, want)
	}
	msgs := toolMessages(res.History)
	if len(msgs) != 2 || !strings.Contains(msgs[0], `came from the person's reply to a question`) {
		t.Errorf("tool messages %q", msgs)
	}
	if as := res.Assessment; as == nil || as.Standing == "ask" {
		t.Errorf("standing after the answer: %+v", as)
	}
}

type countIn struct {
	Limit int `json:"limit" jsonschema:"how many rows"`
}

// I8: a free integer field answered 2.5 three times: re-asked twice, then
// the call is refused naming the argument and its type; the run continues.
func TestInputsAnswerMisfitsThrice(t *testing.T) {
	ran := 0
	count, err := tool.New("count_rows", "Count rows.", func(context.Context, countIn) (int, error) { ran++; return 0, nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"limit": {Ask: "How many rows at most?"}}))
	if err != nil {
		t.Fatal(err)
	}
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "count_rows", `{}`)}}, scripted.Reply{Content: "Could not count."})
	a, err := agent.New(p, agent.WithTools(count))
	if err != nil {
		t.Fatal(err)
	}
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "count"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conv.Resume(context.Background(), reply(t, "wrong", map[string]any{"f1": 2})); err == nil {
		t.Error("a wrong request id: want an error")
	}
	for round := 1; round <= 3; round++ {
		pd := res.PauseData.Data.(inputs.PauseData)
		if round > 1 && pd.Question != inputslayer.QuestionAgain {
			t.Errorf("round %d question %q", round, pd.Question)
		}
		res, err = conv.Resume(context.Background(), reply(t, pd.RequestID, map[string]any{"f1": 2.5}))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if round < 3 && !res.Paused {
			t.Fatalf("round %d: want the field asked again", round)
		}
	}
	if ran != 0 || res.Answer != "Could not count." {
		t.Errorf("ran %d, answer %q", ran, res.Answer)
	}
	msgs := res.History
	var refusal llm.Message
	for _, m := range msgs {
		if m.Role == llm.RoleTool {
			refusal = m
		}
	}
	if !refusal.IsError || !strings.Contains(refusal.Content, "limit") || !strings.Contains(refusal.Content, "integer") {
		t.Errorf("refusal %+v", refusal)
	}
	rows := rowsOfKind(t, res, "argument")
	var asked []string
	for _, r := range rows {
		var m map[string]any
		_ = json.Unmarshal([]byte(r), &m)
		asked = append(asked, m["asked"].(string))
		if _, has := m["value"]; has {
			t.Errorf("an asked row holds a value: %s", r)
		}
	}
	if diff := cmp.Diff([]string{"missing", "invalid-answer", "invalid-answer", "invalid-answer"}, asked); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// A paused question survives a JSON round trip of its checkpoint, and so
// does the turn's clock: the resumed batch runs with the answer, on the
// clock decided before the pause.
func TestInputsAskCheckpointRoundTrip(t *testing.T) {
	sn := &seen{}
	w := &wall{t: turnNow}
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "No errors."},
	)
	a, err := agent.New(p, agent.WithTools(searchLogs(t, askWindow, lookback, sn, []string{})), agent.WithTimeLayer("Europe/London"), agent.WithClock(w.now))
	if err != nil {
		t.Fatal(err)
	}
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "Any errors?"})
	if err != nil || !res.Paused {
		t.Fatalf("want a pause: %v", err)
	}
	conv = reload(t, a, conv)
	requestID := res.PauseData.Data.(inputs.PauseData).RequestID
	w.set(turnNow.Add(10 * time.Minute))
	res, err = conv.Resume(context.Background(), reply(t, requestID, map[string]any{"f1": "24h"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := sn.got(); len(got) != 1 || got[0].Window != "24h" {
		t.Errorf("execute args %+v", got)
	}
	if len(sn.time) != 1 || !sn.time[0].Now.Equal(turnNow) || sn.time[0].Zone != "Europe/London" {
		t.Errorf("tool time %+v (want the clock decided before the pause)", sn.time)
	}
	want := `{"kind":"call-window","turn":1,"iteration":1,"toolCallId":"c1","toolName":"search_logs","how":"filled","argument":"window","form":"lookback","asked":{"from":"2026-10-08T15:40:00Z","to":"2026-10-09T15:40:00Z"}}`
	if got := rowsOfKind(t, res, "call-window"); len(got) != 1 || got[0] != want {
		t.Errorf("call-window %v\nwant %s", got, want)
	}
	// 10 minutes after the turn's now: a library fill drifted, recorded shifted
	// (this tool accepts no iso-range to redraw it in).
	if got := rowsOfKind(t, res, "call"); len(got) != 1 || !strings.Contains(got[0], `"drift":{"byMs":600000,"outcome":"shifted"}`) {
		t.Errorf("call rows %v", got)
	}
}

// I12: after the answer, a call that needs its check-in cannot pause again:
// it is refused and the answer kept; proposed again without the argument,
// it is filled from the kept answer (nothing asked) and then pauses for
// its check-in.
func TestInputsAnswerKeptForSecondPause(t *testing.T) {
	sn := &seen{}
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{"service":"checkout"}`)}},
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c2", "search_logs", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "No errors."},
	)
	a, err := agent.New(p, agent.WithTools(searchLogs(t, askWindow, lookback, sn, []string{}, tool.WithCheckIn(func(json.RawMessage) bool { return true }))))
	if err != nil {
		t.Fatal(err)
	}
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "Any errors?"})
	if err != nil || !res.Paused || res.PauseData.Kind != agent.PauseArguments {
		t.Fatalf("want the question: %v %+v", err, res.PauseData)
	}
	res, err = conv.Resume(context.Background(), reply(t, res.PauseData.Data.(inputs.PauseData).RequestID, map[string]any{"f1": "7d"}))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Paused || res.PauseData.Kind != agent.PauseCheckIn || res.PauseData.ToolCallID != "c2" {
		t.Fatalf("want c2's check-in, got %+v", res.PauseData)
	}
	msgs := toolMessages(res.History)
	if len(msgs) != 1 || !strings.Contains(msgs[0], "asked to pause again") || !strings.Contains(msgs[0], "answers for window were kept") {
		t.Errorf("c1's refusal %q", msgs)
	}
	rows := rowsOfKind(t, res, "argument")
	last := rows[len(rows)-1]
	if !strings.Contains(last, `"toolCallId":"c2"`) || !strings.Contains(last, `"source":"answered","value":"7d"`) {
		t.Errorf("c2's row %s (all %v)", last, rows)
	}
	for _, r := range rows {
		if strings.Contains(r, `"toolCallId":"c2"`) && strings.Contains(r, `"asked"`) {
			t.Errorf("c2 was asked: %s", r)
		}
	}
	res, err = conv.Resume(context.Background(), json.RawMessage(`true`))
	if err != nil {
		t.Fatal(err)
	}
	if got := sn.got(); len(got) != 1 || got[0].Window != "7d" || res.Answer != "No errors." {
		t.Errorf("ran %+v, answer %q", got, res.Answer)
	}
}
