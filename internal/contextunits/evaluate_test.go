// Tests of evaluation: which units fire, the evidence recorded and the
// placement, and the catalog entry of a unit.

package contextunits_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/internal/contextunits"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/google/go-cmp/cmp"
)

// mapReader is a Reader over a fixed map whose writers are named per key.
type mapReader struct {
	vals    map[string]any
	writers map[string]int
}

func (m mapReader) Get(k string) (any, bool) { v, ok := m.vals[k]; return v, ok }
func (m mapReader) Has(k string) bool        { _, ok := m.vals[k]; return ok }
func (m mapReader) WriterOf(k string) (string, int, bool) {
	c, ok := m.writers[k]
	if !ok {
		return "", 0, false
	}
	return "stage#" + string(rune('0'+c)), c, true
}

func TestEvaluate(t *testing.T) {
	vip := func(r flow.Reader) bool {
		v, _ := r.Get("userMessage")
		s, _ := v.(string)
		_ = r.Has("tier")
		return strings.Contains(s, "VIP")
	}
	units := []*inject.Unit{
		inject.Must(inject.Fact("always", "a")),
		inject.Must(inject.Instruction("vip", "v", inject.Rule{Label: "VIP", When: vip}, inject.WithPriority(5))),
		inject.Must(inject.Steering("after", "s", inject.WithToolReturnMatching(regexp.MustCompile(`^search_`)))),
		inject.Must(inject.Fact("panicky", "p", inject.WithRule("boom", func(flow.Reader) bool { panic("no") }))),
		inject.Must(inject.Fact("note", "n", inject.WithMessageSlot(llm.RoleUser))),
	}
	r := mapReader{vals: map[string]any{"userMessage": "a VIP asks"}, writers: map[string]int{"userMessage": 1}}
	got := contextunits.Evaluate(units, r, contextunits.Env{Iteration: 2, Returns: []inject.ToolReturn{
		{ToolCallID: "c1", ToolName: "search_logs", Iteration: 1}, {ToolCallID: "c2", ToolName: "other", Iteration: 1},
	}})
	yes, no := true, false
	want := []inject.Entry{
		{ID: "always", Active: true, Trigger: inject.Evidence{Kind: "always"}, Placed: &inject.Placement{Slot: "system", Position: 1}},
		{ID: "vip", Active: true, Trigger: inject.Evidence{Kind: "rule", Label: "VIP", Matched: &yes,
			Reads: []inject.KeyRead{{Key: "userMessage", Writer: "stage#1", Commit: 1}, {Key: "tier", Writer: "", Commit: -1}}},
			Placed: &inject.Placement{Slot: "system", Position: 0}},
		{ID: "after", Active: true, Trigger: inject.Evidence{Kind: "on-tool-return", Matches: []inject.ToolReturn{{ToolCallID: "c1", ToolName: "search_logs", Iteration: 1}}},
			Placed: &inject.Placement{Slot: "system", Position: 2}},
		{ID: "panicky", Trigger: inject.Evidence{Kind: "rule", Label: "boom", Matched: &no, Reads: []inject.KeyRead{}, Error: "the predicate panicked: no"}},
		{ID: "note", Active: true, Trigger: inject.Evidence{Kind: "always"}, Placed: &inject.Placement{Slot: "messages", Position: 0}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	sys := contextunits.Placed(units, got, inject.SlotSystem)
	var ids []string
	for _, u := range sys {
		ids = append(ids, u.ID())
	}
	if diff := cmp.Diff([]string{"vip", "always", "after"}, ids); diff != "" {
		t.Errorf("system order (-want +got):\n%s", diff)
	}
}

// An instruction fires while its rule holds; the evidence lists the keys
// the rule read and who last wrote them.
func ExampleEvaluate() {
	vip := inject.Must(inject.Instruction("vip-tone", "Address the customer by name.", inject.Rule{
		Label: "customer is VIP",
		When: func(r flow.Reader) bool {
			v, _ := r.Get("userMessage")
			s, _ := v.(string)
			return strings.Contains(s, "VIP")
		},
	}))
	r := mapReader{vals: map[string]any{"userMessage": "VIP here"}, writers: map[string]int{"userMessage": 1}}
	e := contextunits.Evaluate([]*inject.Unit{vip}, r, contextunits.Env{Iteration: 1})[0]
	fmt.Println(e.Active, e.Trigger.Label, e.Trigger.Reads[0].Key, e.Trigger.Reads[0].Writer)
	// Output:
	// true customer is VIP userMessage stage#1
}

func TestCatalogEntry(t *testing.T) {
	u := inject.Must(inject.Fact("refund-window", "Refunds: 30 days.", inject.WithPriority(2), inject.WithVersion("v1")))
	e := contextunits.CatalogEntry(u)
	d := u.Definition()
	if e.ID != "refund-window" || e.Kind != "fact" || e.Slot != inject.SlotSystem || e.Trigger.Kind != inject.TriggerAlways ||
		e.Content != d.Text || e.ContentHash != d.ContentHash || e.Chars != d.Chars || *e.DefinedAt != d.DefinedAt ||
		e.Priority != 2 || e.Version != "v1" {
		t.Errorf("entry = %+v", e)
	}
	w := inject.Must(inject.Steering("after", "s", inject.WithToolReturn("disk"), inject.WithToolReturnMatching(regexp.MustCompile(`^search_`))))
	if diff := cmp.Diff([]string{"disk", "/^search_/"}, contextunits.CatalogEntry(w).Trigger.Tools); diff != "" {
		t.Errorf("declared tools (-want +got):\n%s", diff)
	}
	sk := inject.Must(inject.Skill("refunds", "How to refund.", "refund"))
	if tr := contextunits.CatalogEntry(sk).Trigger; tr.Kind != inject.TriggerLLMActivated || len(tr.Tools) != 1 || tr.Tools[0] != "refund" {
		t.Errorf("skill trigger = %+v", tr)
	}
	r := inject.Must(inject.Instruction("vip", "v", inject.Rule{Label: "VIP", When: func(flow.Reader) bool { return true }}))
	if tr := contextunits.CatalogEntry(r).Trigger; tr.Kind != inject.TriggerRule || tr.Label != "VIP" {
		t.Errorf("rule trigger = %+v", tr)
	}
}
