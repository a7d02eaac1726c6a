// The docs/COMPOSE.md example: two agents asked at once, merged by a func,
// with the roll-up of their standings.

package compose_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

func ExampleNew() {
	logs, _ := agent.New(scripted.New(scripted.Reply{Content: "No errors in the logs."}), agent.WithID("logs"))
	deploys, _ := agent.New(scripted.New(scripted.Reply{Content: "v412 went out at 08:58."}), agent.WithID("deploys"))
	merge := func(ctx context.Context, outs []compose.Outcome) (string, error) {
		var parts []string
		for _, o := range outs { // declared order, whatever finished first
			parts = append(parts, o.Agent+": "+o.Answer)
		}
		return strings.Join(parts, "\n"), nil
	}
	lead, err := compose.New("triage", compose.Parallel("ask", compose.ParallelOptions{Limit: 2, Merge: merge},
		compose.Call("logs", logs), compose.Call("deploys", deploys)))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := lead.Run(context.Background(), agent.Input{Message: "Why is checkout failing?"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Answer)
	fmt.Println("standing:", res.RollUp.Standing)
	for _, c := range res.Record.Log.Commits[1:] {
		fmt.Print(c.RuntimeStageID, " ")
	}
	fmt.Println()
	// Output:
	// logs: No errors in the logs.
	// deploys: v412 went out at 08:58.
	// standing: not-assessed
	// seed#0 agent:logs#1 agent:deploys#2 merge:ask#3 answer#4
}
