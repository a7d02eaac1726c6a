// Test fixtures: the refunds agent of acceptance scenarios 1–3 and 5 on a seed-sensitive model.

package explain_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

var update = flag.Bool("update", false, "rewrite golden files")

const (
	vipText   = "VIP override: every refund for a VIP customer is approved regardless of the refund window."
	styleText = "Answer in one short sentence and start with the decision in capitals."
	question  = "Please refund order A-17; it was delivered 45 days ago."
)

// Wordings by seed, so reruns really differ while the decision stays a
// function of the context.
var (
	approvedWordings = []string{
		"APPROVED: the VIP override covers order A-17, refund issued in full.",
		"APPROVED. Order A-17 is refunded under the VIP override.",
		"APPROVED — refund for A-17 granted because the VIP override applies.",
	}
	declinedWordings = []string{
		"DECLINED: order A-17 is outside the 30-day refund window.",
		"DECLINED. A-17 was delivered 45 days ago, past the refund window.",
		"DECLINED — the refund window for A-17 has closed.",
	}
)

func wording(list []string, seed int64) string {
	return list[int(((seed%3)+3)%3)]
}

// refundsModel answers APPROVED iff the sent system text holds the VIP
// override sentence; it first looks the order up when the tool is offered.
// unstable flips the decision on odd seeds whatever the context.
func refundsModel(unstable bool) *scripted.Provider {
	return scripted.Func(func(req *llm.Request, call int, seed int64) scripted.Reply {
		offered := false
		for _, t := range req.Tools {
			offered = offered || t.Name == "lookup_order"
		}
		looked := false
		for _, m := range req.Messages {
			looked = looked || m.Role == llm.RoleTool
		}
		if offered && !looked {
			return scripted.Reply{ToolCalls: []llm.ToolCall{{Name: "lookup_order", Args: []byte(`{"orderId":"A-17"}`)}}}
		}
		approve := strings.Contains(llm.SystemText(req.System), vipText)
		if unstable && seed%2 == 1 {
			approve = !approve
		}
		if approve {
			return scripted.Reply{Content: wording(approvedWordings, seed)}
		}
		return scripted.Reply{Content: wording(declinedWordings, seed)}
	})
}

type lookupIn struct {
	OrderID string `json:"orderId" jsonschema:"the order to look up"`
}

// lookupTool returns a canned order and counts real executions.
func lookupTool(t testing.TB, n *atomic.Int64) *tool.Tool {
	t.Helper()
	return tool.Must(tool.New("lookup_order", "Look an order up by id.",
		func(ctx context.Context, in lookupIn) (string, error) {
			n.Add(1)
			return fmt.Sprintf("order %s: customer tier VIP, delivered 45 days ago, amount 120 EUR", in.OrderID), nil
		}))
}

// refunds is the scenario-1 agent's construction inputs.
type refunds struct {
	bp      explain.Blueprint
	vipLine int // the line of the vip-override constructor call
	live    atomic.Int64
}

func newRefunds(t testing.TB) *refunds {
	t.Helper()
	r := &refunds{}
	_, _, line, _ := runtime.Caller(0)
	vip := inject.Must(inject.Fact("vip-override", vipText)) // must stay on the line after runtime.Caller
	r.vipLine = line + 1
	style := inject.Must(inject.Steering("style", styleText))
	r.bp = explain.Blueprint{
		Units: []*inject.Unit{vip, style},
		Tools: []*tool.Tool{lookupTool(t, &r.live)},
		Options: []agent.Option{
			agent.WithID("refunds"), agent.WithModel("mock-1"),
			agent.WithClock(fixedClock),
		},
	}
	return r
}

// run executes the scenario once on the model and returns the record.
func (r *refunds) run(t testing.TB, p llm.Provider) *record.Record {
	t.Helper()
	a, err := r.bp.Build(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: question})
	if err != nil {
		t.Fatal(err)
	}
	return res.Record
}

// labelOf is the domain comparator's label extractor.
func labelOf(s string) string {
	for _, w := range []string{"APPROVED", "DECLINED"} {
		if strings.HasPrefix(s, w) {
			return w
		}
	}
	return "OTHER"
}

func labelComparator(original, candidate string) bool { return labelOf(original) != labelOf(candidate) }

func asError[T error](err error, target *T) bool { return errors.As(err, target) }
