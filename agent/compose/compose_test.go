// Tests of compositions: each composition, the one record, pauses through
// the outer run, bad input, and the honesty roll-up.

package compose_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	assessfold "github.com/agentfootprint/agentfootprint-go/internal/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

// echoAgent answers "<prefix>: <the message>" with no tools.
func echoAgent(t testing.TB, id, prefix string) (*agent.Agent, *scripted.Provider) {
	t.Helper()
	p := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		last := req.Messages[len(req.Messages)-1].Content
		return scripted.Reply{Content: prefix + ": " + last}
	})
	return mustNew(t, p, agent.WithID(id)), p
}

func commitIDs(log *flow.Record) []string {
	var out []string
	for _, c := range log.Commits[1:] {
		out = append(out, c.RuntimeStageID)
	}
	return out
}

func TestComposeSequence(t *testing.T) {
	one, _ := echoAgent(t, "one", "first")
	two, p2 := echoAgent(t, "two", "second")
	comp := compose.MustNew("pipeline", compose.Sequence(compose.Call("one", one), compose.Call("two", two)))
	res, err := comp.Run(context.Background(), agent.Input{Message: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "second: first: hello" {
		t.Errorf("answer = %q", res.Answer)
	}
	if got := p2.Requests()[0].Messages; got[len(got)-1].Content != "first: hello" {
		t.Errorf("second agent's input = %q", got[len(got)-1].Content)
	}
	rec := res.Record
	if diff := cmp.Diff([]string{"seed#0", "agent:one#1", "agent:two#2", "answer#3"}, commitIDs(rec.Log)); diff != "" {
		t.Errorf("outer commits (-want +got):\n%s", diff)
	}
	for _, node := range []string{"agent:one#1", "agent:two#2"} {
		sub := rec.Log.Subflows[node]
		if sub == nil || len(sub.Commits) < 3 || !strings.HasPrefix(sub.RunID, res.RunID+"/") {
			t.Errorf("inner log under %s = %+v, want the inner run under the outer run id", node, sub)
		}
	}
	var paths []string
	for _, ev := range rec.Events.All() {
		if p := strings.Join(ev.Meta.CompositionPath, "/"); !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	if diff := cmp.Diff([]string{"pipeline/one", "pipeline/two"}, paths); diff != "" {
		t.Errorf("event composition paths (-want +got):\n%s", diff)
	}
	// One record: it encodes and decodes as a record of its own.
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.Decode(b)
	if err != nil {
		t.Fatalf("record.Decode: %v", err)
	}
	if back.Manifest.AgentID != "pipeline" || back.Manifest.Provider != compose.Provider || len(back.Log.Subflows) != 2 {
		t.Errorf("decoded manifest %+v with %d subflows", back.Manifest, len(back.Log.Subflows))
	}
}

// gateAgent's one tool waits on wait (if set) and closes done (if set).
func gateAgent(t testing.TB, id string, wait <-chan struct{}, done chan<- struct{}, inFlight, most *atomic.Int32) *agent.Agent {
	t.Helper()
	work := tool.Must(tool.New("work", "Work.", func(ctx context.Context, in waitIn) (string, error) {
		if inFlight != nil {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(5 * time.Millisecond)
		}
		if wait != nil {
			select {
			case <-wait:
			case <-time.After(2 * time.Second):
				return "", errors.New("gave up waiting")
			}
		}
		if done != nil {
			close(done)
		}
		return id + " worked", nil
	}))
	p := scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		if call == 1 {
			return scripted.Reply{ToolCalls: []llm.ToolCall{call0("w", "work", `{"name":"x"}`)}}
		}
		return scripted.Reply{Content: id + " answer"}
	})
	return mustNew(t, p, agent.WithID(id), agent.WithTools(work))
}

func call0(id, name, args string) llm.ToolCall { return call(id, name, args) }

// TestComposeParallelDeclaredOrder: the branch declared first waits for the
// branch declared last, so it finishes last; the merge, the commits and the
// outcomes still read in declared order.
func TestComposeParallelDeclaredOrder(t *testing.T) {
	lastDone := make(chan struct{})
	slow := gateAgent(t, "slow", lastDone, nil, nil, nil)
	fast := gateAgent(t, "fast", nil, lastDone, nil, nil)
	var seen []string
	merge := func(ctx context.Context, outs []compose.Outcome) (string, error) {
		for _, o := range outs {
			seen = append(seen, o.Agent+"="+o.Answer)
		}
		return strings.Join(seen, "; "), nil
	}
	comp := compose.MustNew("fan", compose.Parallel("both", compose.ParallelOptions{Merge: merge},
		compose.Call("slow", slow), compose.Call("fast", fast)))
	res, err := comp.Run(context.Background(), agent.Input{Message: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"slow=slow answer", "fast=fast answer"}, seen); diff != "" {
		t.Errorf("merge saw (-want +got):\n%s", diff)
	}
	if res.Answer != "slow=slow answer; fast=fast answer" {
		t.Errorf("answer = %q", res.Answer)
	}
	ids := commitIDs(res.Record.Log)
	if i, j := slices.Index(ids, "agent:slow#1"), slices.Index(ids, "agent:fast#2"); i < 0 || j != i+1 {
		t.Errorf("branch commits %v, want slow then fast in declared order", ids)
	}
	var got []string
	for _, o := range res.Outcomes {
		got = append(got, o.Agent)
	}
	if diff := cmp.Diff([]string{"slow", "fast"}, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

func TestComposeParallelLimit(t *testing.T) {
	var inFlight, most atomic.Int32
	var branches []compose.Step
	for _, id := range []string{"a", "b", "c"} {
		branches = append(branches, compose.Call(id, gateAgent(t, id, nil, nil, &inFlight, &most)))
	}
	join := func(ctx context.Context, outs []compose.Outcome) (string, error) { return fmt.Sprint(len(outs)), nil }
	comp := compose.MustNew("bounded", compose.Parallel("three", compose.ParallelOptions{Limit: 1, Merge: join}, branches...))
	res, err := comp.Run(context.Background(), agent.Input{Message: "go"})
	if err != nil || res.Answer != "3" {
		t.Fatalf("answer %q, err %v", res.Answer, err)
	}
	if m := most.Load(); m != 1 {
		t.Errorf("%d branches ran at once under a limit of 1", m)
	}
}

// failingAgent's model call fails.
func failingAgent(t testing.TB, id string) *agent.Agent {
	return mustNew(t, scripted.New(), agent.WithID(id))
}

func TestComposeParallelFailures(t *testing.T) {
	ok, _ := echoAgent(t, "ok", "fine")
	join := func(ctx context.Context, outs []compose.Outcome) (string, error) {
		var parts []string
		for _, o := range outs {
			parts = append(parts, o.Agent+":"+fmt.Sprint(o.Error != ""))
		}
		return strings.Join(parts, ","), nil
	}
	t.Run("required fails fast", func(t *testing.T) {
		comp := compose.MustNew("strict", compose.Parallel("p", compose.ParallelOptions{Merge: join},
			compose.Call("ok", ok), compose.Required(compose.Call("broken", failingAgent(t, "broken")))))
		res, err := comp.Run(context.Background(), agent.Input{Message: "go"})
		var ie *compose.InnerError
		if !errors.As(err, &ie) || ie.Agent != "broken" {
			t.Fatalf("err = %v, want an InnerError naming broken", err)
		}
		if res == nil || res.Record == nil || res.Record.Log.Subflows["agent:broken#2"] == nil {
			t.Fatalf("the failed inner run is not in the outer record")
		}
		if res.Record.Manifest.Complete {
			t.Errorf("a failed run is marked complete")
		}
	})
	t.Run("tolerant is an outcome", func(t *testing.T) {
		comp := compose.MustNew("lenient", compose.Parallel("p", compose.ParallelOptions{Merge: join},
			compose.Call("ok", ok), compose.Call("broken", failingAgent(t, "broken"))))
		res, err := comp.Run(context.Background(), agent.Input{Message: "go"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Answer != "ok:false,broken:true" {
			t.Errorf("answer = %q", res.Answer)
		}
		ru := res.RollUp
		if ru.Standing != assess.StandingNotSure || len(ru.Reasons) != 1 || ru.Reasons[0].Reason != compose.ReasonInnerFailed || ru.Reasons[0].Agent != "broken" {
			t.Errorf("roll-up = %+v", ru)
		}
	})
	t.Run("merge panics", func(t *testing.T) {
		boom := func(ctx context.Context, outs []compose.Outcome) (string, error) { panic("merge bug") }
		comp := compose.MustNew("m", compose.Parallel("p", compose.ParallelOptions{Merge: boom}, compose.Call("ok", ok)))
		res, err := comp.Run(context.Background(), agent.Input{Message: "go"})
		if err == nil || !strings.Contains(err.Error(), `the merge of parallel "p" panicked: merge bug`) {
			t.Fatalf("err = %v", err)
		}
		if res.Record.Log.Subflows["agent:ok#1"] == nil {
			t.Errorf("the branch's run was lost with the merge's panic")
		}
	})
}

func TestComposeLoop(t *testing.T) {
	for _, tc := range []struct {
		name   string
		until  func(string) bool
		passes int
		exit   string
	}{
		{"budget", nil, 3, "budget"},
		{"until", func(a string) bool { return strings.Count(a, "again") == 2 }, 2, "until"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, p := echoAgent(t, "refine", "again")
			comp := compose.MustNew("refiner", compose.Loop("polish", compose.Call("refine", a), 3, tc.until))
			res, err := comp.Run(context.Background(), agent.Input{Message: "draft"})
			if err != nil {
				t.Fatal(err)
			}
			if p.Calls() != tc.passes || len(res.Outcomes) != tc.passes {
				t.Errorf("%d model calls, %d outcomes; want %d passes", p.Calls(), len(res.Outcomes), tc.passes)
			}
			log := res.Record.Log
			v, _, _ := flow.ValueAt(log, len(log.Commits)-1, "loop:polish:exit")
			if v != tc.exit {
				t.Errorf("exit reason = %v, want %s", v, tc.exit)
			}
			var last *flow.Decision
			for _, c := range log.Commits {
				if c.CommitDetail != nil && c.StageID == "loop:polish:check" {
					last = c.Decision
				}
			}
			if last == nil || last.Chosen[0] != "exit" {
				t.Errorf("the last loop decision = %+v, want exit", last)
			}
		})
	}
}

func TestComposeConditional(t *testing.T) {
	db, _ := echoAgent(t, "db", "database")
	web, pw := echoAgent(t, "web", "frontend")
	router := func(ctx context.Context, msg string) (string, string, error) {
		if strings.Contains(msg, "query") {
			return "db", "the message mentions a query", nil
		}
		return "web", "no database words", nil
	}
	comp := compose.MustNew("router", compose.Conditional("pick", router,
		compose.Route{Name: "db", Step: compose.Call("db", db)}, compose.Route{Name: "web", Step: compose.Call("web", web)}))
	res, err := comp.Run(context.Background(), agent.Input{Message: "slow query on orders"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "database: slow query on orders" || pw.Calls() != 0 {
		t.Errorf("answer %q, web calls %d", res.Answer, pw.Calls())
	}
	log := res.Record.Log
	var dec *flow.Commit
	for _, c := range log.Commits {
		if c.CommitDetail != nil && c.StageID == "route:pick" {
			dec = c
		}
	}
	if dec == nil || dec.Decision == nil || dec.Decision.Chosen[0] != "db" || dec.Decision.Rules[0].Conditions[0].Actual != `"db"` {
		t.Fatalf("router decision = %+v", dec)
	}
	if why, _, _ := flow.ValueAt(log, dec.Idx, "route:pick:why"); why != "the message mentions a query" {
		t.Errorf("recorded reason = %v", why)
	}
	bad := compose.MustNew("router2", compose.Conditional("pick", func(context.Context, string) (string, string, error) { return "mobile", "", nil },
		compose.Route{Name: "db", Step: compose.Call("db", db)}))
	if _, err := bad.Run(context.Background(), agent.Input{Message: "x"}); err == nil || !strings.Contains(err.Error(), `the router chose "mobile", which is not a route (routes: db)`) {
		t.Errorf("unknown route: %v", err)
	}
}

func TestComposeRefusals(t *testing.T) {
	a, _ := echoAgent(t, "a", "a")
	join := func(context.Context, []compose.Outcome) (string, error) { return "", nil }
	for _, tc := range []struct {
		name string
		root compose.Step
		want string
	}{
		{"unnamed agent", compose.Call("", a), `agent: a name is required`},
		{"duplicate agent", compose.Sequence(compose.Call("x", a), compose.Call("x", a)), `agent "x": the name is used twice`},
		{"nil agent", compose.Call("x", nil), `agent "x": the agent is nil`},
		{"loop without budget", compose.Loop("again", compose.Call("x", a), 0, nil), `loop "again": a budget of at least one pass is required, got 0`},
		{"parallel without merge", compose.Parallel("p", compose.ParallelOptions{}, compose.Call("x", a)), `parallel "p": exactly one of Merge and MergeAgent is required`},
		{"parallel branch not a call", compose.Parallel("p", compose.ParallelOptions{Merge: join}, compose.Sequence(compose.Call("x", a))), `parallel "p": branch 0 is a sequence`},
		{"required not a call", compose.Sequence(compose.Required(compose.Sequence(compose.Call("x", a)))), `Required wraps a Call, not a sequence`},
		{"empty sequence", compose.Sequence(), `sequence: it has no steps`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := compose.New("c", tc.root)
			if err == nil || !strings.HasPrefix(err.Error(), "agent: composition: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New = %v, want a refusal naming the step, containing %q", err, tc.want)
			}
		})
	}
}

// TestComposeInnerPause: an inner agent's pause pauses the composition; the
// answer resumes it through the outer run, and the rest runs.
func TestComposeInnerPause(t *testing.T) {
	var c counter
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("q1", "ask_approval", `{"action":"rollback"}`)}},
		scripted.Reply{Content: "rollback approved"},
	)
	ops := mustNew(t, p, agent.WithID("ops"), agent.WithTools(approvalTool(t, &c)))
	writer, _ := echoAgent(t, "writer", "summary")
	comp := compose.MustNew("incident", compose.Sequence(compose.Call("ops", ops), compose.Call("writer", writer)))
	res, err := comp.Run(context.Background(), agent.Input{Message: "roll back checkout"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Paused || res.PauseData == nil || res.PauseData.ToolName != "ask_approval" || res.Checkpoint == nil || res.Checkpoint.Agent() != "ops" {
		t.Fatalf("paused=%v data=%+v", res.Paused, res.PauseData)
	}
	// The checkpoint survives JSON (another process would load it so).
	saved, err := json.Marshal(res.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := comp.LoadCheckpoint(saved)
	if err != nil {
		t.Fatal(err)
	}
	other := compose.MustNew("other", compose.Call("ops", ops))
	var ce *agent.CheckpointError
	if _, err := other.LoadCheckpoint(saved); !errors.As(err, &ce) || ce.Field != "composition" {
		t.Errorf("loading into another composition: %v", err)
	}
	done, err := comp.Resume(context.Background(), cp, json.RawMessage(`"yes, go"`))
	if err != nil {
		t.Fatal(err)
	}
	if done.Answer != "summary: rollback approved" {
		t.Errorf("answer = %q", done.Answer)
	}
	rec := done.Record
	if len(rec.Manifest.Legs) != 2 || rec.Manifest.Legs[1].ResumedFrom != res.RunID {
		t.Errorf("legs = %+v", rec.Manifest.Legs)
	}
	var inner []string
	for k := range rec.Log.Subflows {
		inner = append(inner, k)
	}
	slices.Sort(inner)
	if len(inner) != 3 { // the paused leg of ops, its resumed leg, the writer
		t.Errorf("inner runs kept = %v, want three", inner)
	}
}

// TestComposeRollUp: an inner agent whose store does not hold the period it
// searched makes the outer standing not-sure, naming the inner run and row.
func TestComposeRollUp(t *testing.T) {
	logsP := scripted.New(oneCall("c1"), scripted.Reply{Content: "No failed backups found."})
	logs := mustNew(t, logsP, agent.WithID("backups"), agent.WithResultsLayer(),
		agent.WithTools(queueTool(t, "backup_runs", s1Absent(t, rlStale))))
	other, _ := echoAgent(t, "other", "other")
	join := func(ctx context.Context, outs []compose.Outcome) (string, error) {
		return outs[0].Answer + " / " + outs[1].Answer, nil
	}
	comp := compose.MustNew("lead", compose.Parallel("ask", compose.ParallelOptions{Merge: join},
		compose.Call("backups", logs), compose.Call("other", other)))
	res, err := comp.Run(context.Background(), agent.Input{Message: "Any failed backups at 09:00?"})
	if err != nil {
		t.Fatal(err)
	}
	ru := res.RollUp
	if ru.Standing != assess.StandingNotSure {
		t.Errorf("standing = %s, want not-sure", ru.Standing)
	}
	var names []string
	for _, r := range ru.Reasons {
		names = append(names, r.Agent+":"+r.Reason)
		if r.Node != "agent:backups#1" || r.RunID == "" || len(r.Witness) == 0 {
			t.Errorf("reason %+v does not point into the inner run", r)
		}
	}
	if diff := cmp.Diff([]string{"backups:declared-absent", "backups:period-not-held"}, names); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
	// Each witness resolves in the inner log kept under the node.
	inner := res.Record.Log.Subflows["agent:backups#1"]
	st, err := assessfold.InputFromRecord(inner)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ru.Reasons {
		for _, w := range r.Witness {
			if _, ok := assessfold.Resolve(w, st); !ok {
				t.Errorf("witness %+v of %s does not resolve in the inner record", w, r.Reason)
			}
		}
	}
	// The same roll-up from the record's JSON, as a store keeps it.
	b, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(mustJSON(t, ru), mustJSON(t, compose.RollUpOf(back))); diff != "" {
		t.Errorf("roll-up of the decoded record differs (-live +decoded):\n%s", diff)
	}
	if b := res.LimitsBlock; !strings.Contains(b, `From agent "backups" (agent:backups#1):`) {
		t.Errorf("limits block = %q", b)
	}
	if res.Assessment.Standing != assess.StandingNotSure {
		t.Errorf("Assessment().Standing = %s", res.Assessment.Standing)
	}
	// Ablation: without the backups agent the not-sure reasons go, and
	// the merge sees its branch as removed.
	logsP.Reset()
	without, err := comp.Without("backups")
	if err != nil {
		t.Fatal(err)
	}
	ab, err := without.Run(context.Background(), agent.Input{Message: "Any failed backups at 09:00?"})
	if err != nil {
		t.Fatal(err)
	}
	if logsP.Calls() != 0 || !ab.Outcomes[0].Removed || ab.RollUp.Standing != assess.StandingNotAssessed || len(ab.RollUp.Reasons) != 0 {
		t.Errorf("ablated run: %d calls of the removed agent, outcomes %+v, roll-up %+v", logsP.Calls(), ab.Outcomes, ab.RollUp)
	}
	if ab.Answer == res.Answer {
		t.Errorf("the ablated answer %q did not change", ab.Answer)
	}
	if _, err := comp.Without("nobody"); err == nil || !strings.Contains(err.Error(), `agent "nobody": not an inner agent of composition "lead" (agents: backups, other)`) {
		t.Errorf("Without(nobody) = %v", err)
	}
}

// TestAgentAsTool: the outer model is served the inner answer (with the
// inner standing), and the inner run is kept under the tool-call id.
func TestAgentAsTool(t *testing.T) {
	innerP := scripted.New(oneCall("c1"), scripted.Reply{Content: "No failed backups found."})
	inner := mustNew(t, innerP, agent.WithID("backups"), agent.WithResultsLayer(),
		agent.WithTools(queueTool(t, "backup_runs", s1Absent(t, rlStale))))
	outerP := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("ask1", "ask_backups", `{"question":"Any failed backups at 09:00?"}`)}},
		scripted.Reply{Content: "The backup agent could not see 09:00."},
	)
	outer := mustNew(t, outerP, agent.WithID("lead"), agent.WithTools(tool.Must(agent.AsTool("ask_backups", "Ask the backup agent.", inner))))
	res, err := outer.Run(context.Background(), agent.Input{Message: "backups?"})
	if err != nil {
		t.Fatal(err)
	}
	served := toolMessages(outerP.Requests()[1].Messages)
	if len(served) != 1 || !strings.HasPrefix(served[0], "ask1:No failed backups found.") || !strings.Contains(served[0], `rates this answer not-sure: declared-absent, period-not-held`) {
		t.Errorf("served = %q", served)
	}
	if got := innerP.Requests()[0].Messages; got[len(got)-1].Content != "Any failed backups at 09:00?" {
		t.Errorf("inner question = %q", got[len(got)-1].Content)
	}
	sub := res.Record.Log.Subflows["ask1"]
	if sub == nil || sub.RunID != "ask1" || len(sub.Commits) < 4 {
		t.Fatalf("inner log under the tool-call id = %+v", sub)
	}
	innerEvents := 0
	for _, ev := range res.Record.Events.All() {
		if strings.Join(ev.Meta.CompositionPath, "/") == "lead/backups" {
			innerEvents++
		}
	}
	if innerEvents == 0 {
		t.Errorf("no inner events in the outer record")
	}
}
