// Test doubles: an in-process go-sdk server with the tools no npm server
// has (declarations under _meta, a tool that never answers, one that kills
// its process), run in memory, over HTTP, or as this test binary started as
// a stdio server; and a raw stdio server that sends what go-sdk never would.

package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentfootprint/agentfootprint-go/mcp"
)

// serverEnv makes this test binary, started by a test, act as a server
// instead of running tests: "sdk" serves testServer over stdio, "gated" does
// too unless its gate file exists, "raw" runs rawServer.
const serverEnv = "AF_MCP_TEST_SERVER"

// gateEnv names the file whose presence keeps a "gated" server from starting.
const gateEnv = "AF_MCP_TEST_GATE"

func TestMain(m *testing.M) {
	switch os.Getenv(serverEnv) {
	case "sdk":
		if err := testServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "serve":
		if err := mcp.Serve(context.Background(), &sdk.StdioTransport{}, nativeTools(nil)...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "raw":
		rawServer(os.Getenv("AF_MCP_RAW_MODE"))
		os.Exit(0)
	case "gated":
		// Refuses to start while the file named by gateEnv exists, so a
		// test can make a reconnection fail and then let the next one in.
		if _, err := os.Stat(os.Getenv(gateEnv)); err == nil {
			fmt.Fprintln(os.Stderr, "gated server: the gate is closed")
			os.Exit(1)
		}
		if err := testServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// selfCommand is the command that starts this binary as a server of kind.
func selfCommand(t *testing.T, kind string) []string {
	t.Helper()
	t.Setenv(serverEnv, kind)
	return []string{os.Args[0], "-test.run=^$"}
}

type echoIn struct {
	Message string `json:"message" jsonschema:"the text to echo"`
}

type logsIn struct {
	Since string `json:"since,omitempty" jsonschema:"how far back, such as 24h"`
}

type countIn struct {
	Query string `json:"query" jsonschema:"what to count"`
}

const absentBody = `{"outcome":"nothing_found","looked_for":"orders for ACME","checked":[{"what":"orders table","why":"every row"}]}`

// testServer has: echo; absent_meta (text plus an absence under _meta);
// ledger_meta (an af_coverage object under _meta); bad_meta (two malformed
// declarations and a protocol key); structured_absent (the envelope in
// structuredContent); image; failing (isError); wait (answers only when
// cancelled); die (exits the process mid-call).
func testServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes the message.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
		})
	text := func(s string) []sdk.Content { return []sdk.Content{&sdk.TextContent{Text: s}} }
	var body map[string]any
	_ = json.Unmarshal([]byte(absentBody), &body)
	sdk.AddTool(s, &sdk.Tool{Name: "absent_meta", Description: "Finds orders; declares the absence under _meta."},
		func(context.Context, *sdk.CallToolRequest, countIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: text("no orders"), Meta: sdk.Meta{"af_absent": body, "io.modelcontextprotocol/related-task": map[string]any{"taskId": "t1"}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "ledger_meta", Description: "Counts orders; declares its coverage under _meta."},
		func(context.Context, *sdk.CallToolRequest, countIn) (*sdk.CallToolResult, any, error) {
			cov := map[string]any{"checked": []any{map[string]any{"what": "orders table"}}, "not_checked": []any{map[string]any{"what": "archived orders", "why": "not indexed"}}}
			return &sdk.CallToolResult{Content: text("42 orders"), Meta: sdk.Meta{"af_coverage": cov}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "bad_meta", Description: "Declares malformed things under _meta."},
		func(context.Context, *sdk.CallToolRequest, countIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: text("7 rows"), Meta: sdk.Meta{"af_absent": "yes", "af_bogus": map[string]any{}, "io.modelcontextprotocol/x": 1}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "structured_absent", Description: "Returns the absence envelope as structuredContent."},
		func(context.Context, *sdk.CallToolRequest, countIn) (*sdk.CallToolResult, any, error) {
			env := map[string]any{"af_absent": true}
			for k, v := range body {
				env[k] = v
			}
			return &sdk.CallToolResult{Content: text("no orders"), StructuredContent: env}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "image", Description: "Returns a picture and a resource."},
		func(context.Context, *sdk.CallToolRequest, countIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "a chart"},
				&sdk.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG....")},
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "note body"}},
			}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "failing", Description: "Always fails."},
		func(context.Context, *sdk.CallToolRequest, countIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: text("Access denied - outside the root"), IsError: true}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "wait", Description: "Never answers until cancelled."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ countIn) (*sdk.CallToolResult, any, error) {
			// Bounded, so a server that never hears the cancellation still
			// lets the test's cleanup finish.
			select {
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			case <-time.After(3 * time.Second):
				return nil, nil, errors.New("wait gave up")
			}
		})
	sdk.AddTool(s, &sdk.Tool{Name: "search_logs", Description: "Searches logs over a look-back window."},
		func(_ context.Context, _ *sdk.CallToolRequest, in logsIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: text("searched " + in.Since)}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "big", Description: "Returns two megabytes of text."},
		func(context.Context, *sdk.CallToolRequest, countIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: text(strings.Repeat("y", 2<<20))}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "die", Description: "Ends the server process mid-call."},
		func(context.Context, *sdk.CallToolRequest, countIn) (*sdk.CallToolResult, any, error) {
			os.Exit(3)
			return nil, nil, nil
		})
	return s
}

