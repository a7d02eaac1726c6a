// Runnable examples of Render and NewHandler.

package lens_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/lens"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

// A turn's record becomes one HTML file a person opens in a browser.
func ExampleRender() {
	a, _ := agent.New(scripted.New(scripted.Reply{Content: "Checkout is healthy."}))
	res, err := a.Run(context.Background(), agent.Input{Message: "Is checkout healthy?"})
	if err != nil {
		fmt.Println(err)
		return
	}
	var page bytes.Buffer
	if err := lens.Render(&page, res.Record); err != nil {
		fmt.Println(err)
		return
	}
	html := page.String()
	fmt.Println(strings.Contains(html, "Checkout is healthy."), strings.Contains(html, `http-equiv="Content-Security-Policy"`))
	// Output: true true
}

// The lens mounts under /lens/ on any mux: the list of stored runs and one
// page per run.
func ExampleNewHandler() {
	dir, _ := os.MkdirTemp("", "lens")
	defer os.RemoveAll(dir)
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "runs.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	h, err := lens.NewHandler(st, lens.WithStoreName("runs.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle(lens.Prefix, h)
	fmt.Println("mounted at", lens.Prefix)
	// Output: mounted at /lens/
}
