// Package results is honesty layer 3, the results layer: after every batch of tool calls, at the
// loop head and before the next model call, it files one verdict per call on what that call's
// read covered in time. The model is never asked.
//
// The layer is the flow subflow "sf-results" with four stages, each a thin body over a pure step:
//
//	declare  PlanPeriods   which calls of the batch to judge      -> periodPlan
//	verify   CheckPeriods  one verdict per planned call           -> periodChecks
//	record   PeriodRowsOf  one period row per judged call, emitted -> periodRows
//	resolve  (nothing yet) the place later outcome checks go
//
// New returns the subflow with its mount: the input mapping hands over a batch only on the first
// loop-head visit after the batch ran (BatchToJudge), and the output mapping appends the rows to
// findingsLedger in one op, or writes nothing when there are none.
//
// A call is judged when its result declared a period or when its tool declares a period argument;
// in the second case a result that declared nothing is filed as undeclared. Rows name the call and
// never copy an instant.
//
// The package lives under internal/ because only the agent mounts it (WithResultsLayer, or a
// tool declared with tool.WithPeriod); what it files is read through the findings ledger
// (package honesty/ledger) and the standing (package honesty/assess).
package results
