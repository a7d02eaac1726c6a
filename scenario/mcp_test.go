// Tests of MCP servers as tool sources: the "mcp" list's refusals, and a run
// whose model calls a go-sdk server's tool over HTTP.

package scenario

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const mcpTail = `"replies":[{"content":"ok"}],"turns":[{"user":"hi"}]`

func TestParseMCPRefusals(t *testing.T) {
	schema := compileSchema(t)
	for _, tc := range []struct{ name, mcp, want string }{
		{"not a list", `{}`, "mcp: want an array, got an object"},
		{"no name", `[{"url":"http://127.0.0.1:1/mcp"}]`, "mcp[0].name: missing"},
		{"both", `[{"name":"a","url":"http://127.0.0.1:1/mcp","command":["x"]}]`, "mcp[0]: give exactly one of command"},
		{"neither", `[{"name":"a"}]`, "mcp[0]: give exactly one of command"},
		{"twice", `[{"name":"a","url":"http://x/"},{"name":"a","url":"http://y/"}]`, `mcp[1].name: "a" names another server already`},
		{"unknown key", `[{"name":"a","url":"http://x/","env":{}}]`, `mcp[0].env: unknown key`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(`{"mcp":` + tc.mcp + `,` + mcpTail + `}`)
			_, err := Parse(data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
			// The schema refuses the same, but for a repeated name, which
			// JSON Schema cannot express.
			if tc.name != "twice" && schemaAccepts(t, schema, data) == nil {
				t.Errorf("the schema accepts %s", data)
			}
		})
	}
	for _, k := range mcpKeys {
		if !strings.Contains(string(Schema()), `"`+k+`":`) {
			t.Errorf("the schema does not describe %q", k)
		}
	}
	valid := []byte(`{"mcp":[{"name":"fs","command":["node","${DIR}/x.js"]}],` + mcpTail + `}`)
	if err := schemaAccepts(t, schema, valid); err != nil {
		t.Errorf("the schema refuses %s: %v", valid, err)
	}
	for _, p := range []string{"../cmd/agentfootprint/testdata/mcp/peers.json", "../cmd/agentfootprint/testdata/mcp/canned.json"} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(data); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if err := schemaAccepts(t, schema, data); err != nil {
			t.Errorf("%s: the schema refuses it: %v", p, err)
		}
	}
	f, err := Parse(valid)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.mcp; len(got) != 1 || got[0].src.Name != "fs" || got[0].src.Command[1] != "${DIR}/x.js" {
		t.Errorf("MCPServers = %+v", got)
	}
}

type echoArgs struct {
	Message string `json:"message"`
}

