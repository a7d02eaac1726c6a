// This file holds the result ceiling at serving time: measuring served text
// and the refusal the model reads instead of an oversized result.

package toolrun

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// CheckCeiling measures served (the text the model would read) against d's
// result ceiling. Over it, it returns the refusal text to serve instead,
// the true size, and true. A result is refused whole, never truncated. A
// tool without a ceiling is never over.
func CheckCeiling(d tool.Declaration, served string) (refusal string, sizeChars int, over bool) {
	sizeChars = textlen.UTF16(served)
	if d.ResultCeiling <= 0 || sizeChars <= d.ResultCeiling {
		return "", sizeChars, false
	}
	return ceilingRefusal(d.Name, sizeChars, d.ResultCeiling, d.NarrowBy), sizeChars, true
}

// ceilingRefusal is the text the model reads when a result is over its
// tool's ceiling: no data was returned, the true size, the ceiling, and how
// to narrow the call. It names the tool and never includes the data.
func ceilingRefusal(toolName string, sizeChars, maxChars int, narrowBy string) string {
	msg := fmt.Sprintf("No data was returned: the %s result was %d characters, over the tool's limit of %d characters, so it was withheld rather than cut.", toolName, sizeChars, maxChars)
	if narrowBy != "" {
		return msg + " Call it again asking for less, narrowing by " + narrowBy + "."
	}
	return msg + " Call it again asking for less."
}
