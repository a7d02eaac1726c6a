// The operator's cap on served tool results (WithMaxToolResultChars): applied
// last, it replaces an over-long result with a marker object that says so and
// keeps as much of the head as fits.

package agent

import (
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// WithMaxToolResultChars caps what the model is served from any tool at n
// UTF-16 units. A longer result is replaced by {"truncated": true, "reason",
// "head"?} within the cap, after every other step that shapes the served text. There
// is no default; n < 1 is refused.
func WithMaxToolResultChars(n int) Option {
	return func(c *config) {
		c.maxResultChars = n
		if n < 1 {
			c.errs = append(c.errs, fmt.Errorf("agent: maxToolResultChars %d: must be at least 1", n))
		}
	}
}

// truncateServed returns served unchanged when it fits in max, else the
// marker. The marker is compact JSON whose UTF-16 length is at most max when
// max leaves room for the reason; the head is the longest prefix that fits.
func truncateServed(served string, max int) (string, bool) {
	size := textlen.UTF16(served)
	if max < 1 || size <= max {
		return served, false
	}
	reason := fmt.Sprintf("the result had %d characters, over the operator's limit of %d", size, max)
	mark := func(head string) string {
		v := struct {
			Truncated bool   `json:"truncated"`
			Reason    string `json:"reason"`
			Head      string `json:"head,omitempty"`
		}{true, reason, head}
		b, _ := json.Marshal(v)
		return string(b)
	}
	runes := []rune(served)
	lo, hi := 0, len(runes)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if textlen.UTF16(mark(string(runes[:mid]))) <= max {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return mark(string(runes[:lo])), true
}