func TestRunCallsAnMCPServer(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "echoer", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes."}, func(_ context.Context, _ *sdk.CallToolRequest, in echoArgs) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
	})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	defer srv.Close()
	t.Setenv("AF_TEST_MCP_URL", srv.URL)
	f, err := Parse([]byte(`{"name":"mcp-echo","mcp":[{"name":"echoer","url":"${AF_TEST_MCP_URL}"}],
		"replies":[{"toolCalls":[{"id":"c1","name":"echo","args":{"message":"hi"}}]},{"content":"It said hi."}],
		"turns":[{"user":"Echo hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"c1 Echo: hi"}, served(rep)); diff != "" {
		t.Errorf("served (-want +got):\n%s", diff)
	}
	rec, err := json.Marshal(rep.Record)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"file":"mcp server echoer (http: ` + srv.URL + `)"`, `"function":"tool echo"`, `"mcp":{"server":"echoer","tool":"echo","result":{"content":[{"type":"text","text":"Echo: hi"}]}}`} {
		if !strings.Contains(string(rec), want) {
			t.Errorf("the record lacks %s", want)
		}
	}
	// A server's tool may not take a canned tool's name.
	f, err = Parse([]byte(`{"tools":[{"name":"echo","description":"Canned.","results":[{"value":"x"}]}],"mcp":[{"name":"echoer","url":"${AF_TEST_MCP_URL}"}],` + mcpTail + `}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), f); err == nil || !strings.Contains(err.Error(), `the server's tool "echo" has the name of tools[0]`) {
		t.Errorf("name clash: err = %v", err)
	}
}

type ordersArgs struct {
	Customer string `json:"customer"`
}

// A declaration a server sends under _meta is recorded and judged like a
// native tool's: the call's status is absent, the row is declared, and the
// results layer keeps it on the ledger.
func TestRunRecordsAnMCPDeclaration(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "orders", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "find_orders", Description: "Finds a customer's orders."}, func(_ context.Context, _ *sdk.CallToolRequest, in ordersArgs) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{
			Content: []sdk.Content{&sdk.TextContent{Text: "No orders."}},
			Meta: sdk.Meta{"af_absent": map[string]any{
				"outcome": "nothing_found", "looked_for": "orders for " + in.Customer,
				"checked": []any{map[string]any{"what": "orders table", "why": "every row"}},
			}},
		}, nil, nil
	})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	defer srv.Close()
	t.Setenv("AF_TEST_MCP_URL", srv.URL)
	f, err := Parse([]byte(`{"agent":{"resultsLayer":true},"mcp":[{"name":"orders","url":"${AF_TEST_MCP_URL}"}],
		"replies":[{"toolCalls":[{"id":"c1","name":"find_orders","args":{"customer":"ACME"}}]},{"content":"ACME has no orders."}],
		"turns":[{"user":"Any orders for ACME?"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.ToolCalls) != 1 || rep.ToolCalls[0].Status != "absent" {
		t.Errorf("tool calls = %+v, want one with status absent", rep.ToolCalls)
	}
	if len(rep.CoverageDeclared) != 1 || rep.CoverageDeclared[0].Kind != "absence" || rep.CoverageDeclared[0].LookedFor != "orders for ACME" {
		t.Errorf("coverage declared = %+v", rep.CoverageDeclared)
	}
	// The same declaration from a canned native tool gives the same rows,
	// ledger, standing and served text.
	twin, err := Parse([]byte(`{"agent":{"resultsLayer":true},
		"tools":[{"name":"find_orders","description":"Finds a customer's orders.","inputSchema":{"type":"object","properties":{"customer":{"type":"string"}}},
			"results":[{"absent":{"what":"orders for ACME","checked":[{"what":"orders table","why":"every row"}]}}]}],
		"replies":[{"toolCalls":[{"id":"c1","name":"find_orders","args":{"customer":"ACME"}}]},{"content":"ACME has no orders."}],
		"turns":[{"user":"Any orders for ACME?"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	native, err := Run(context.Background(), twin)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(native.CoverageDeclared, rep.CoverageDeclared); diff != "" {
		t.Errorf("declared rows (-native +mcp):\n%s", diff)
	}
	if rep.Standing == nil || len(rep.Standing.Reasons) == 0 || rep.Standing.Reasons[0].Reason != "declared-absent" {
		t.Errorf("standing = %+v, want the reason declared-absent", rep.Standing)
	}
	if diff := cmp.Diff(native.Ledger, rep.Ledger); diff != "" {
		t.Errorf("ledger (-native +mcp):\n%s", diff)
	}
	if diff := cmp.Diff(native.Standing, rep.Standing); diff != "" {
		t.Errorf("standing (-native +mcp):\n%s", diff)
	}
	if !strings.Contains(served(rep)[0], `"af_absent":true`) {
		t.Errorf("served %v, want the absence envelope", served(rep))
	}
}

// FuzzParseMCP feeds the "mcp" list arbitrary JSON: Parse accepts or
// refuses it, and never panics.
func FuzzParseMCP(f *testing.F) {
	for _, s := range []string{
		`[{"name":"fs","command":["node","x.js"]}]`,
		`[{"name":"h","url":"http://127.0.0.1:1/mcp"}]`,
		`[{"name":"a","command":[]}]`,
		`[{"name":1}]`,
		`[null]`,
		`{"name":"a"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		f, err := Parse([]byte(`{"mcp":` + list + `,` + mcpTail + `}`))
		if err != nil {
			return
		}
		var entries []any
		if jerr := json.Unmarshal([]byte(list), &entries); jerr != nil || len(entries) != len(f.mcp) {
			t.Fatalf("accepted %s as %d servers", list, len(f.mcp))
		}
	})
}
