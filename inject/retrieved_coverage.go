// Retrieval coverage: a corpus's coverage declaration as coverageDeclared rows.

package inject

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

// CoverageRowPrefix starts the ToolName of a row a retrieval declared, before the
// retrieval's name, as "tool/" starts a tool's catalog id.
const CoverageRowPrefix = "retrieval/"

// CoverageRows returns the coverageDeclared rows that entries' retrieval records
// declare: one per query whose corpus declared its coverage, with ToolName
// "retrieval/<name>", the query as LookedFor, and no tool call id. A query already
// in existing (the same name and query) is not filed again, so a retrieval that runs
// every iteration files its declaration once per query. A declaration the coverage
// reader does not recognize files nothing.
func CoverageRows(entries []Entry, iteration int, existing []coverage.DeclaredCoverage) []coverage.DeclaredCoverage {
	seen := map[[2]string]bool{}
	for _, r := range existing {
		seen[[2]string{r.ToolName, r.LookedFor}] = true
	}
	var out []coverage.DeclaredCoverage
	for _, e := range entries {
		re := e.Trigger.Retrieval
		if re == nil || re.Record == nil || len(re.Record.Coverage) == 0 {
			continue
		}
		name := CoverageRowPrefix + re.Record.Retrieval
		k := [2]string{name, re.Record.Query}
		if seen[k] {
			continue
		}
		v, err := wire.DecodeJSON(re.Record.Coverage)
		if err != nil {
			continue
		}
		rd := boundary.Read(v, name)
		res, ok := rd.Result, rd.Record
		if !ok {
			continue
		}
		seen[k] = true
		for _, f := range res.Declared {
			row := f.Row(name, "", iteration)
			row.LookedFor = re.Record.Query
			out = append(out, row)
		}
	}
	return out
}
