// Tests against real MCP peers from npm: the everything server over stdio
// and over streamable HTTP (bound to 127.0.0.1 by a preload), the
// filesystem server, and the official TypeScript SDK client calling our
// server. .ci/run installs the packages and sets AF_MCP_NPM_DIR; elsewhere
// the tests skip, and in CI (CI=true) a missing peer fails them.

package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/mcp"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// NPMDirEnv names the directory holding node_modules with
// @modelcontextprotocol/server-everything, server-filesystem and sdk.
const NPMDirEnv = "AF_MCP_NPM_DIR"

// peers returns node's path and the npm directory, skipping (or failing in
// CI) when either is missing.
func peers(t *testing.T) (node, dir string) {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but the MCP npm peers are missing: %s (.ci/run installs them)", why)
		}
		t.Skipf("skipping the MCP npm peer test: %s (run .ci/run, or npm install the packages and set %s)", why, NPMDirEnv)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not on PATH")
	}
	dir = os.Getenv(NPMDirEnv)
	if dir == "" {
		missing(NPMDirEnv + " is not set")
	}
	for _, p := range []string{"server-everything", "server-filesystem", "sdk"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", p, "package.json")); err != nil {
			missing("@modelcontextprotocol/" + p + " is not installed in " + dir)
		}
	}
	return node, dir
}

func pkgFile(dir, pkg, file string) string {
	return filepath.Join(dir, "node_modules", "@modelcontextprotocol", pkg, file)
}

func TestEverythingOverStdio(t *testing.T) {
	node, dir := peers(t)
	c, err := mcp.Connect(context.Background(), mcp.Source{Name: "everything", Command: []string{node, pkgFile(dir, "server-everything", "dist/index.js"), "stdio"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the everything server lists %d tools", len(l.Tools)+len(l.Skipped))
	if n := len(l.Tools) + len(l.Skipped); n != 14 {
		t.Errorf("the everything server lists %d tools, want 14 (server-everything 2026.8.31)", n)
	}
	if len(l.Skipped) != 0 {
		t.Errorf("skipped %v", l.Skipped)
	}
	o, rec := invoke(t, find(t, l, "echo"), `{"message":"hi"}`)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if got := served(t, o.Output); got != "Echo: hi" {
		t.Errorf("echo served %q, want Echo: hi", got)
	}
	if !strings.Contains(string(rec.Result), "Echo: hi") {
		t.Errorf("record %s", rec.Result)
	}
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

func TestFilesystemServer(t *testing.T) {
	node, dir := peers(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("hello from the root\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("no"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := mcp.Connect(context.Background(), mcp.Source{Name: "filesystem", Command: []string{node, pkgFile(dir, "server-filesystem", "dist/index.js"), root}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	read := find(t, l, "read_text_file")
	o, rec := invoke(t, read, fmt.Sprintf(`{"path":%q}`, filepath.Join(root, "notes.txt")))
	if o.Err != nil || o.Output.Status == tool.StatusFailure {
		t.Fatalf("read: %+v", o)
	}
	if got := served(t, o.Output); !strings.Contains(got, "hello from the root") {
		t.Errorf("served %q", got)
	}
	var whole struct {
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(rec.Result, &whole); err != nil || whole.StructuredContent == nil {
		t.Errorf("structuredContent not on the record: %s (%v)", rec.Result, err)
	}
	o, rec = invoke(t, read, fmt.Sprintf(`{"path":%q}`, outside))
	if o.Err != nil || o.Output.Status != tool.StatusFailure || !strings.Contains(served(t, o.Output), "Access denied") {
		t.Errorf("outside the root: %+v served %q", o, served(t, o.Output))
	}
	if !strings.Contains(string(rec.Result), `"isError":true`) {
		t.Errorf("isError not on the record: %s", rec.Result)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestEverythingOverHTTP(t *testing.T) {
	node, dir := peers(t)
	port := freePort(t)
	preload, err := filepath.Abs("testdata/listen-localhost.cjs")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, "--require", preload, pkgFile(dir, "server-everything", "dist/index.js"), "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the everything server did not listen on %s: %v", addr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	c, err := mcp.Connect(context.Background(), mcp.Source{Name: "everything-http", URL: "http://" + addr + "/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o, _ := invoke(t, find(t, l, "echo"), `{"message":"over http"}`)
	if o.Err != nil || served(t, o.Output) != "Echo: over http" {
		t.Errorf("echo over HTTP: %+v", o)
	}
}

func TestTypeScriptClientReadsOurMeta(t *testing.T) {
	node, dir := peers(t)
	t.Setenv(serverEnv, "serve")
	script, err := filepath.Abs("testdata/ts-client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, script, pkgFile(dir, "sdk", ""), "find_orders", `{"customer":"ACME"}`, "--", os.Args[0], "-test.run=^$").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("ts client: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var res struct {
		Meta              map[string]any `json:"_meta"`
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// What the Go tool declared, read back unchanged by another language.
	v, _ := wire.DecodeJSON([]byte(`{"outcome":"nothing_found","looked_for":"orders for ACME","checked":[{"what":"orders table","why":"every row","short":"orders"}]}`))
	want, _ := wire.Marshal(v)
	got, _ := json.Marshal(res.Meta["af_absent"])
	var w, g any
	_ = json.Unmarshal(want, &w)
	_ = json.Unmarshal(got, &g)
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("_meta.af_absent read by the TypeScript SDK (-want +got):\n%s", diff)
	}
	if res.StructuredContent["af_absent"] != true {
		t.Errorf("structuredContent = %v", res.StructuredContent)
	}
}
