// Frozen tools keep every declaration of the tool they replace: checked on
// the copy itself and through a rerun whose recorded result was refused by
// the tool's result ceiling.

package explain

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

type logsIn struct {
	Service string `json:"service" jsonschema:"the service to search"`
	Window  string `json:"window,omitempty" jsonschema:"how far back to look, such as 2h"`
	Tenant  string `json:"tenant,omitempty" jsonschema:"the tenant, filled by the host"`
}

// searchLogs declares a period, a rule, a ceiling and a hidden argument.
func searchLogs(t *testing.T, out string) *tool.Tool {
	t.Helper()
	st, err := tool.New("search_logs", "Search a service's error logs.",
		func(ctx context.Context, in logsIn) (string, error) { return out, nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "2h"}}),
		tool.WithPeriod(tool.Period{Argument: "window", Spelling: tool.SpellingLookback, Retention: "30d"}),
		tool.WithResultCeiling(40, "a shorter window"),
		tool.WithHiddenArguments("tenant"),
		tool.WithValidation(tool.ModeWarn))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// declarations is everything a tool declares besides its function: its
// Declaration without the three funcs, with the check-in as a bool, and
// without RawResults (how the func's return value is read, which a frozen
// copy keeps by its own means).
type declarations struct {
	tool.Declaration
	HasCheckIn bool
}

func declarationsOf(t *tool.Tool) declarations {
	d := declarations{Declaration: t.Declaration(), HasCheckIn: t.Declaration().CheckIn != nil}
	d.Check, d.CheckArgument, d.Func, d.CheckIn, d.RawResults = nil, nil, nil, nil, false
	return d
}

func TestFrozenToolKeepsDeclarations(t *testing.T) {
	orig := searchLogs(t, "unused")
	args := json.RawMessage(`{"service":"checkout","window":"2h"}`)
	ft := &frozenTools{outputs: map[string][]recordedOutput{
		callKey("search_logs", args): {{raw: []byte("3 errors in checkout")}},
	}}
	frozen, err := ft.session(toolsRefuse).wrap(orig)
	if err != nil {
		t.Fatal(err)
	}
	want := declarationsOf(orig)
	if want.Period == nil || want.ResultCeiling == 0 || want.DefinedAt.Line == 0 {
		t.Fatalf("fixture declares too little: %+v", want)
	}
	if diff := cmp.Diff(want, declarationsOf(frozen)); diff != "" {
		t.Errorf("frozen tool declarations (-original +frozen):\n%s", diff)
	}
	out, err := toolrun.Execute(context.Background(), frozen.Declaration(), args)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := toolrun.Text(out.Value); got != "3 errors in checkout" {
		t.Errorf("frozen tool served %q, want the recorded output", got)
	}
}

// TestFrozenToolCeilingInRerun: the recorded run's tool result was over the
// ceiling, so the model read a refusal and repeated it. A rerun serves the
// recorded output through the frozen copy, which must be refused the same
// way: the baseline reruns then give the recorded answer every time.
func TestFrozenToolCeilingInRerun(t *testing.T) {
	long := strings.Repeat("error line; ", 10) // 120 chars, over the ceiling of 40
	model := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool {
				return scripted.Reply{Content: "The tool said: " + m.Content}
			}
		}
		return scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "search_logs", Args: []byte(`{"service":"checkout","window":"2h"}`)}}}
	})
	fixed := func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) }
	bp := Blueprint{Tools: []*tool.Tool{searchLogs(t, long)}, Options: []agent.Option{agent.WithClock(fixed)}}
	a, err := bp.Build(model)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Any errors in checkout?"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Answer, long) || !strings.Contains(res.Answer, "40") {
		t.Fatalf("recorded answer %q, want the ceiling's refusal, not the long result", res.Answer)
	}
	w, err := FrozenWorld(res.Record, model)
	if err != nil {
		t.Fatal(err)
	}
	if w.tools.Len() != 1 {
		t.Fatalf("frozen table holds %d outputs, want the one recorded", w.tools.Len())
	}
	rep, err := Probe(context.Background(), res.Record, bp, w, ProbeOptions{
		Suspects:   []Spec{Input("userMessage", "Any errors in checkout?")},
		Comparator: func(a, b string) bool { return a != b },
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Baseline.Flips != 0 || rep.Baseline.DistinctSamples != 1 {
		t.Errorf("baseline %+v, want every rerun to give the recorded (refused) answer", rep.Baseline)
	}
}
