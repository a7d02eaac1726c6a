// Tests of `agentfootprint mcp`: tools and call against an in-process go-sdk
// server over HTTP, serve --scenario read back by a go-sdk client, and the
// scenario that uses the npm peers, explained back to its MCP servers.

package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoArgs struct {
	Message string `json:"message"`
}

func echoServer(t *testing.T) string {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "echoer", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes the message.\nSecond line."}, func(_ context.Context, _ *sdk.CallToolRequest, in echoArgs) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
	})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestMCPToolsAndCall(t *testing.T) {
	url := echoServer(t)
	out, errOut, code := runCLI(t, "", "mcp", "tools", "--url", url)
	if code != 0 || out != "1 tools from echoer\n  echo: Echoes the message.\n" {
		t.Errorf("tools: code %d out %q err %q", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "", "mcp", "call", "echo", `{"message":"hi"}`, "--json", "--url", url)
	if code != 0 {
		t.Fatalf("call: code %d err %q", code, errOut)
	}
	var got struct {
		Server string `json:"server"`
		Check  struct {
			Recognized string `json:"recognized"`
			Served     string `json:"served"`
		} `json:"check"`
		Record struct {
			Result json.RawMessage `json:"result"`
		} `json:"record"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Server != "echoer" || got.Check.Recognized != "none" || got.Check.Served != "Echo: hi" || string(got.Record.Result) != `{"content":[{"type":"text","text":"Echo: hi"}]}` {
		t.Errorf("call report = %+v", got)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "call", "echo", `{"message":`, "--url", url}, "not valid JSON"},
		{[]string{"mcp", "call", "nope", `{}`, "--url", url}, `offers no tool "nope"`},
		{[]string{"mcp", "call", "echo", `{"message":1}`, "--url", url}, "/message"},
		{[]string{"mcp", "tools"}, "name the server"},
		{[]string{"mcp", "tools", "--url", url, "--", "node"}, "not both"},
		{[]string{"mcp", "serve"}, "--scenario FILE"},
	} {
		_, errOut, code := runCLI(t, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestMCPServeScenario(t *testing.T) {
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	root := newRootCmd()
	root.SetIn(serverIn)
	root.SetOut(serverOut)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"mcp", "serve", "--scenario", "testdata/mcp/canned.json"})
	done := make(chan error, 1)
	go func() { done <- root.Execute(); serverOut.Close() }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), &sdk.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "find_orders", Arguments: map[string]any{"customer": "ACME"}})
	if err != nil {
		t.Fatal(err)
	}
	var want any
	_ = json.Unmarshal([]byte(`{"outcome":"nothing_found","looked_for":"orders for ACME","checked":[{"what":"orders table","why":"every row"}]}`), &want)
	got := res.Meta["af_absent"].(map[string]any)
	delete(got, "note")
	delete(got, "retry_returns_the_same")
	if diff := cmp.Diff(want, any(got)); diff != "" {
		t.Errorf("_meta.af_absent (-want +got):\n%s", diff)
	}
	if sc, _ := res.StructuredContent.(map[string]any); sc["af_absent"] != true {
		t.Errorf("structuredContent = %v", res.StructuredContent)
	}
	cs.Close()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}

// npmPeers returns the npm directory of the MCP peers, skipping outside CI
// when they are absent and failing under CI=true.
func npmPeers(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("AF_MCP_NPM_DIR")
	_, nodeErr := exec.LookPath("node")
	_, pkgErr := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "package.json"))
	if dir == "" || nodeErr != nil || pkgErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but node or the MCP npm peers (AF_MCP_NPM_DIR) are missing; .ci/run installs them")
		}
		t.Skip("skipping: node or the MCP npm peers are missing (set AF_MCP_NPM_DIR; see .ci/run)")
	}
	return dir
}

func TestMCPScenarioExplainsBackToTheServer(t *testing.T) {
	npmPeers(t)
	out, errOut, code := runCLI(t, "", "scenario", "run", "--json", "testdata/mcp/peers.json")
	if code != 0 {
		t.Fatalf("scenario run: code %d\n%s", code, errOut)
	}
	var rep struct {
		Answer string          `json:"answer"`
		Record json.RawMessage `json:"record"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Answer != "The note says: Deploy freeze until Friday." {
		t.Errorf("answer %q", rep.Answer)
	}
	path := filepath.Join(t.TempDir(), "run.json")
	if err := os.WriteFile(path, rep.Record, 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI(t, "", "explain", path)
	if code != 0 {
		t.Fatalf("explain: code %d\n%s", code, errOut)
	}
	for _, want := range []string{"defined at mcp server filesystem (stdio: node ", "(tool read_text_file)", "defined at mcp server everything (stdio: node ", "(tool echo)"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
}

func TestMCPServeForTheTypeScriptClient(t *testing.T) {
	dir := npmPeers(t)
	bin := filepath.Join(t.TempDir(), "agentfootprint")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", "../../mcp/testdata/ts-client.mjs", filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk"),
		"find_orders", `{"customer":"ACME"}`, "--", bin, "mcp", "serve", "--scenario", "testdata/mcp/canned.json").Output()
	if err != nil {
		t.Fatalf("ts client: %v (%s)", err, out)
	}
	var res struct {
		Meta              map[string]any `json:"_meta"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	absent, _ := res.Meta["af_absent"].(map[string]any)
	if absent["looked_for"] != "orders for ACME" {
		t.Fatalf("_meta.af_absent = %v", res.Meta["af_absent"])
	}
	// The declaration under _meta is the envelope in structuredContent, but
	// its marker, read back unchanged by another language's client.
	env := map[string]any{}
	for k, v := range res.StructuredContent {
		if k != "af_absent" {
			env[k] = v
		}
	}
	if res.StructuredContent["af_absent"] != true {
		t.Errorf("structuredContent = %v", res.StructuredContent)
	}
	if diff := cmp.Diff(env, absent); diff != "" {
		t.Errorf("_meta.af_absent differs from the envelope (-envelope +_meta):\n%s", diff)
	}
}
