// Tests of the operator's cap on served tool results.

package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

func TestTruncateServed(t *testing.T) {
	long := strings.Repeat("é😀x", 100) // 400 UTF-16 units
	for _, tc := range []struct {
		name   string
		in     string
		max    int
		cut    bool
		noHead bool
	}{
		{"fits", "short", 10, false, false},
		{"exact", "12345", 5, false, false},
		{"cut with head", long, 150, true, false},
		{"cut, no room for a head", long, 85, true, true},
		{"no cap", long, 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := truncateServed(tc.in, tc.max)
			if cut != tc.cut {
				t.Fatalf("cut = %v", cut)
			}
			if !cut {
				if got != tc.in {
					t.Errorf("changed a result that fits: %q", got)
				}
				return
			}
			var m struct {
				Truncated bool    `json:"truncated"`
				Reason    string  `json:"reason"`
				Head      *string `json:"head"`
			}
			if err := json.Unmarshal([]byte(got), &m); err != nil || !m.Truncated || !strings.Contains(m.Reason, "400") {
				t.Fatalf("marker %q: %v", got, err)
			}
			if (m.Head == nil) != tc.noHead {
				t.Errorf("head = %v", m.Head)
			}
			if m.Head != nil && !strings.HasPrefix(tc.in, *m.Head) {
				t.Errorf("head is not a prefix")
			}
			if n := textlen.UTF16(got); n > tc.max && !tc.noHead {
				t.Errorf("marker is %d units, over the cap %d", n, tc.max)
			}
		})
	}
}