// swappableHTTP serves testServer over streamable HTTP on 127.0.0.1; swap
// replaces the handler, so the server forgets every session (as a restart
// does).
type swappableHTTP struct {
	h     atomic.Pointer[http.Handler]
	srv   *httptest.Server
	inits atomic.Int32 // initialize requests seen
}

func newHTTPServer(t *testing.T, mk func() *sdk.Server) *swappableHTTP {
	t.Helper()
	s := &swappableHTTP{}
	s.swap(mk)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if strings.Contains(string(body), `"method":"initialize"`) {
				s.inits.Add(1)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		(*s.h.Load()).ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *swappableHTTP) swap(mk func() *sdk.Server) {
	srv := mk()
	var h http.Handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	s.h.Store(&h)
}

// rawServer speaks newline-delimited JSON-RPC by hand, so it can answer
// what go-sdk refuses to send. mode picks the tools/list and tools/call
// answers.
func rawServer(mode string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	reply := func(id json.RawMessage, result string) {
		fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, result)
		out.Flush()
	}
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil || len(msg.ID) == 0 {
			continue // notifications
		}
		switch msg.Method {
		case "initialize":
			if mode == "mute" {
				continue // never answers, not even the handshake
			}
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(msg.Params, &p)
			reply(msg.ID, `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`)
		case "tools/list":
			if mode == "no-list" {
				continue
			}
			reply(msg.ID, `{"tools":[`+
				`{"name":"ok","description":"Fine.","inputSchema":{"type":"object"}},`+
				`{"name":"arrayschema","description":"Its schema is not an object schema.","inputSchema":{"type":"array"}},`+
				`{"name":"dotted.name","description":"A name the framework refuses.","inputSchema":{"type":"object"}},`+
				`{"name":"strict","description":"Needs a count.","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}]}`)
		case "tools/call":
			switch mode {
			case "unknown-content":
				reply(msg.ID, `{"content":[{"type":"hologram","text":"x"}]}`)
			case "huge":
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, msg.ID)
				chunk := strings.Repeat("x", 1<<20)
				for range 50 {
					out.WriteString(chunk)
				}
				out.WriteString(`"}]}}` + "\n")
				out.Flush()
			case "silent":
				// never answers
			default:
				reply(msg.ID, `{"content":[{"type":"text","text":"fine"}]}`)
			}
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}`+"\n", msg.ID)
			out.Flush()
		}
	}
}
