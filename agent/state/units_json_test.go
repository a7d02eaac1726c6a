// ContextUnits' hand-read JSON gives what encoding/json gives.

package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/google/go-cmp/cmp"
)

type plainUnits ContextUnits

// unitsBothWays decodes data into a copy of into with ContextUnits'
// UnmarshalJSON, with it called directly (as a reader of checked JSON calls
// it) and with plain encoding/json; the last error reads as it did before
// the type had the method.
func unitsBothWays(data []byte, into ContextUnits) (fast, direct, slow ContextUnits, fastErr, directErr, slowErr error) {
	fast, direct, slow = into, into, into
	fastErr = json.Unmarshal(data, &fast)
	directErr = direct.UnmarshalJSON(data)
	slowErr = json.Unmarshal(data, (*plainUnits)(&slow))
	if slowErr != nil {
		slowErr = errors.New(strings.ReplaceAll(slowErr.Error(), "plainUnits", "ContextUnits"))
	}
	return
}

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
	fast, _, slow, ferr, _, serr := unitsBothWays(b, ContextUnits{})
	if ferr != nil || serr != nil || cmp.Diff(slow, fast) != "" {
		t.Errorf("%s: %v / %v, (-encoding/json +hand-read):\n%s", b, ferr, serr, cmp.Diff(slow, fast))
	}
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
		fast, direct, slow, ferr, derr, serr := unitsBothWays(data, into)
		if fmt.Sprint(ferr) != fmt.Sprint(serr) {
			t.Fatalf("%q: errors differ: %v / %v", data, ferr, serr)
		}
		if d := cmp.Diff(slow, fast); d != "" {
			t.Fatalf("%q reads differently (-encoding/json +UnmarshalJSON):\n%s", data, d)
		}
		if json.Valid(data) {
			if (derr == nil) != (serr == nil) {
				t.Fatalf("%q: called directly: %v, encoding/json: %v", data, derr, serr)
			}
			if d := cmp.Diff(slow, direct); d != "" {
				t.Fatalf("%q reads differently called directly (-encoding/json +UnmarshalJSON):\n%s", data, d)
			}
		}
	})
}
