// What a listener is, and the check of a subscription pattern against the closed set of names.

package event

import (
	"errors"
	"fmt"
	"strings"
)

// Listener receives events. It runs synchronously on the emitting
// goroutine, so it should return quickly; it must not modify the payload.
type Listener func(Event)

// ErrPattern is wrapped by CheckPattern's errors.
var ErrPattern = errors.New("event: pattern matches no event")

// CheckPattern reports whether pattern can match a known event: "*", a
// known name, or "agentfootprint.<domain>.*" for a domain that has events.
// On itself accepts any pattern; this check is for callers that take
// patterns from configuration.
func CheckPattern(pattern string) error {
	if pattern == "*" || Name(pattern).known() {
		return nil
	}
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		for _, n := range Names() {
			if strings.HasPrefix(string(n), prefix) {
				return nil
			}
		}
	}
	return fmt.Errorf("%w: %q (use \"*\", an exact name such as %q, or a domain wildcard such as \"agentfootprint.tools.*\")", ErrPattern, pattern, ToolsResult)
}
