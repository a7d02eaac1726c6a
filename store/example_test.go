package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

// A turn is saved with one call after Run returns, and read back by its id, here or in
// another process (`agentfootprint show RUN --store FILE` reads the same file).
func ExampleSaveResult() {
	dir, _ := os.MkdirTemp("", "store-example")
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
	info, err := store.SaveResult(ctx, st, res, runErr)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(info.Status, info.Answer)

	rec, _, err := store.LoadRecord(ctx, st, info.ID)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Manifest.RunID == info.ID)
	// Output:
	// complete Checkout is healthy.
	// true
}
