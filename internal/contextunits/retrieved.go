// Passage units: one query per retrieval per evaluation, shared by the
// retrieval's passage units, with picks the agent has no unit for dropped.

package contextunits

import (
	"context"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/inject"
)

type retrievals struct {
	ctx  context.Context
	r    Reader
	defs []inject.Definition
	done map[string]*retrievedRun
}

type retrievedRun struct {
	rec   inject.Retrieved
	reads []inject.KeyRead
	byID  map[string]int
	owner bool // the record was handed to a unit already
}

func (rs *retrievals) evaluate(d *inject.Definition) inject.Evidence {
	name := d.Retrieval.Name()
	run, ok := rs.done[name]
	if !ok {
		run = rs.run(d.Retrieval)
		rs.done[name] = run
	}
	ev := inject.Evidence{Kind: inject.TriggerRetrieved, Label: name, Reads: run.reads, Error: run.rec.Error}
	re := &inject.RetrievalEvidence{Retrieval: name, Query: run.rec.Query}
	if i, ok := run.byID[d.ID]; ok {
		c := run.rec.Candidates[i]
		re.Candidate = &c
		matched := c.Picked
		ev.Matched = &matched
	} else {
		matched := false
		ev.Matched = &matched
	}
	if !run.owner {
		run.owner = true
		rec := run.rec
		re.Record = &rec
	}
	ev.Retrieval = re
	return ev
}

func (rs *retrievals) run(ret inject.Retrieval) (run *retrievedRun) {
	tr := &trackingReader{r: rs.r}
	run = &retrievedRun{}
	defer func() {
		if p := recover(); p != nil {
			run.rec = inject.Retrieved{Retrieval: ret.Name(), Error: fmt.Sprintf("the retrieval panicked: %v", p)}
		}
		run.reads = tr.reads
		if run.reads == nil {
			run.reads = []inject.KeyRead{}
		}
		if run.rec.Candidates == nil {
			run.rec.Candidates = []inject.Candidate{}
		}
		run.byID = make(map[string]int, len(run.rec.Candidates))
		for i, c := range run.rec.Candidates {
			run.byID[c.ID] = i
		}
	}()
	ctx := rs.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	run.rec = ret.Retrieve(ctx, tr)
	if run.rec.Retrieval == "" {
		run.rec.Retrieval = ret.Name()
	}
	rs.dropMissing(ret.Name(), &run.rec)
	return run
}

func (rs *retrievals) dropMissing(name string, rec *inject.Retrieved) {
	have := map[string]bool{}
	for i := range rs.defs {
		if d := &rs.defs[i]; d.Retrieval != nil && d.Retrieval.Name() == name {
			have[d.ID] = true
		}
	}
	cands := make([]inject.Candidate, len(rec.Candidates))
	copy(cands, rec.Candidates)
	for i, c := range cands {
		if c.Picked && !have[c.ID] {
			cands[i].Picked = false
			cands[i].Dropped = inject.DropNoUnit
			rec.Spent -= c.Chars
		}
	}
	rec.Candidates = cands
}
