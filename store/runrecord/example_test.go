package runrecord_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/store/runrecord"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

// A turn is saved after Run returns and read back by its id in another process.
func Example() {
	dir, _ := os.MkdirTemp("", "runrecord")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "runs.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()

	a, _ := agent.New(scripted.New(scripted.Reply{Content: "Checkout is healthy."}))
	res, runErr := a.Run(ctx, agent.Input{Message: "Is checkout healthy?"})
	info, err := runrecord.Save(ctx, st, res, runErr)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(info.Status, info.Answer)

	rec, _, err := runrecord.Load(ctx, st, info.ID)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Manifest.RunID == res.RunID, len(rec.Blobs) == len(res.Record().Blobs))
	// Output:
	// complete Checkout is healthy.
	// true true
}
