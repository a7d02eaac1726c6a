// ContextUnits' hand-read JSON gives what encoding/json gives.

package state

import (
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/google/go-cmp/cmp"
)

type plainUnits ContextUnits

func TestContextUnitsReadTheRecordedForm(t *testing.T) {
	yes := true
	in := ContextUnits{
		Iteration: 7,
		Units: []inject.Entry{
			{ID: "system-prompt", Active: true, Trigger: inject.Evidence{Kind: inject.TriggerAlways}, Placed: &inject.Placement{Slot: inject.SlotSystem}},
			{ID: "vip", Trigger: inject.Evidence{Kind: inject.TriggerRule, Label: "vip customer", Matched: &yes,
				Reads: []inject.KeyRead{{Key: "tier", Writer: "seed#0", Commit: 0}}}, Dropped: &inject.Drop{Reason: "budget"}},
		},
		History: HistoryWindow{Sent: []int{0, 1, 2, 5}, Evicted: []Evicted{{Index: 3, Reason: "window"}}},
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := readContextUnits(b); !ok {
		t.Fatalf("the hand reader gave up on the recorded form %s", b)
	}
	var out ContextUnits
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(in, out); d != "" {
		t.Errorf("round trip (-in +out):\n%s", d)
	}
	empty := ContextUnits{Units: []inject.Entry{}, History: HistoryWindow{Sent: []int{}, Evicted: []Evicted{}}}
	b, _ = json.Marshal(empty)
	if _, ok := readContextUnits(b); !ok {
		t.Fatalf("the hand reader gave up on %s", b)
	}
	sameAsEncodingJSON(t, b, ContextUnits{}, func(b []byte, v *ContextUnits) error { return json.Unmarshal(b, (*plainUnits)(v)) }, "plainUnits", "ContextUnits")
}

// FuzzContextUnitsJSON checks that ContextUnits' own reader reads every
// input as encoding/json reads it into the same struct: the same value, and
// the same error text when there is one.
func FuzzContextUnitsJSON(f *testing.F) {
	for _, s := range []string{
		`{"iteration":3,"units":[{"id":"system-prompt","active":true,"trigger":{"kind":"always"},"placed":{"slot":"system","position":0}}],"history":{"sent":[0,1,2],"evicted":[]}}`,
		`{"iteration":1,"units":[],"history":{"sent":[],"evicted":[{"index":0,"reason":"window"}]}}`,
		`{"iteration":1.5,"units":[],"history":{"sent":[],"evicted":[]}}`,
		`{"Iteration":2,"units":null,"history":null}`,
		`{"iteration":2,"units":[{"id":5}],"history":{"sent":[1],"evicted":[]}}`,
		`{"iteration":2,"history":{"sent":["x"],"evicted":[]}}`,
		`{"iteration":2,"iteration":3}`,
		`{"budget":{"capChars":10}}`,
		`[]`, `null`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, prefilled bool) {
		var into ContextUnits
		if prefilled {
			into = ContextUnits{Iteration: 9, Units: []inject.Entry{{ID: "before"}}, History: HistoryWindow{Sent: []int{4}}}
		}
		sameAsEncodingJSON(t, data, into, func(b []byte, v *ContextUnits) error { return json.Unmarshal(b, (*plainUnits)(v)) }, "plainUnits", "ContextUnits")
	})
}
