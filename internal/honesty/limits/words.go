// This file holds the section labels of the blocks the package renders, in block order; only
// the renderers write them.

package limits

const (
	labelChecked     = "Checked"
	labelNotChecked  = "Not checked"
	labelCannotCover = "Cannot cover"
	labelPeriod      = "Period"
	labelClocks      = "Clocks" // the time block's section naming the clocks the times were read on
	labelInProgress  = "In progress (still running when read; the outcome is not known yet)"
)
