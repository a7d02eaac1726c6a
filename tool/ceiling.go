// This file holds the result ceiling: measuring served text and the
// refusal the model reads instead of an oversized result.

package tool

import "fmt"

// Ceiling is a tool's declared limit on the size of what it serves.
type Ceiling struct {
	// MaxChars is the largest served text, in UTF-16 units.
	MaxChars int
	// NarrowBy, when set, says how the model can ask for less.
	NarrowBy string
}

// Check measures served (the text the model would read) against the
// ceiling. Over it, it returns the refusal text to serve instead, the
// true size, and true. A result is refused whole, never truncated.
func (c Ceiling) Check(toolName, served string) (refusal string, sizeChars int, over bool) {
	sizeChars = utf16Len(served)
	if sizeChars <= c.MaxChars {
		return "", sizeChars, false
	}
	return ceilingRefusal(toolName, sizeChars, c.MaxChars, c.NarrowBy), sizeChars, true
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

// UTF16Len counts s in UTF-16 code units, the unit of every character limit
// in this project (result ceilings, question lengths).
func UTF16Len(s string) int { return utf16Len(s) }
