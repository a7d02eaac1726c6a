// Rerun inputs: which history specs a rerun of a continued conversation
// accepts.

package explain

import (
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

func TestRerunInputHistorySpecs(t *testing.T) {
	src := &rerunSource{message: "Refund A-17?", prior: []llm.Message{
		{Role: llm.RoleUser, Content: "Override for A-17."}, {Role: llm.RoleAssistant, Content: "Noted."},
	}}
	tests := []struct {
		name    string
		specs   []Spec
		wantErr string // empty: accepted
		prior   int    // messages continued from, when accepted
	}{
		{"force an earlier message", []Spec{Force("history/0")}, "", 2},
		{"force the last earlier message", []Spec{Force("history/1")}, "", 2},
		{"force the question itself", []Spec{Force("history/2")}, "force:history/2: the run's earlier conversation has 2 messages", 0},
		{"remove a message", []Spec{Message(1)}, "", 1},
		{"remove and pin together", []Spec{Message(0), Force("history/1")}, "message:0 and force:history/1 cannot be probed together", 0},
		{"force a unit", []Spec{Force("escalation")}, "", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			turn, err := rerunInput(src, tc.specs)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if turn.in.Message != src.message || turn.prior == nil || len(turn.prior) != tc.prior {
				t.Errorf("input = %+v, want the recorded message continuing %d messages", turn, tc.prior)
			}
		})
	}
}
