// Runnable examples of units and their evaluation.

package inject_test

import (
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
)

// A unit records what it is and where it came from when it is built.
func ExampleFact() {
	u := inject.Must(inject.Fact("refund-window", "Refunds are accepted for 30 days."))
	e := u.Entry()
	fmt.Println(e.ID, e.Kind, e.Slot, e.Trigger.Kind, e.Chars)
	fmt.Println(e.ContentHash[:15])
	fmt.Println(strings.HasSuffix(e.DefinedAt.File, "example_test.go"))
	// Output:
	// refund-window fact system always 33
	// sha256:8329af2d
	// true
}

// An instruction fires while its rule holds; the evidence lists the keys
// the rule read and who last wrote them.
func ExampleInstruction() {
	vip := inject.Must(inject.Instruction("vip-tone", "Address the customer by name.", inject.Rule{
		Label: "customer is VIP",
		When: func(r flow.Reader) bool {
			v, _ := r.Get("userMessage")
			s, _ := v.(string)
			return strings.Contains(s, "VIP")
		},
	}))
	r := mapReader{vals: map[string]any{"userMessage": "VIP here"}, writers: map[string]int{"userMessage": 1}}
	e := inject.Evaluate([]*inject.Unit{vip}, r, inject.Env{Iteration: 1})[0]
	fmt.Println(e.Active, e.Trigger.Label, e.Trigger.Reads[0].Key, e.Trigger.Reads[0].Writer)
	// Output:
	// true customer is VIP userMessage stage#1
}
