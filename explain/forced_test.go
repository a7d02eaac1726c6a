package explain

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/inject"
)

// TestForcedKeepsWhatItCan: a forced unit keeps its id, text, slot,
// priority and version; a fact stays a fact, and a skill, which has no
// always-on form, comes back as steering with the same text.
func TestForcedKeepsWhatItCan(t *testing.T) {
	for _, tc := range []struct {
		name string
		unit *inject.Unit
		kind inject.Kind
	}{
		{"fact", inject.Must(inject.Fact("refunds", "Refunds take 30 days.", inject.WithPriority(3), inject.WithVersion("v2"))), inject.KindFact},
		{"skill", inject.Must(inject.Skill("triage", "Check the status page first.", "service_status")), inject.KindSteering},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := forced(tc.unit)
			if err != nil {
				t.Fatal(err)
			}
			was, now := tc.unit.Definition(), got.Definition()
			if now.ID != was.ID || now.Text != was.Text || now.Slot != was.Slot || now.Priority != was.Priority || now.Version != was.Version || now.Kind != tc.kind {
				t.Errorf("forced %s = id %q text %q slot %s priority %d version %q kind %s; want %q %q %s %d %q %s",
					tc.name, now.ID, now.Text, now.Slot, now.Priority, now.Version, now.Kind,
					was.ID, was.Text, was.Slot, was.Priority, was.Version, tc.kind)
			}
		})
	}
}
