// Package retrievalcov files a corpus's coverage declaration as coverageDeclared rows: the
// agent's context stage turns the retrieval records of an iteration into the rows the
// standing folds like a tool's.
package retrievalcov

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/inject"
)

// rowPrefix starts the ToolName of a row a retrieval declared, before the
// retrieval's name, as "tool/" starts a tool's catalog id.
const rowPrefix = "retrieval/"

// Rows returns the coverageDeclared rows that entries' retrieval records
// declare: one per query whose corpus declared its coverage, with ToolName
// "retrieval/<name>", the query as LookedFor, and no tool call id. A query already
// in existing (the same name and query) is not filed again, so a retrieval that runs
// every iteration files its declaration once per query. A declaration the coverage
// reader does not recognize files nothing.
func Rows(entries []inject.Entry, iteration int, existing []coverage.DeclaredCoverage) []coverage.DeclaredCoverage {
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
		name := rowPrefix + re.Record.Retrieval
		k := [2]string{name, re.Record.Query}
		if seen[k] {
			continue
		}
		v, err := wire.DecodeJSON(re.Record.Coverage)
		if err != nil {
			continue
		}
		rd := boundary.Read(v, name, nil)
		res, ok := rd, rd.Record
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
