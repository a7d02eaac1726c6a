// Server tests: native tools served over an in-memory transport and read
// back by a go-sdk client and by this package's own client.

package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/mcp"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

type lookIn struct {
	Customer string `json:"customer" jsonschema:"the customer to look up"`
}

// nativeTools are two Go tools to serve; t may be nil (the binary started
// as a server).
func nativeTools(t *testing.T) []*tool.Tool {
	if t != nil {
		t.Helper()
	}
	absent := tool.Must(tool.New("find_orders", "Finds a customer's orders.", func(_ context.Context, in lookIn) (any, error) {
		v, err := wire.DecodeJSON([]byte(`{"af_absent":true,"outcome":"nothing_found","looked_for":"orders for ` + in.Customer + `","checked":[{"what":"orders table","why":"every row","short":"orders"}]}`))
		return v, err
	}))
	plain := tool.Must(tool.New("greet", "Greets.", func(_ context.Context, in lookIn) (string, error) {
		return "hello " + in.Customer, nil
	}))
	return []*tool.Tool{absent, plain}
}

// serveInMemory serves tools and returns a connected go-sdk client session.
func serveInMemory(t *testing.T, tools ...*tool.Tool) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := sdk.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- mcp.Serve(ctx, st, tools...) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return cs
}

func TestServeEnvelopeAndMeta(t *testing.T) {
	cs := serveInMemory(t, nativeTools(t)...)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "find_orders", Arguments: map[string]any{"customer": "ACME"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("isError: %v", mcp.Summary(res))
	}
	var wantMeta any
	_ = json.Unmarshal([]byte(`{"outcome":"nothing_found","looked_for":"orders for ACME","checked":[{"what":"orders table","why":"every row","short":"orders"}]}`), &wantMeta)
	if diff := cmp.Diff(wantMeta, res.Meta["af_absent"]); diff != "" {
		t.Errorf("_meta.af_absent (-want +got):\n%s", diff)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(sc), `"af_absent":true`) {
		t.Errorf("structuredContent = %s", sc)
	}
	// The text is what a model of this framework is served: no record-only keys.
	if got := mcp.Summary(res); strings.Contains(got, `"short"`) || !strings.Contains(got, `"af_absent":true`) {
		t.Errorf("served text = %s", got)
	}
	// Arguments are validated as the dispatcher would.
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "greet", Arguments: map[string]any{"customer": 7}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(mcp.Summary(res), "/customer") {
		t.Errorf("bad arguments answered %+v %q", res.IsError, mcp.Summary(res))
	}
}

func TestServeRoundTripThroughOurClient(t *testing.T) {
	srv := newHTTPServer(t, func() *sdk.Server {
		s, err := mcp.NewServer(nativeTools(t)...)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
	c, err := mcp.Connect(context.Background(), mcp.Source{Name: "ours", URL: srv.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o, rec := invoke(t, find(t, l, "find_orders"), `{"customer":"ACME"}`)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	rd := boundary.Read(o.Output.Value, "find_orders", nil)
	cr, ok := rd, rd.Record
	if !ok || !cr.Absent || rec.DeclaredIn != "structuredContent" {
		t.Fatalf("read back %v %+v from %q", ok, cr, rec.DeclaredIn)
	}
	if diff := cmp.Diff([]string{"orders"}, []string{cr.Declared[0].Checked[0].Short}); diff != "" {
		t.Errorf("the record-only short did not survive (-want +got):\n%s", diff)
	}
	o, _ = invoke(t, find(t, l, "greet"), `{"customer":"Bo"}`)
	if got := served(t, o.Output); got != "hello Bo" {
		t.Errorf("greet served %q", got)
	}
}

func TestNewServerRefuses(t *testing.T) {
	consent := tool.Must(tool.New("wire", "Sends money.", func(context.Context, lookIn) (string, error) { return "", nil }, tool.WithCheckIn(func(json.RawMessage) bool { return true })))
	tools := nativeTools(t)
	for _, tc := range [][]*tool.Tool{{nil}, {tools[0], tools[0]}, {consent}} {
		if _, err := mcp.NewServer(tc...); !isType[*mcp.ServeError](err) {
			t.Errorf("NewServer(%v): err = %v, want a ServeError", tc, err)
		}
	}
}
