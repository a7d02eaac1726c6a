// Runnable examples, one per concept of the engine.

package flow_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// counterChart loops "work" until count reaches 3, then "finish" returns
// the notes.
func counterChart() *flow.Chart {
	count := flow.Key[int]("count")
	notes := flow.List[string]("notes")
	return flow.NewBuilder("counter").
		Keys(count, notes).
		Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
			count.Set(s, 0)
			return nil, nil
		}).
		Stage("work", func(ctx context.Context, s *flow.Scope) (any, error) {
			n, _ := count.Get(s)
			count.Set(s, n+1)
			notes.Append(s, fmt.Sprint("pass ", n+1))
			s.Emit("counter.tick", func() any { return n + 1 })
			return nil, nil
		}).
		Decider("route", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, []flow.Rule{{
				Label: "fewer than three passes", Branch: "again",
				When: func(r flow.Reader) bool { n, _ := count.Get(r); return n < 3 },
			}}, "done"), nil
		},
			flow.Branch("again").LoopTo("work"),
			flow.Branch("done").Stage("finish", func(ctx context.Context, s *flow.Scope) (any, error) {
				return notes.Get(s), nil
			}),
		).
		MustBuild()
}

// A chart is built once and run many times; each run returns its output and
// the record of every executed stage.
func Example() {
	res, err := counterChart().Run(context.Background(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Output)
	for _, c := range res.Record.Commits {
		fmt.Print(c.RuntimeStageID, " ")
	}
	fmt.Println()
	// Output:
	// [pass 1 pass 2 pass 3]
	// input seed#0 work#1 route#2 work#3 route#4 work#5 route#6 finish#7
}

// A decider records which rule chose the branch and which keys it read; the
// stages it governs carry a control edge back to it.
func ExampleDecide() {
	res, _ := counterChart().Run(context.Background(), nil)
	route := res.Record.Commits[3]
	rule := route.Decision.Rules[0]
	fmt.Println(route.Decision.Chosen, rule.Label, rule.Matched, rule.Reads)
	next := res.Record.Commits[4]
	fmt.Printf("%s governed by %s via %q\n", next.RuntimeStageID, next.Control.Decider, next.Control.Rule)
	// Output:
	// [again] fewer than three passes true [count]
	// work#3 governed by route#2 via "fewer than three passes"
}

// ValueAt replays a key as of any commit from the delta log; append commits
// store only their tails.
func ExampleValueAt() {
	res, _ := counterChart().Run(context.Background(), nil)
	fmt.Println(res.Record.Commits[4].Ops[1].Value) // the tail appended by work#3
	v, _, _ := flow.ValueAt(res.Record, 4, "notes")
	fmt.Println(v)
	// Output:
	// [pass 2]
	// [pass 1 pass 2]
}

// A record survives JSON: decoded with the chart, values come back typed.
func ExampleChart_DecodeRecord() {
	c := counterChart()
	res, _ := c.Run(context.Background(), nil, flow.WithRunID("r1"))
	data, _ := json.Marshal(res.Record)
	back, err := c.DecodeRecord(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _, _ := flow.ValueAt(back, 2, "count")
	fmt.Printf("%T %v\n", v, v)
	// Output:
	// int 1
}

// A pausable stage stops the run with a JSON checkpoint; Resume continues
// from it without re-running earlier stages.
func ExampleChart_Resume() {
	approved := flow.Key[bool]("approved")
	c := flow.NewBuilder("mail").Keys(approved).
		Stage("draft", func(ctx context.Context, s *flow.Scope) (any, error) { return nil, nil }).
		Pausable("ask", flow.Pausable{
			Execute: func(ctx context.Context, s *flow.Scope) (*flow.Pause, error) {
				return &flow.Pause{Data: "may I send the email?"}, nil
			},
			Resume: func(ctx context.Context, s *flow.Scope, input json.RawMessage) error {
				var yes bool
				if err := json.Unmarshal(input, &yes); err != nil {
					return err
				}
				approved.Set(s, yes)
				return nil
			},
		}).
		Stage("send", func(ctx context.Context, s *flow.Scope) (any, error) {
			ok, _ := approved.Get(s)
			return fmt.Sprint("sent: ", ok), nil
		}).
		MustBuild()
	res, _ := c.Run(context.Background(), nil)
	fmt.Println(res.Paused, res.PauseData)

	data, _ := json.Marshal(res.Checkpoint) // store it anywhere
	var cp flow.Checkpoint
	_ = json.Unmarshal(data, &cp)
	out, err := c.Resume(context.Background(), &cp, json.RawMessage(`true`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Output)
	for _, cm := range out.Record.Commits {
		fmt.Print(cm.RuntimeStageID, " ")
	}
	fmt.Println()
	// Output:
	// true may I send the email?
	// sent: true
	// input draft#0 ask#1 ask#2 send#3
}

// A subflow runs with its own state and log, seeded by the input mapping
// and merged back only through explicit ops.
func ExampleBuilder_Mount() {
	items := flow.List[string]("items")
	verdicts := flow.List[string]("verdicts")
	judge := flow.NewBuilder("judge").Keys(items, verdicts).
		Stage("verify", func(ctx context.Context, s *flow.Scope) (any, error) {
			for _, it := range items.Get(s) {
				verdicts.Append(s, it+": ok")
			}
			return nil, nil
		}).MustBuild()
	findings := flow.List[string]("findings")
	c := flow.NewBuilder("host").Keys(findings).
		Mount("sf-results", judge, flow.Mount{
			Input: func(parent flow.Reader) (map[string]any, error) {
				return map[string]any{"items": []string{"a", "b"}}, nil
			},
			Output: func(res flow.SubflowResult, parent flow.Reader) ([]flow.Op, error) {
				return []flow.Op{findings.AppendOp(verdicts.Get(res.State)...)}, nil
			},
		}).
		Stage("report", func(ctx context.Context, s *flow.Scope) (any, error) { return findings.Get(s), nil }).
		MustBuild()
	res, _ := c.Run(context.Background(), nil)
	fmt.Println(res.Output)
	inner := res.Record.Subflows["sf-results#0"]
	fmt.Println(inner.Commits[1].RuntimeStageID)
	// Output:
	// [a: ok b: ok]
	// sf-results/verify#1
}

// Emit sends events to observers while the stage runs; the payload func runs
// only when somebody listens.
func ExampleScope_Emit() {
	hooks := &flow.Hooks{Emit: func(ev flow.Event) {
		fmt.Println(ev.Name, ev.RuntimeStageID, ev.Payload)
	}}
	_, _ = counterChart().Run(context.Background(), nil, flow.WithObserver("", hooks))
	// Output:
	// counter.tick work#1 1
	// counter.tick work#3 2
	// counter.tick work#5 3
}

// Slice walks backwards from a commit: data edges to the last writer of
// each key read, control edges to the governing decision.
func ExampleSlice() {
	res, _ := counterChart().Run(context.Background(), nil)
	sl, _ := flow.Slice(res.Record, 8, flow.SliceOptions{MaxDepth: 1})
	for _, e := range sl.Edges {
		fmt.Println(e.From, "->", e.To, e.Kind, e.Key+e.Rule)
	}
	w, _ := flow.LastWriter(res.Record, "count", 8)
	fmt.Println("count last written by", res.Record.Commits[w].RuntimeStageID)
	// Output:
	// finish#7 -> work#5 data notes
	// finish#7 -> route#6 control default
	// count last written by work#5
}

// ElementBirth finds the commit that appended one element of a list.
func ExampleElementBirth() {
	res, _ := counterChart().Run(context.Background(), nil)
	i, _, _ := flow.ElementBirth(res.Record, "notes", 1, len(res.Record.Commits)-1)
	fmt.Println(res.Record.Commits[i].RuntimeStageID)
	// Output:
	// work#3
}

// Fork children run concurrently and commit in declaration order.
func ExampleBuilder_Fork() {
	got := flow.List[string]("got")
	fetch := func(name string) flow.StageFunc {
		return func(ctx context.Context, s *flow.Scope) (any, error) {
			got.Append(s, name)
			return nil, nil
		}
	}
	c := flow.NewBuilder("fan").Keys(got).
		Fork("fetch", flow.ForkOptions{}, flow.NewChild("docs", fetch("docs")), flow.NewChild("web", fetch("web"))).
		Stage("merge", func(ctx context.Context, s *flow.Scope) (any, error) { return got.Get(s), nil }).
		MustBuild()
	res, _ := c.Run(context.Background(), nil)
	fmt.Println(res.Output)
	// Output:
	// [docs web]
}

// Redacted keys are listed on the commits that write them and masked when
// the record is encoded; the run itself still reads the real value.
func ExampleBuilder_Redact() {
	token := flow.Key[string]("token")
	c := flow.NewBuilder("login").Keys(token).Redact("token").
		Stage("auth", func(ctx context.Context, s *flow.Scope) (any, error) {
			token.Set(s, "s3cr3t")
			return nil, nil
		}).MustBuild()
	res, _ := c.Run(context.Background(), nil)
	data, _ := json.Marshal(res.Record.Commits[1])
	fmt.Println(string(data))
	// Output:
	// {"idx":1,"stage":"auth","stageId":"auth","runtimeStageId":"auth#0","reads":[],"ops":[{"key":"token","verb":"set","value":"[redacted]","readsBefore":0}],"redacted":["token"]}
}

// Structure describes a chart as data: nodes, edges (next, branch, loop,
// child) and declared keys.
func ExampleChart_Structure() {
	st := counterChart().Structure()
	for _, e := range st.Edges {
		to := e.To
		if to == "" {
			to = "(end)"
		}
		fmt.Printf("%s -%s %s-> %s\n", e.From, e.Kind, e.Label, to)
	}
	fmt.Println(st.Keys[1].Name, st.Keys[1].Type, st.Keys[1].List)
	// Output:
	// seed -next -> work
	// work -next -> route
	// route -loop again-> work
	// route -branch done-> finish
	// finish -next -> (end)
	// notes []string true
}
