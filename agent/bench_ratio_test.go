// The side-by-side benchmark: one turn of ten tool-calling model calls, run
// by a bare Go loop (the same scripted provider and tool, a history slice,
// nothing recorded) and by the agent, interleaved in one benchmark run so the
// reported ratio is measured under the same load.
//
// The CPU time measured is the whole process's, so it includes the garbage
// collector's background work, which runs beside whichever loop is running
// when a cycle starts. Turn-by-turn interleaving let that land on either side
// by chance, and the chance moved with the allocation pattern: one variant
// read 4.4x turn by turn where it reads 2.6x in blocks and 2.4x with the
// collector off. The turns are therefore run
// in blocks (-ratio.block, 32 turns: several collector cycles of the loop's
// own garbage), each side's block right after the other's, and the order
// flips from one pair of blocks to the next, so each loop pays for the
// collection of its own garbage and the little that spills past a block's
// end falls on both sides alike. -ratio.block=1 is the turn-by-turn order.

package agent_test

import (
	"context"
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/internal/agenttest"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/internal/benchpair"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

var ratioBlock = flag.Int("ratio.block", 32, "turns per block in BenchmarkAgentVsBareLoop (1: turn by turn)")

// ratioCalls is the number of tool-calling model calls per turn; the turn
// makes one more to answer.
const ratioCalls = 10

func ratioReplies() []scripted.Reply {
	var rs []scripted.Reply
	for i := range ratioCalls {
		rs = append(rs, scripted.Reply{ToolCalls: []llm.ToolCall{call(fmt.Sprintf("c%d", i), "service_status", `{"service":"checkout"}`)}})
	}
	return append(rs, scripted.Reply{Content: "Checkout is degraded."})
}

// bareTurn is what an agent turn does, without a framework: call the model,
// run each tool call, append to the history, until the model answers.
func bareTurn(ctx context.Context, p llm.Provider, t *tool.Tool, system, question string) (string, error) {
	d := t.Declaration()
	schemas := []llm.ToolSchema{{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema}}
	hist := []llm.Message{{Role: llm.RoleUser, Content: question}}
	for {
		req := &llm.Request{Messages: append([]llm.Message{{Role: llm.RoleSystem, Content: system}}, hist...), Tools: schemas}
		resp, err := p.Complete(ctx, req)
		if err != nil {
			return "", err
		}
		hist = append(hist, llm.Message{Role: llm.RoleAssistant, Content: resp.Content, ToolCalls: resp.ToolCalls})
		if len(resp.ToolCalls) == 0 {
			return resp.Content, nil
		}
		for _, c := range resp.ToolCalls {
			if rej := toolrun.Validate(d, c.Args, c.ArgsError); rej != nil {
				return "", rej
			}
			out, err := toolrun.Execute(ctx, d, c.Args)
			if err != nil {
				return "", err
			}
			text, err := toolrun.Text(out.Value)
			if err != nil {
				return "", err
			}
			hist = append(hist, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, ToolName: c.Name, Content: text})
		}
	}
}

// BenchmarkAgentVsBareLoop reports, per model call, the CPU time of the bare
// loop and of the agent (full recording, with layers armed, and three
// lighter recordings that show what parts of it cost) and their ratio, in
// blocks of turns (see the top of this file). b.N counts turn pairs.
func BenchmarkAgentVsBareLoop(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts []agent.Option
	}{
		{"record=full", nil},
		{"layers=results+limits", []agent.Option{agent.WithResultsLayer(), agent.WithLimitsBlock()}},
		{"layers=inputs+time", []agent.Option{agent.WithInputsLayer(), agent.WithTimeLayer("UTC")}},
		// Diagnostics, no target: what full recording costs without the
		// event log, without the request and response bytes (their hashes
		// and spans are still kept), and without either.
		{"record=no-events", []agent.Option{agent.WithoutEventLog()}},
		{"record=hash-only", []agent.Option{agent.WithCapture(record.CaptureHashOnly)}},
		{"record=hash-only+no-events", []agent.Option{agent.WithoutEventLog(), agent.WithCapture(record.CaptureHashOnly)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			st := agenttest.RatioTool()
			bareP := scripted.New(ratioReplies()...)
			agentP := scripted.New(ratioReplies()...)
			a, err := agent.New(agentP, append([]agent.Option{agent.WithTools(st), agent.WithSystemPrompt("You triage incidents."), agent.WithMaxIterations(ratioCalls + 1)}, bc.opts...)...)
			if err != nil {
				b.Fatal(err)
			}
			var bare, full time.Duration
			runBare := func(k int) {
				c0 := agenttest.CPUTime()
				for range k {
					bareP.Reset()
					if _, err := bareTurn(ctx, bareP, st, "You triage incidents.", "What is broken?"); err != nil {
						b.Fatal(err)
					}
				}
				bare += agenttest.CPUTime() - c0
			}
			runAgent := func(k int) {
				c0 := agenttest.CPUTime()
				for range k {
					agentP.Reset()
					if _, err := a.Run(ctx, agent.Input{Message: "What is broken?"}); err != nil {
						b.Fatal(err)
					}
				}
				full += agenttest.CPUTime() - c0
			}
			b.ReportAllocs()
			b.ResetTimer()
			benchpair.Run(b.N, *ratioBlock, runBare, runAgent)
			calls := float64(b.N * (ratioCalls + 1))
			b.ReportMetric(float64(bare.Microseconds())/calls, "bare-cpu-µs/call")
			b.ReportMetric(float64(full.Microseconds())/calls, "agent-cpu-µs/call")
			b.ReportMetric(float64(full)/float64(bare), "agent/bare")
		})
	}
}
