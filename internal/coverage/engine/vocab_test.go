package engine

import (
	"testing"

	cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

// TestKeyLists: every key list is free of repeats, and each envelope's list opens with its marker
// and ends with its note.
func TestKeyLists(t *testing.T) {
	lists := map[string][]string{
		"AbsenceKeys": AbsenceKeys(), "CoverageKeys": CoverageKeys(), "CoveredResultKeys": CoveredResultKeys(),
		"SemanticsKeys": SemanticsKeys(), "ItemKeys": ItemKeys(), "InProgressItemKeys": InProgressItemKeys(),
		"ProvenanceKeys": ProvenanceKeys(), "RecordOnlyItemKeys": RecordOnlyItemKeys(),
	}
	for name, l := range lists {
		seen := map[string]bool{}
		for _, k := range l {
			if seen[k] {
				t.Errorf("%s repeats %q", name, k)
			}
			seen[k] = true
		}
	}
	for name, c := range map[string]struct {
		keys         []string
		first, final string
	}{
		"AbsenceKeys":   {AbsenceKeys(), cw.AbsenceMarker, "note"},
		"SemanticsKeys": {SemanticsKeys(), cw.SemanticsMarker, "note"},
		"CoverageKeys":  {CoverageKeys(), "checked", "note"},
	} {
		if c.keys[0] != c.first || c.keys[len(c.keys)-1] != c.final {
			t.Errorf("%s = %v", name, c.keys)
		}
	}
	if p := PeriodWire(); p.ReadAt != "read_at" || p.Key != PeriodKey || p.HeldUnknown != "unknown" {
		t.Errorf("PeriodWire = %+v", p)
	}
}
