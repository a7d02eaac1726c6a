// This file holds the result ceiling as a tool declares it. Measuring a
// served result against it is package tool/toolrun's.

package tool

// ceiling is a tool's declared limit on the size of what it serves.
type ceiling struct {
	// MaxChars is the largest served text, in UTF-16 units.
	MaxChars int
	// NarrowBy, when set, says how the model can ask for less.
	NarrowBy string
}
