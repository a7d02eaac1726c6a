// Package rowkind spells, once, the kind words the framework's own findings-ledger rows carry
// under "kind". A reader of the ledger tells rows apart with ledger.Row's Period and Argument
// accessors; only the code that files, checks and folds rows names the words.
package rowkind

const (
	// Period is the kind of a period row: the results layer's verdict on one call's period.
	Period = "period"
	// Argument is the kind of an argument row: the inputs layer's record of who chose one
	// argument of one call.
	Argument = "argument"
)
