// A failed call is visible in the standing: an answer resting on a call that
// returned no data (its own declaration refused, an error, a panic, refused
// arguments) reads not-sure with the reason call-failed and the call's tool
// message as witness, where it used to read not-assessed with no reason.

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	assessfold "github.com/agentfootprint/agentfootprint-go/internal/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

func TestFailedCallInTheStanding(t *testing.T) {
	zoneless := coverage.Period{Queried: coverage.Span{From: "2026-09-26T09:00:00", To: "2026-09-26T10:00:00"}, Held: coverage.Held{Unknown: true}}
	for _, tc := range []struct {
		name string
		fn   func(context.Context, json.RawMessage) (any, error)
		args string
	}{
		{"own declaration refused", func(context.Context, json.RawMessage) (any, error) {
			return coverage.Absent(coverage.AbsenceDecl{What: "errors", Checked: []coverage.Item{{What: "the log"}}, Period: &zoneless})
		}, `{}`},
		{"tool error", func(context.Context, json.RawMessage) (any, error) { return nil, errors.New("backend unreachable") }, `{}`},
		{"panic", func(context.Context, json.RawMessage) (any, error) { panic("index out of range") }, `{}`},
		{"invalid arguments", func(context.Context, json.RawMessage) (any, error) { return "ran", nil }, `{"host":7}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := must(tool.NewRaw("search_logs", "Search logs.",
				json.RawMessage(`{"type":"object","properties":{"host":{"type":"string"}}}`), tc.fn))
			p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", tc.args)}}, scripted.Reply{Content: "No errors."})
			a := must(agent.New(p, agent.WithTools(tl), agent.WithResultsLayer()))
			res := must(a.Run(context.Background(), agent.Input{Message: "Any errors on db-1?"}))
			got := res.Assessment
			if got.Standing != assess.StandingNotSure {
				t.Fatalf("standing %q, want not-sure: %+v", got.Standing, got)
			}
			// history: [user, assistant with the call, the failed tool message, answer]
			want := []assess.Reason{{Reason: assess.ReasonCallFailed, Layer: 3, Witness: []assess.Pointer{assessfold.HistoryPointer(2, "/isError", "c1")}}}
			if diff := cmp.Diff(want, got.Reasons); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
			if h := res.History; !h[2].IsError || h[2].ToolCallID != "c1" {
				t.Errorf("the witness does not name the failed call's message: %+v", h[2])
			}
		})
	}
	// A correct absence is not a failure: declared-absent, no call-failed.
	ok := must(tool.NewRaw("search_logs", "Search logs.", json.RawMessage(`{"type":"object"}`),
		func(context.Context, json.RawMessage) (any, error) {
			return coverage.Absent(coverage.AbsenceDecl{What: "errors", Checked: []coverage.Item{{What: "the log"}}})
		}))
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{}`)}}, scripted.Reply{Content: "No errors."})
	res := must(must(agent.New(p, agent.WithTools(ok), agent.WithResultsLayer())).Run(context.Background(), agent.Input{Message: "Any errors?"}))
	var names []string
	for _, r := range res.Assessment.Reasons {
		names = append(names, r.Reason)
	}
	if fmt.Sprint(names) != "[declared-absent]" {
		t.Errorf("a correct absence gives reasons %v, want [declared-absent]", names)
	}
}

// TestRefusedDeclarationWarnsOnce: in dev mode, a tool whose own declaration
// is refused while it runs gets one warning naming the tool and the field.
func TestRefusedDeclarationWarnsOnce(t *testing.T) {
	buf, logTo := captureWarnings(t)
	name := "search_logs"
	zoneless := coverage.Period{Queried: coverage.Span{From: "2026-09-26T09:00:00", To: "2026-09-26T10:00:00"}, Held: coverage.Held{Unknown: true}}
	tl := must(tool.NewRaw(name, "Search logs.", json.RawMessage(`{"type":"object"}`),
		func(context.Context, json.RawMessage) (any, error) {
			return coverage.Absent(coverage.AbsenceDecl{What: "errors", Checked: []coverage.Item{{What: "the log"}}, Period: &zoneless})
		}))
	p := scripted.New(scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", name, `{}`), call("c2", name, `{}`)}}, scripted.Reply{Content: "No errors."})
	must(must(agent.New(p, agent.WithTools(tl), agent.WithResultsLayer(), logTo)).Run(context.Background(), agent.Input{Message: "Any errors?"}))
	out := buf.String()
	if n := strings.Count(out, "declaration was refused"); n != 1 {
		t.Fatalf("got %d warnings, want one:\n%s", n, out)
	}
	if !strings.Contains(out, "tool="+name) || !strings.Contains(out, "field=period.queried.from") {
		t.Errorf("the warning must name the tool and the refused field:\n%s", out)
	}
}
