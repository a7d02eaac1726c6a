// Client tests against in-process go-sdk servers: listing, schema checks,
// sites, result reading, _meta declarations, lost sessions, a server killed
// mid-call, tool list changes, and the bounded failures.

package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/mcp"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

// invoke calls tl as the agent's dispatcher would (validate, execute with
// a call context) and returns the outcome and the CallRecord it reported.
func invoke(t *testing.T, tl *tool.Tool, args string) (toolrun.Outcome, *mcp.CallRecord) {
	t.Helper()
	var rec *mcp.CallRecord
	ctx := toolrun.WithCall(context.Background(), tool.Call{ID: "c1", Name: tl.Name(), Progress: func(p any) {
		m, ok := p.(map[string]any)
		if !ok {
			t.Fatalf("progress payload %T, want a map", p)
		}
		r := m["mcp"].(mcp.CallRecord)
		rec = &r
	}})
	return toolrun.Invoke(ctx, tl.Declaration(), json.RawMessage(args), ""), rec
}

func find(t *testing.T, l *mcp.List, name string) *tool.Tool {
	t.Helper()
	for _, tl := range l.Tools {
		if tl.Name() == name {
			return tl
		}
	}
	t.Fatalf("no tool %q in the list", name)
	return nil
}

func served(t *testing.T, out toolrun.Output) string {
	t.Helper()
	v := out.Value
	if rd := boundary.Read(v, "", nil); rd.Changed {
		v = rd.Served
	}
	s, err := toolrun.Text(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func connectHTTP(t *testing.T, opts ...mcp.Option) (*mcp.Client, *swappableHTTP) {
	t.Helper()
	srv := newHTTPServer(t, testServer)
	c, err := mcp.Connect(context.Background(), mcp.Source{Name: "test", URL: srv.srv.URL}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, srv
}

func TestListKeepsSchemaDescriptionAnnotationsAndSite(t *testing.T) {
	c, srv := connectHTTP(t)
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	echo := find(t, l, "echo")
	if got := echo.Declaration().Description; got != "Echoes the message." {
		t.Errorf("description = %q", got)
	}
	var schema map[string]any
	if err := json.Unmarshal(echo.Declaration().InputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	if schema["type"] != "object" || schema["required"] == nil {
		t.Errorf("schema = %v, want the server's object schema with required", schema)
	}
	want := tool.Site{File: "mcp server test (http: " + srv.srv.URL + ")", Function: "tool echo"}
	if diff := cmp.Diff(want, echo.Declaration().DefinedAt); diff != "" {
		t.Errorf("site (-want +got):\n%s", diff)
	}
	for _, info := range l.Info {
		if info.Name == "echo" && (info.Annotations == nil || !info.Annotations.ReadOnlyHint) {
			t.Errorf("echo annotations = %+v, want readOnlyHint", info.Annotations)
		}
	}
	if len(l.Changes) != 0 {
		t.Errorf("first list changes = %v, want none", l.Changes)
	}
}

func TestEchoAndValidation(t *testing.T) {
	c, _ := connectHTTP(t)
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	echo := find(t, l, "echo")
	o, rec := invoke(t, echo, `{"message":"hi"}`)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if got := served(t, o.Output); got != "Echo: hi" {
		t.Errorf("served %q, want Echo: hi", got)
	}
	if rec == nil || !strings.Contains(string(rec.Result), `"text":"Echo: hi"`) {
		t.Errorf("record = %+v, want the whole result", rec)
	}
	// Validated before the call, with JSON pointers, like a native tool.
	o, rec = invoke(t, echo, `{"message":3}`)
	if o.Ran || rec != nil {
		t.Fatalf("bad args ran: %+v", o)
	}
	if got := o.Rejection.Issues[0].Path; got != "/message" {
		t.Errorf("issue path %q, want /message", got)
	}
}

func TestMetaDeclarationsReadThroughTheOneChannel(t *testing.T) {
	c, _ := connectHTTP(t)
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool, declaredIn string
		kinds            []string
		absent           bool
		problems         int
	}{
		{"absent_meta", "_meta", []string{boundary.KindAbsence}, true, 0},
		{"ledger_meta", "_meta", []string{boundary.KindLedger}, false, 0},
		{"structured_absent", "structuredContent", []string{boundary.KindAbsence}, true, 0},
		{"bad_meta", "", nil, false, 2},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			o, rec := invoke(t, find(t, l, tc.tool), `{"query":"orders"}`)
			if o.Err != nil {
				t.Fatal(o.Err)
			}
			rd := boundary.Read(o.Output.Value, tc.tool, nil)
			cr, ok := rd, rd.Record
			var kinds []string
			for _, f := range cr.Declared {
				kinds = append(kinds, f.Kind)
			}
			if ok != (tc.kinds != nil) || !cmp.Equal(kinds, tc.kinds) || cr.Absent != tc.absent {
				t.Errorf("read = %v %+v, want kinds %v absent %v", ok, cr, tc.kinds, tc.absent)
			}
			if rec.DeclaredIn != tc.declaredIn || len(rec.Problems) != tc.problems {
				t.Errorf("record declaredIn %q problems %v", rec.DeclaredIn, rec.Problems)
			}
		})
	}
	// The ledger wraps the text the model would read anyway.
	o, _ := invoke(t, find(t, l, "ledger_meta"), `{"query":"orders"}`)
	if got := served(t, o.Output); !strings.Contains(got, `"result":"42 orders"`) {
		t.Errorf("ledger served %s", got)
	}
	// Malformed declarations leave the data served as written.
	o, rec := invoke(t, find(t, l, "bad_meta"), `{"query":"orders"}`)
	if got := served(t, o.Output); got != "7 rows" {
		t.Errorf("bad_meta served %q", got)
	}
	want := []mcp.DeclarationProblem{
		{Key: "af_absent", Problem: "must be a JSON object holding the envelope's other keys, not a string"},
		{Key: "af_bogus", Problem: "not a declaration this framework knows (af_absent, af_coverage, af_semantics)"},
	}
	if diff := cmp.Diff(want, rec.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestContentSummarisedAndIsError(t *testing.T) {
	c, _ := connectHTTP(t)
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o, rec := invoke(t, find(t, l, "image"), `{"query":"x"}`)
	want := "a chart\n[image image/png, 8 bytes, kept on the record]\n[resource file:///notes.txt]\nnote body"
	if got := served(t, o.Output); got != want {
		t.Errorf("served %q, want %q", got, want)
	}
	if !strings.Contains(string(rec.Result), `"type":"image"`) || !strings.Contains(string(rec.Result), `"data":"`) {
		t.Errorf("the image is not kept on the record: %s", rec.Result)
	}
	o, _ = invoke(t, find(t, l, "failing"), `{"query":"x"}`)
	if o.Err != nil || o.Output.Status != tool.StatusFailure || served(t, o.Output) != "Access denied - outside the root" {
		t.Errorf("isError outcome = %+v", o)
	}
}

func TestNoAnswerIsBounded(t *testing.T) {
	c, _ := connectHTTP(t, mcp.WithCallTimeout(200*time.Millisecond))
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o, rec := invoke(t, find(t, l, "wait"), `{"query":"x"}`)
	if !errors.Is(o.Err, context.DeadlineExceeded) || o.Err.Error() != `MCP server "`+c.Name()+`" did not answer the call of "wait" within 200ms; the request was cancelled` {
		t.Fatalf("err = %v, want the call timeout, wrapping context.DeadlineExceeded", o.Err)
	}
	if rec == nil || rec.Error == "" {
		t.Errorf("record %+v, want the error kept", rec)
	}
}

func TestHTTPSessionLostReconnectsOnceNeverReplays(t *testing.T) {
	c, srv := connectHTTP(t)
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	echo := find(t, l, "echo")
	srv.swap(testServer) // the server restarts and forgets the session
	o, _ := invoke(t, echo, `{"message":"lost"}`)
	var sl *mcp.SessionLostError
	if !errors.As(o.Err, &sl) || !sl.Reconnected || !errors.Is(o.Err, sdk.ErrSessionMissing) {
		t.Fatalf("err = %v, want a SessionLostError after which the client reconnected", o.Err)
	}
	o, _ = invoke(t, echo, `{"message":"again"}`)
	if o.Err != nil || served(t, o.Output) != "Echo: again" {
		t.Fatalf("after reconnecting: %+v", o)
	}
}

func TestStdioServerKilledMidCall(t *testing.T) {
	cmd := selfCommand(t, "sdk")
	c, err := mcp.Connect(context.Background(), mcp.Source{Name: "self", Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o, rec := invoke(t, find(t, l, "die"), `{"query":"x"}`)
	var sl *mcp.SessionLostError
	if !errors.As(o.Err, &sl) || !sl.Reconnected {
		t.Fatalf("err = %v, want a SessionLostError with a new session", o.Err)
	}
	if !strings.Contains(o.Err.Error(), "was not sent again") || rec.Error != o.Err.Error() {
		t.Errorf("model text %q / record %q", o.Err, rec.Error)
	}
	// The new process answers.
	o, _ = invoke(t, find(t, l, "echo"), `{"message":"back"}`)
	if o.Err != nil || served(t, o.Output) != "Echo: back" {
		t.Fatalf("after the restart: %+v", o)
	}
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	o, _ = invoke(t, find(t, l, "echo"), `{"message":"closed"}`)
	if _, ok := errors.AsType[*mcp.ServerDownError](o.Err); !ok {
		t.Errorf("after Close: %v, want a ServerDownError", o.Err)
	}
}

// A lost session whose reconnection fails leaves the client down: calls fail
// fast without reaching the server, and the next List, once the server can
// start again, opens a new session that the earlier list's tools call
// through.
func TestListComesBackAfterAFailedReconnection(t *testing.T) {
	gate := filepath.Join(t.TempDir(), "gate")
	t.Setenv(gateEnv, gate)
	c, err := mcp.Connect(context.Background(), mcp.Source{Name: "gated", Command: selfCommand(t, "gated")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	o, _ := invoke(t, find(t, l, "die"), `{"query":"x"}`)
	if sl, ok := errors.AsType[*mcp.SessionLostError](o.Err); !ok || sl.Reconnected || sl.ReconnectErr == nil {
		t.Fatalf("err = %v, want a SessionLostError whose reconnection failed", o.Err)
	}
	o, _ = invoke(t, find(t, l, "echo"), `{"message":"down"}`)
	if _, ok := errors.AsType[*mcp.ServerDownError](o.Err); !ok {
		t.Fatalf("call while down: %v, want a ServerDownError", o.Err)
	}
	if _, err := c.List(context.Background()); err == nil || !strings.Contains(err.Error(), "reconnecting failed") {
		t.Fatalf("List with the gate closed = %v, want the failed reconnection", err)
	}
	if err := os.Remove(gate); err != nil {
		t.Fatal(err)
	}
	again, err := c.List(context.Background())
	if err != nil {
		t.Fatalf("List once the server can start: %v", err)
	}
	if len(again.Tools) != len(l.Tools) {
		t.Errorf("the new session lists %d tools, the first listed %d", len(again.Tools), len(l.Tools))
	}
	o, _ = invoke(t, find(t, l, "echo"), `{"message":"back"}`)
	if o.Err != nil || served(t, o.Output) != "Echo: back" {
		t.Fatalf("an earlier list's tool after List reconnected: %+v", o)
	}
}

func TestToolListChanges(t *testing.T) {
	s := testServer()
	srv := newHTTPServer(t, func() *sdk.Server { return s })
	c, err := mcp.Connect(context.Background(), mcp.Source{Name: "test", URL: srv.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	first, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	oldEcho := find(t, first, "echo")
	s.RemoveTools("failing")
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Echoes louder.", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"},"loud":{"type":"boolean"}}}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ECHO"}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "fresh", Description: "New.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	second, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []mcp.Change{{Tool: "echo", Kind: mcp.ToolSchemaChanged}, {Tool: "failing", Kind: mcp.ToolVanished}, {Tool: "fresh", Kind: mcp.ToolAppeared}}
	if diff := cmp.Diff(want, second.Changes); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	// The old echo is refused rather than called with a stale schema, and
	// the changes go on the record with the first call after the list.
	o, rec := invoke(t, oldEcho, `{"message":"hi"}`)
	if _, ok := errors.AsType[*mcp.ToolChangedError](o.Err); !ok {
		t.Errorf("old echo: %v, want a ToolChangedError", o.Err)
	}
	if diff := cmp.Diff(want, rec.ToolListChanges); diff != "" {
		t.Errorf("recorded changes (-want +got):\n%s", diff)
	}
	o, _ = invoke(t, find(t, second, "echo"), `{"message":"hi"}`)
	if o.Err != nil || served(t, o.Output) != "ECHO" {
		t.Errorf("new echo: %+v", o)
	}
}

func TestRawServerBadInput(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		check func(t *testing.T, err error)
	}{
		{"unknown-content", func(t *testing.T, err error) {
			if _, ok := errors.AsType[*mcp.CallError](err); !ok || !strings.Contains(err.Error(), "hologram") {
				t.Errorf("err = %v, want a CallError naming the content type", err)
			}
		}},
		{"huge", func(t *testing.T, err error) {
			if _, ok := errors.AsType[*mcp.ResultTooLargeError](err); !ok {
				t.Errorf("err = %v, want a ResultTooLargeError", err)
			}
		}},
		{"silent", func(t *testing.T, err error) {
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "did not answer the call") {
				t.Errorf("err = %v, want the call timeout (context.DeadlineExceeded)", err)
			}
		}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			t.Setenv("AF_MCP_RAW_MODE", tc.mode)
			timeout := 500 * time.Millisecond
			if tc.mode == "huge" {
				timeout = 30 * time.Second // writing 50 MB is slow under -race
			}
			c, err := mcp.Connect(context.Background(), mcp.Source{Name: "raw", Command: selfCommand(t, "raw")}, mcp.WithCallTimeout(timeout))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			l, err := c.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var skipped []string
			for _, s := range l.Skipped {
				skipped = append(skipped, s.Tool)
			}
			if diff := cmp.Diff([]string{"arrayschema", "dotted.name"}, skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			o, _ := invoke(t, find(t, l, "ok"), `{}`)
			tc.check(t, o.Err)
		})
	}
}

func TestToolOptionsApply(t *testing.T) {
	c, _ := connectHTTP(t,
		mcp.WithToolOptions("echo", tool.WithResultCeiling(3, "a shorter message"), tool.WithCheckIn(func(json.RawMessage) bool { return true })),
		mcp.WithToolOptions("failing", tool.WithHiddenArguments("nope")),
		mcp.WithToolOptions("search_logs",
			tool.WithAskOrAssume(map[string]tool.Rule{"since": {Assume: "24h"}}),
			tool.WithPeriod(tool.Period{Argument: "since", Spelling: tool.SpellingLookback})))
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	echo := find(t, l, "echo")
	if !(echo.Declaration().CheckIn != nil) {
		t.Error("echo has no check-in")
	}
	if d := echo.Declaration(); d.ResultCeiling != 3 || d.NarrowBy != "a shorter message" {
		t.Errorf("ceiling = %d %q, want 3 and the narrowing", d.ResultCeiling, d.NarrowBy)
	}
	logs := find(t, l, "search_logs").Declaration()
	if p := logs.Period; p == nil || p.Argument != "since" || logs.AskOrAssume["since"].Assume != "24h" {
		t.Errorf("search_logs period = %+v, rules = %+v, want the since argument, assumed 24h", p, logs.AskOrAssume)
	}
	if len(l.Skipped) != 1 || l.Skipped[0].Tool != "failing" || !strings.Contains(l.Skipped[0].Reason, "nope") {
		t.Errorf("skipped = %+v, want failing refused for its option", l.Skipped)
	}
}

func TestSourceRefused(t *testing.T) {
	for _, src := range []mcp.Source{{}, {Command: []string{"x"}, URL: "http://127.0.0.1:1"}, {Command: []string{" "}}, {URL: "ftp://x"}} {
		if _, err := mcp.Connect(context.Background(), src); !isType[*mcp.SourceError](err) {
			t.Errorf("%+v: err = %v, want a SourceError", src, err)
		}
	}
	_, err := mcp.Connect(context.Background(), mcp.Source{Command: []string{"/nonexistent/server"}})
	if !isType[*mcp.ConnectError](err) {
		t.Errorf("missing program: err = %v, want a ConnectError", err)
	}
}

func isType[T error](err error) bool { _, ok := errors.AsType[T](err); return ok }

func TestConcurrentLossReconnectsOnce(t *testing.T) {
	srv := newHTTPServer(t, testServer)
	c, err := mcp.Connect(context.Background(), mcp.Source{Name: "test", URL: srv.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	echo := find(t, l, "echo")
	srv.swap(testServer)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			o, _ := invoke(t, echo, `{"message":"x"}`)
			errs[i] = o.Err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if sl, ok := errors.AsType[*mcp.SessionLostError](err); err != nil && (!ok || !sl.Reconnected) {
			t.Errorf("call %d: %v, want success or a SessionLostError after one reconnection", i, err)
		}
	}
	if got := srv.inits.Load(); got != 2 {
		t.Errorf("%d handshakes, want 2 (the first and one reconnection)", got)
	}
}

func TestSilentServerBounded(t *testing.T) {
	t.Setenv("AF_MCP_RAW_MODE", "mute")
	_, err := mcp.Connect(context.Background(), mcp.Source{Name: "raw", Command: selfCommand(t, "raw")}, mcp.WithConnectTimeout(300*time.Millisecond))
	if !isType[*mcp.ConnectError](err) {
		t.Errorf("mute handshake: err = %v, want a ConnectError", err)
	}
	t.Setenv("AF_MCP_RAW_MODE", "no-list")
	// This server does answer the handshake: give it time to start on a
	// loaded machine, so only the silent list is what times out.
	c, err := mcp.Connect(context.Background(), mcp.Source{Name: "raw", Command: selfCommand(t, "raw")}, mcp.WithConnectTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	listCtx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := c.List(listCtx); !isType[*mcp.ListError](err) {
		t.Errorf("mute list: err = %v, want a ListError", err)
	}
}

func TestHTTPResultOverTheCap(t *testing.T) {
	// Both answer forms of streamable HTTP: an event stream (bounded per
	// event) and a JSON body (bounded by the client's round tripper).
	for _, jsonBody := range []bool{false, true} {
		t.Run(fmt.Sprintf("json=%v", jsonBody), func(t *testing.T) {
			s := testServer()
			srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{JSONResponse: jsonBody}))
			defer srv.Close()
			c, err := mcp.Connect(context.Background(), mcp.Source{Name: "test", URL: srv.URL}, mcp.WithMaxResultBytes(1<<20))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			l, err := c.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			o, _ := invoke(t, find(t, l, "big"), `{"query":"x"}`)
			if !isType[*mcp.ResultTooLargeError](o.Err) {
				t.Fatalf("err = %v, want a ResultTooLargeError", o.Err)
			}
			// The session is usable afterwards.
			o, _ = invoke(t, find(t, l, "echo"), `{"message":"small"}`)
			if o.Err != nil || served(t, o.Output) != "Echo: small" {
				t.Errorf("after the big result: %+v", o)
			}
		})
	}
}
