// The BORN record names the line that defined each tool.

package agent_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

func TestCatalogToolDefinedAt(t *testing.T) {
	pc, file, line, _ := runtime.Caller(0)
	lookup, err := tool.New("lookup_order", "Look an order up.", func(ctx context.Context, in statusIn) (string, error) { return "found", nil })
	if err != nil {
		t.Fatal(err)
	}
	want := &tool.Site{File: file, Line: line + 1, Function: runtime.FuncForPC(pc).Name()}

	a, err := agent.New(scripted.New(scripted.Reply{Content: "done"}), agent.WithTools(lookup))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	cat := valueAt[[]inject.CatalogEntry](t, res.Record, "seed#0", "contextCatalog")
	if len(cat) != 1 {
		t.Fatalf("catalog = %+v", cat)
	}
	e := cat[0]
	if e.ID != "tool/lookup_order" || e.Kind != "tool" {
		t.Errorf("entry = %s %s", e.ID, e.Kind)
	}
	if diff := cmp.Diff(want, e.DefinedAt); diff != "" {
		t.Errorf("definedAt (-want +got):\n%s", diff)
	}
	if e.SchemaHash == "" {
		t.Error("schemaHash is empty")
	}
}
