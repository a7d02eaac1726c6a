// Tests of parallel tool dispatch: call order kept whatever the finishing
// order, the bound, pauses in a parallel batch, and cancel-the-rest.

package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

type waitIn struct {
	Name string `json:"name" jsonschema:"what to fetch"`
}

// eventTrail is each tool event's type and call id, in record order.
func eventTrail(r *record.Record) []string {
	var out []string
	for _, e := range r.Events.All() {
		switch p := e.Payload.(type) {
		case event.ToolsStartPayload:
			out = append(out, "start:"+p.ToolCallID)
		case event.ToolsResultPayload:
			out = append(out, "result:"+p.ToolCallID+"="+p.Result)
		case event.ToolsProgressPayload:
			out = append(out, "progress:"+p.ToolCallID)
		default:
			out = append(out, strings.TrimPrefix(string(e.Type), event.Prefix))
		}
	}
	return out
}

// TestParallelToolsKeepCallOrder: the call declared first waits until the
// call declared last has finished, so the calls ran at once and finished
// in the reverse order; the record, the history and the events still read
// in call order, the same as a sequential run of the same batch.
func TestParallelToolsKeepCallOrder(t *testing.T) {
	run := func(t *testing.T, parallel bool, opts ...agent.Option) (*agent.Result, []string) {
		var finished counter
		lastDone := make(chan struct{})
		fetch := tool.Must(tool.New("fetch", "Fetch a thing.", func(ctx context.Context, in waitIn) (string, error) {
			tc, _ := tool.CallFrom(ctx)
			tc.Progress(map[string]string{"fetching": in.Name})
			switch in.Name {
			case "first":
				if !parallel {
					break // sequential: the last call has not started, nobody would close it
				}
				// However loaded the machine, the last call starts while this one waits;
				// the bound only keeps a broken dispatch from hanging the test.
				select {
				case <-lastDone:
				case <-time.After(10 * time.Second):
				}
			case "last":
				close(lastDone)
			}
			finished.Add(in.Name)
			return "got " + in.Name, nil
		}))
		p := scripted.New(
			scripted.Reply{ToolCalls: []llm.ToolCall{
				call("c1", "fetch", `{"name":"first"}`),
				call("c2", "fetch", `{"name":"middle"}`),
				call("c3", "fetch", `{"name":"last"}`),
			}},
			scripted.Reply{Content: "done"},
		)
		a := mustNew(t, p, append([]agent.Option{agent.WithTools(fetch)}, opts...)...)
		res, err := a.Run(context.Background(), agent.Input{Message: "fetch all"})
		if err != nil {
			t.Fatal(err)
		}
		if got := toolMessages(p.Requests()[1].Messages); !cmp.Equal(got, []string{"c1:got first", "c2:got middle", "c3:got last"}) {
			t.Errorf("served in history = %v", got)
		}
		return res, finished.List()
	}
	seq, seqOrder := run(t, false)
	par, parOrder := run(t, true, agent.WithParallelTools(3))
	if !cmp.Equal(seqOrder, []string{"first", "middle", "last"}) || slices.Index(parOrder, "last") > slices.Index(parOrder, "first") {
		t.Fatalf("finishing order: sequential %v, parallel %v; want the parallel last call to finish before the first", seqOrder, parOrder)
	}
	want := []string{"start:c1", "progress:c1", "result:c1=got first", "start:c2", "progress:c2", "result:c2=got middle", "start:c3", "progress:c3", "result:c3=got last"}
	for name, res := range map[string]*agent.Result{"sequential": seq, "parallel": par} {
		var tools []string
		for _, e := range eventTrail(res.Record) {
			if strings.HasPrefix(e, "start:") || strings.HasPrefix(e, "result:") || strings.HasPrefix(e, "progress:") {
				tools = append(tools, e)
			}
		}
		if diff := cmp.Diff(want, tools); diff != "" {
			t.Errorf("%s: tool events (-want +got):\n%s", name, diff)
		}
	}
	if diff := cmp.Diff(stageIDs(seq.Record), stageIDs(par.Record)); diff != "" {
		t.Errorf("commits differ between sequential and parallel (-seq +par):\n%s", diff)
	}
	results := func(r *agent.Result) []string {
		var out []string
		for _, tr := range toolResultsOf(t, r) {
			out = append(out, tr.ToolCallID+":"+tr.OutputRef)
		}
		return out
	}
	if diff := cmp.Diff(results(seq), results(par)); diff != "" {
		t.Errorf("toolResults differ (-seq +par):\n%s", diff)
	}
}

