// Frozen world and ablation specs: replay by content and occurrence,
// unmatched calls refused or run live, errors replayed, messages and inputs
// overridden on reruns.

package explain_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

type echoIn struct {
	Q string `json:"q" jsonschema:"the query"`
}

// echoModel asks the tool once per query in the user message (split on
// "|") and answers with the tool results it read joined.
func echoModel() *scripted.Provider {
	return scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		var user string
		var results []string
		for _, m := range req.Messages {
			switch m.Role {
			case llm.RoleUser:
				user = m.Content
			case llm.RoleTool:
				results = append(results, m.Content)
			}
		}
		qs := strings.Split(user, "|")
		if len(results) < len(qs) {
			return scripted.Reply{ToolCalls: []llm.ToolCall{{Name: "echo", Args: []byte(`{"q":"` + qs[len(results)] + `"}`)}}}
		}
		return scripted.Reply{Content: strings.Join(results, " / ")}
	})
}

func echoTool(n *atomic.Int64, fail bool) *tool.Tool {
	return tool.Must(tool.New("echo", "Echo a query with a counter.", func(ctx context.Context, in echoIn) (string, error) {
		k := n.Add(1)
		if fail && in.Q == "boom" {
			return "", errors.New("backend down")
		}
		return in.Q + "#" + string(rune('0'+k)), nil
	}))
}

func TestFrozenWorldReplay(t *testing.T) {
	var n atomic.Int64
	bp := explain.Blueprint{Tools: []*tool.Tool{echoTool(&n, true)}, Options: []agent.Option{agent.WithClock(fixedClock), agent.WithMaxIterations(6)}}
	a, err := bp.Build(echoModel())
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "a|b|a|boom"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `a#1 / b#2 / a#3 / The tool "echo" failed: backend down`; res.Answer != want {
		t.Fatalf("recorded answer %q, want %q", res.Answer, want)
	}
	rec := res.Record
	w, err := explain.FrozenWorld(rec, echoModel())
	if err != nil {
		t.Fatal(err)
	}
	if got := explain.RecordedOutputs(w); got != 4 {
		t.Fatalf("the frozen world replays %d tool outputs, want 4", got)
	}
	before := n.Load()
	same := func(o, c string) bool { return o != c }
	// The same run replays byte for byte: k-th output per (tool, args), the
	// error as an error.
	rep, err := explain.Probe(context.Background(), rec, bp, w, explain.ProbeOptions{Samples: 2,
		Suspects: []explain.Spec{explain.Input("userMessage", "a|b|a|a")}, Comparator: same})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Baseline.Flips != 0 || n.Load() != before {
		t.Errorf("baseline %+v, live executions %d; want an exact replay", rep.Baseline, n.Load()-before)
	}
	// The third "a" has no recorded output: refused, run marked diverged.
	s := rep.Suspects[0]
	if s.Flips != 2 || s.DivergedRuns != 2 || s.LiveCalls != 0 {
		t.Errorf("input override: %+v, want 2 flips, 2 diverged, 0 live", s)
	}
	// In live mode the unmatched call runs the real tool and is counted.
	w.LiveTools = true
	rep, err = explain.Probe(context.Background(), rec, bp, w, explain.ProbeOptions{Samples: 2,
		Suspects: []explain.Spec{explain.Input("userMessage", "a|b|a|a")}, Comparator: same})
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Suspects[0]; s.LiveCalls != 2 || n.Load()-before != 2 {
		t.Errorf("live mode: %+v, executions %d, want 2 live calls", s, n.Load()-before)
	}
}

func TestAblateSpecs(t *testing.T) {
	r := newRefunds(t)
	for _, tc := range []struct {
		spec explain.Spec
		ok   bool
	}{
		{explain.Unit("style"), true},
		{explain.Tool("lookup_order"), true},
		{explain.Force("vip-override"), true},
		{explain.Message(0), true},
		{explain.Input("userMessage", "hi"), true},
		{explain.Unit("system-prompt"), false},
		{explain.Tool("nope"), false},
		{explain.Force("nope"), false},
		{explain.Message(-1), false},
		{explain.Input("userMessage", 3), false},
		{explain.Input("iteration", "x"), false},
		{explain.Spec{}, false},
	} {
		got, err := explain.Ablate(r.bp, tc.spec)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v, want ok=%v", tc.spec, err, tc.ok)
			continue
		}
		if err != nil {
			continue
		}
		switch kind, _, _ := strings.Cut(tc.spec.String(), ":"); kind {
		case "unit":
			if len(got.Units) != 1 || got.Units[0].ID() != "vip-override" {
				t.Errorf("%s left %d units", tc.spec, len(got.Units))
			}
		case "tool":
			if len(got.Tools) != 0 {
				t.Errorf("%s left %d tools", tc.spec, len(got.Tools))
			}
		}
	}
	if len(r.bp.Units) != 2 || len(r.bp.Tools) != 1 {
		t.Error("Ablate modified its input")
	}
}

// TestMessageSpecRemovesPriorMessage: on a continued conversation,
// Message(i) removes that earlier message from the rerun.
func TestMessageSpecRemovesPriorMessage(t *testing.T) {
	a, err := agent.New(noteModel(), agent.WithClock(fixedClock))
	if err != nil {
		t.Fatal(err)
	}
	conv := a.NewConversation(agent.WithHistory([]llm.Message{{Role: llm.RoleUser, Content: overrideNote}, {Role: llm.RoleAssistant, Content: "Noted."}}))
	res, err := conv.Send(context.Background(), agent.Input{Message: question})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record
	w, err := explain.FrozenWorld(rec, noteModel())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := explain.Probe(context.Background(), rec, explain.Blueprint{Options: []agent.Option{agent.WithClock(fixedClock)}}, w,
		explain.ProbeOptions{Suspects: []explain.Spec{explain.Message(0), explain.Message(1)}, Comparator: labelComparator})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Suspects[0].Verdict != explain.VerdictConfirmed || rep.Suspects[1].Verdict != explain.VerdictNotConfirmed {
		t.Errorf("message probes = %+v", rep.Suspects)
	}
	if _, err := explain.Probe(context.Background(), rec, explain.Blueprint{}, w,
		explain.ProbeOptions{Suspects: []explain.Spec{explain.Message(5)}}); err == nil {
		t.Error("Message(5) of a two-message conversation was accepted")
	}
}
