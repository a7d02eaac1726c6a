package lens_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// TestSiteWithoutLine checks that a tool whose definition site has no Go line
// (a tool an MCP server serves) is shown at its server, without ":0", on the
// BORN line of its result's suspect card and in the tools list.
func TestSiteWithoutLine(t *testing.T) {
	const server = "mcp server echoer (http: http://127.0.0.1:9)"
	echo, err := tool.New("echo", "Echoes the message.", func(ctx context.Context, in struct {
		Message string `json:"message"`
	}) (string, error) {
		return "Echo: " + in.Message, nil
	}, tool.WithDefinitionSite(tool.Site{File: server, Function: "tool echo"}))
	if err != nil {
		t.Fatal(err)
	}
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "echo", Args: json.RawMessage(`{"message":"hi"}`)}}},
		scripted.Reply{Content: "It said: Echo: hi."},
	)
	a, err := agent.New(p, agent.WithID("echoer"), agent.WithTools(echo))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Echo hi"})
	if err != nil {
		t.Fatal(err)
	}
	html := page(t, res.Record)
	site := `<code class="site">` + server + `</code> <span class="fn">tool echo</span>`
	back := section(t, html, "backtrack")
	i := strings.Index(back, `<li class="hop born">`)
	if i < 0 {
		t.Fatalf("no BORN line in:\n%s", back)
	}
	born := back[i : i+strings.Index(back[i:], "</li>")]
	if !strings.Contains(back, site) {
		t.Errorf("no BORN line shows the server as the site %q:\n%s", site, born)
	}
	mustContain(t, "tools list", section(t, html, "units"), `<code>echo</code> defined at `+site)
	if strings.Contains(html, ":0</code>") {
		t.Error("a site without a line is shown with :0")
	}
}