// toolResultsOf reads the last committed toolResults.
func toolResultsOf(t *testing.T, r *agent.Result) []state.ToolResult {
	t.Helper()
	b, err := json.Marshal(r.Record)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Commits []struct {
			Ops []struct {
				Key   string          `json:"key"`
				Value json.RawMessage `json:"value"`
			} `json:"ops"`
		} `json:"commits"`
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	var last []state.ToolResult
	for _, c := range rec.Commits {
		for _, op := range c.Ops {
			if op.Key == "toolResults" {
				last = nil
				if err := json.Unmarshal(op.Value, &last); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return last
}

// TestParallelToolsBound: with a limit of 2, never more than two calls
// execute at once, and two do.
func TestParallelToolsBound(t *testing.T) {
	var inFlight, most atomic.Int32
	var mu sync.Mutex
	pair := sync.NewCond(&mu)
	work := tool.Must(tool.New("work", "Work.", func(ctx context.Context, in waitIn) (string, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		// Wait for a partner, so two are in flight together (the bound only keeps a
		// broken dispatch from hanging the test).
		deadline := time.Now().Add(10 * time.Second)
		for inFlight.Load() < 2 && most.Load() < 2 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		mu.Lock()
		pair.Broadcast()
		mu.Unlock()
		return "worked " + in.Name, nil
	}))
	calls := []llm.ToolCall{}
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		calls = append(calls, call(id, "work", `{"name":"`+id+`"}`))
	}
	p := scripted.New(scripted.Reply{ToolCalls: calls}, scripted.Reply{Content: "done"})
	a := mustNew(t, p, agent.WithTools(work), agent.WithParallelTools(2))
	if _, err := a.Run(context.Background(), agent.Input{Message: "work"}); err != nil {
		t.Fatal(err)
	}
	if m := most.Load(); m != 2 {
		t.Errorf("at most %d calls executed at once, want exactly 2", m)
	}
	if got := toolMessages(p.Requests()[1].Messages); !cmp.Equal(got, []string{"a:worked a", "b:worked b", "c:worked c", "d:worked d", "e:worked e"}) {
		t.Errorf("served = %v", got)
	}
}

// TestParallelToolsCheckIn: a check-in in a parallel batch means what it
// means sequentially: the calls before it run, it pauses, the calls after
// it run after the answer.
func TestParallelToolsCheckIn(t *testing.T) {
	var c counter
	restart := tool.Must(tool.New("restart_service", "Restart a service.",
		func(ctx context.Context, in statusIn) (string, error) {
			c.Add("restart:" + in.Service)
			return "restarted " + in.Service, nil
		}, tool.WithCheckIn(func(json.RawMessage) bool { return true })))
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{
			call("s1", "service_status", `{"service":"checkout"}`),
			call("r1", "restart_service", `{"service":"checkout"}`),
			call("s2", "service_status", `{"service":"payments"}`),
		}},
		scripted.Reply{Content: "ok"},
	)
	a := mustNew(t, p, agent.WithTools(statusTool(t, &c), restart), agent.WithParallelTools(4))
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "restart"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Paused || res.PauseData.Kind != agent.PauseCheckIn || res.PauseData.ToolCallID != "r1" {
		t.Fatalf("paused=%v data=%+v", res.Paused, res.PauseData)
	}
	if diff := cmp.Diff([]string{"status:checkout"}, c.List()); diff != "" {
		t.Errorf("before the answer (-want +got):\n%s", diff)
	}
	if _, err := conv.Resume(context.Background(), json.RawMessage(`true`)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"status:checkout", "restart:checkout", "status:payments"}, c.List()); diff != "" {
		t.Errorf("after the answer (-want +got):\n%s", diff)
	}
	want := []string{"s1:checkout is degraded: error rate 12%", "r1:restarted checkout", "s2:payments is degraded: error rate 12%"}
	if diff := cmp.Diff(want, toolMessages(p.Requests()[1].Messages)); diff != "" {
		t.Errorf("served (-want +got):\n%s", diff)
	}
}

