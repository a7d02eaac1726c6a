// The README's "Use it in Go" walk-through: an agent with a typed tool on the
// scripted model, a conversation of two turns, the run kept in a store, and
// its answer walked back from Go.

package explain_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

func Example_conversation() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "readme-example")
	defer os.RemoveAll(dir)

	disk, err := tool.New("disk_usage", "Report how full a host's disk is.",
		func(ctx context.Context, in struct {
			Host string `json:"host" jsonschema:"the host to check"`
		}) (string, error) {
			return in.Host + ": 91% used", nil
		})
	if err != nil {
		fmt.Println(err)
		return
	}
	model := scripted.New( // replies in order; any llm.Provider works here
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "disk_usage", Args: []byte(`{"host":"db-1"}`)}}},
		scripted.Reply{Content: "db-1 is 91% full."},
		scripted.Reply{Content: "Nothing else needs a look."},
	)
	a, err := agent.New(model, agent.WithTools(disk), agent.WithResultsLayer())
	if err != nil {
		fmt.Println(err)
		return
	}
	conv := a.NewConversation()
	first, err := conv.Send(ctx, agent.Input{Message: "Is db-1 running out of disk?"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(first.Answer)
	second, err := conv.Send(ctx, agent.Input{Message: "Anything else?"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(second.Answer, len(conv.History()))

	st, err := sqlite.Open(ctx, filepath.Join(dir, "runs.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	info, err := store.SaveResult(ctx, st, first, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	rec, _, err := store.LoadRecord(ctx, st, info.ID)
	if err != nil {
		fmt.Println(err)
		return
	}
	ch, err := explain.Backtrack(rec, explain.Target{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// ch.WriteText(os.Stdout) prints the whole chain as `agentfootprint explain` does.
	fmt.Println(ch.Suspects[0].Name, ch.Suspects[0].Unit, ch.Suspects[0].Landed.Step)
	// Output:
	// db-1 is 91% full.
	// Nothing else needs a look. 6
	// tool:disk_usage history/2 tool-calls#9
}
