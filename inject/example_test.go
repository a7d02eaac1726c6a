// Runnable examples of building units.

package inject_test

import (
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/inject"
)

// A unit records what it is and where it came from when it is built.
func ExampleFact() {
	u := inject.Must(inject.Fact("refund-window", "Refunds are accepted for 30 days."))
	d := u.Definition()
	fmt.Println(d.ID, d.Kind, d.Slot, d.Trigger, d.Chars)
	fmt.Println(d.ContentHash[:15])
	fmt.Println(strings.HasSuffix(d.DefinedAt.File, "example_test.go"))
	// Output:
	// refund-window fact system always 33
	// sha256:8329af2d
	// true
}