// TestParallelToolsToolPause: a tool pausing from Execute pauses the
// parallel batch at its place in call order; the earlier call's result is
// kept and the later call is dispatched again after the answer.
func TestParallelToolsToolPause(t *testing.T) {
	var c counter
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{
			call("c1", "service_status", `{"service":"checkout"}`),
			call("c2", "ask_approval", `{"action":"restart checkout"}`),
			call("c3", "service_status", `{"service":"payments"}`),
		}},
		scripted.Reply{Content: "done"},
	)
	a := mustNew(t, p, agent.WithTools(statusTool(t, &c), approvalTool(t, &c)), agent.WithParallelTools(3))
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "fix"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Paused || res.PauseData.ToolCallID != "c2" || res.PauseData.Kind != agent.PauseTool {
		t.Fatalf("paused=%v data=%+v", res.Paused, res.PauseData)
	}
	if got := toolResultsOf(t, res); len(got) != 1 || got[0].ToolCallID != "c1" {
		t.Errorf("results kept at the pause = %+v, want c1 only", got)
	}
	if _, err := conv.Resume(context.Background(), json.RawMessage(`"approved"`)); err != nil {
		t.Fatal(err)
	}
	want := []string{"c1:checkout is degraded: error rate 12%", "c2:approved", "c3:payments is degraded: error rate 12%"}
	if diff := cmp.Diff(want, toolMessages(p.Requests()[1].Messages)); diff != "" {
		t.Errorf("served (-want +got):\n%s", diff)
	}
}

// TestParallelToolsCancelOnFailure: only when asked, a failing call cancels
// the calls still running, which are served a text naming it.
func TestParallelToolsCancelOnFailure(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cancel bool
		want   string
	}{
		{"asked", true, `was stopped because the call f1 of tool "flaky" failed first`},
		{"not asked", false, "waited"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			started := make(chan struct{})
			// Asked to stop, the slow call is cancelled long before its wait ends, however
			// loaded the machine; not asked, it waits a moment and finishes.
			wait := 100 * time.Millisecond
			if tc.cancel {
				wait = 10 * time.Second
			}
			flaky := tool.Must(tool.New("flaky", "Fails.", func(ctx context.Context, in waitIn) (string, error) {
				<-started
				return "", errors.New("backend down")
			}))
			slow := tool.Must(tool.New("slow", "Waits.", func(ctx context.Context, in waitIn) (string, error) {
				close(started)
				select {
				case <-ctx.Done():
					return "", ctx.Err()
				case <-time.After(wait):
					return "waited", nil
				}
			}))
			p := scripted.New(
				scripted.Reply{ToolCalls: []llm.ToolCall{call("f1", "flaky", `{"name":"x"}`), call("s1", "slow", `{"name":"y"}`)}},
				scripted.Reply{Content: "done"},
			)
			opts := []agent.Option{agent.WithTools(flaky, slow), agent.WithParallelTools(2)}
			if tc.cancel {
				opts = append(opts, agent.WithCancelOnToolFailure())
			}
			a := mustNew(t, p, opts...)
			if _, err := a.Run(context.Background(), agent.Input{Message: "go"}); err != nil {
				t.Fatal(err)
			}
			msgs := toolMessages(p.Requests()[1].Messages)
			if len(msgs) != 2 || !strings.Contains(msgs[0], "backend down") || !strings.Contains(msgs[1], tc.want) {
				t.Errorf("served = %q, want the second to contain %q", msgs, tc.want)
			}
		})
	}
}

// TestParallelToolsRefusesBadLimit names the option.
func TestParallelToolsRefusesBadLimit(t *testing.T) {
	_, err := agent.New(scripted.New(), agent.WithParallelTools(0))
	if err == nil || !strings.Contains(err.Error(), "WithParallelTools") {
		t.Errorf("New(WithParallelTools(0)) = %v", err)
	}
}

func mustNew(t testing.TB, p llm.Provider, opts ...agent.Option) *agent.Agent {
	t.Helper()
	a, err := agent.New(p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
