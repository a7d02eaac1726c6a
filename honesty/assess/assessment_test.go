package assess_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
)

func TestReasonOrderIsACopy(t *testing.T) {
	a := assess.ReasonOrder()
	if len(a) == 0 || a[0] != "asked" || !slices.Contains(a, assess.ReasonPeriodNotHeld) {
		t.Fatalf("ReasonOrder() = %v", a)
	}
	a[0] = "changed"
	if assess.ReasonOrder()[0] != "asked" {
		t.Errorf("ReasonOrder handed out its own list: a caller's write changed it")
	}
	if i, j := slices.Index(a, assess.ReasonArgumentAsked), slices.Index(a, assess.ReasonCoverageGap); i < 0 || j < 0 || i > j {
		t.Errorf("argument reasons must report before coverage reasons: %d, %d", i, j)
	}
}

// ExampleAssessment reads a stored standing the way an app branches on it.
func ExampleAssessment() {
	var a assess.Assessment
	_ = json.Unmarshal([]byte(`{"assessment":"unknown","standing":"not-sure","reasons":[{"reason":"period-not-held","layer":3,"witness":[{"kind":"state","key":"findingsLedger","path":"/1/verdict"}]}],"checked":[{"layer":3,"check":"result-period","ran":1,"of":1,"witness":[]}],"turnFrom":"person"}`), &a)
	if a.Standing == assess.StandingNotSure {
		for _, r := range a.Reasons {
			w := r.Witness[0]
			fmt.Println(r.Reason, w.Kind == assess.PointerState, w.Key+w.Path)
		}
	}
	// Output: period-not-held true findingsLedger/1/verdict
}
