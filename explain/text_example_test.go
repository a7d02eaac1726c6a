package explain_test

import (
	"fmt"
	"os"

	"github.com/agentfootprint/agentfootprint-go/explain"
)

// A chain renders as text, the form `agentfootprint explain` prints; each suspect is shown
// under the name ablation takes back (explain.ParseSuspect).
func ExampleChain_WriteText() {
	ch, err := explain.Backtrack(exampleRecord(), explain.Target{})
	if err != nil {
		fmt.Println(err)
		return
	}
	// A definition site is a file path on the machine that ran the agent; it is cleared here
	// so that this output is the same everywhere.
	for i := range ch.Suspects {
		ch.Suspects[i].Born.DefinedAt = nil
	}
	if err := ch.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// %+v prints the same text, never pointers.
	fmt.Println(fmt.Sprintf("%+v", ch) == ch.String())
	// Output:
	// ANSWER   call-llm#2 (commit 3, made final by prepare-final#4): "APPROVED: VIP override."
	// READ     iteration ← seed#0 (commit 1)
	// READ     contextUnits ← context#1 (commit 2)
	// READ     history ← seed#0 (commit 1)
	//
	// #1 unit:vip-override  score 0.792
	//   LANDED   context#1 contextUnits/units/0, system slot position 0, bytes [22, 65) of request 622eefbb8f49
	//   ALLOWED  context#1 trigger always
	//   BORN     seed#0 fact c92cac6b4937
	//
	// #2 unit:style  score 0.050
	//   LANDED   context#1 contextUnits/units/1, system slot position 1, bytes [69, 92) of request 622eefbb8f49
	//   ALLOWED  context#1 trigger always
	//   BORN     seed#0 steering 5a0dbdd401ed
	// true
}
