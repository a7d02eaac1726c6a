// Tests of unit construction and evaluation.

package inject_test

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/google/go-cmp/cmp"
)

func helperFact(id string) *inject.Unit {
	return inject.Must(inject.Fact(id, "from a helper", inject.WithCallerSkip(1)))
}

func TestBornTracked(t *testing.T) {
	_, _, line, _ := runtime.Caller(0)
	u := inject.Must(inject.Fact("refund-window", "Refunds: 30 days. 😀")) // line+1
	sum := sha256.Sum256([]byte("Refunds: 30 days. 😀"))
	if u.Definition().ContentHash != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Errorf("hash = %s", u.Definition().ContentHash)
	}
	if u.Definition().Chars != 20 { // the emoji is two UTF-16 units
		t.Errorf("chars = %d, want 20", u.Definition().Chars)
	}
	site := u.Definition().DefinedAt
	if !strings.HasSuffix(site.File, "inject_test.go") || site.Line != line+1 || !strings.HasSuffix(site.Function, "TestBornTracked") {
		t.Errorf("site = %+v", site)
	}
	_, _, line, _ = runtime.Caller(0)
	h := helperFact("via-helper") // CallerSkip(1) records this line, not the helper's
	if got := h.Definition().DefinedAt; got.Line != line+1 || !strings.HasSuffix(got.Function, "TestBornTracked") {
		t.Errorf("helper site = %+v", got)
	}
}

func TestDefinitionRefusals(t *testing.T) {
	errOf := func(u *inject.Unit, err error) error {
		if u != nil && err != nil {
			t.Errorf("a refused definition returned a unit too: %v", err)
		}
		return err
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"upper case id", errOf(inject.Fact("Refunds", "x")), "must match"},
		{"long id", errOf(inject.Fact(strings.Repeat("a", 65), "x")), "must match"},
		{"empty text", errOf(inject.Steering("s", "")), "empty"},
		{"nil when", errOf(inject.Fact("f", "x", inject.WithRule("l", nil))), "nil"},
		{"no tools", errOf(inject.Fact("f", "x", inject.WithToolReturn())), "no tool"},
		{"bad role", errOf(inject.Fact("f", "x", inject.WithMessageSlot(llm.RoleTool))), "role"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", tc.err, tc.want)
			}
		})
	}
}

// TestDefinition checks that a unit's definition reports what each
// constructor and option set, and that changing the copy changes no unit.
func TestDefinition(t *testing.T) {
	re := regexp.MustCompile(`^disk_`)
	u := inject.Must(inject.Fact("after-disk", "Disk data can lag.",
		inject.WithToolReturn("disk_usage"), inject.WithToolReturnMatching(re),
		inject.WithMessageSlot(llm.RoleUser), inject.WithPriority(3), inject.WithVersion("v2")))
	d := u.Definition()
	if d.ID != "after-disk" || d.Kind != inject.KindFact || d.Text != "Disk data can lag." || d.Chars != 18 ||
		d.Slot != inject.SlotMessages || d.Role != llm.RoleUser || d.Priority != 3 || d.Version != "v2" ||
		d.Trigger != inject.TriggerOnToolReturn || d.ToolPattern != re || d.Retrieval != nil || d.Rule.When != nil {
		t.Errorf("definition = %+v", d)
	}
	if diff := cmp.Diff([]string{"disk_usage"}, d.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	d.Tools[0] = "changed"
	if got := u.Definition().Tools[0]; got != "disk_usage" {
		t.Errorf("after changing the copy, tools[0] = %q", got)
	}

	s := inject.Must(inject.Skill("refunds", "How to refund.", "refund", "lookup"))
	sd := s.Definition()
	if sd.Trigger != inject.TriggerLLMActivated || sd.Slot != inject.SlotSystem || sd.Role != "" || len(sd.Tools) != 0 {
		t.Errorf("skill definition = %+v", sd)
	}
	if diff := cmp.Diff([]string{"refund", "lookup"}, sd.SkillTools); diff != "" {
		t.Errorf("skill tools (-want +got):\n%s", diff)
	}

	vip := inject.Rule{Label: "vip", When: func(flow.Reader) bool { return true }}
	i := inject.Must(inject.Instruction("vip-tone", "Use the name.", vip))
	if id := i.Definition(); id.Trigger != inject.TriggerRule || id.Rule.Label != "vip" || id.Rule.When == nil {
		t.Errorf("instruction definition = %+v", id)
	}
	// An option that replaces the trigger leaves no trace of the old one.
	swapped := inject.Must(inject.Instruction("after-vip", "Use the name.", vip, inject.WithToolReturn("crm_lookup")))
	if sd := swapped.Definition(); sd.Trigger != inject.TriggerOnToolReturn || sd.Rule.When != nil || sd.Rule.Label != "" ||
		len(sd.Tools) != 1 || sd.Tools[0] != "crm_lookup" {
		t.Errorf("swapped definition = %+v", sd)
	}
}
