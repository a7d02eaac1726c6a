// Forks and selectors: parallel children with their own buffers, committed
// in declaration order once all have settled.

package flow

import (
	"context"
	"errors"
	"sync"
)

// parallel runs the children kids concurrently and commits them in order.
// ctl gives each child's control edge (nil: the current one).
func (e *exec) parallel(ctx context.Context, parent *node, kids []int, ctl func(child string) *Control) error {
	e.r.obs.flow(StageInfo{RunID: e.r.id, RuntimeStageID: e.lastRID, SubflowPath: e.path, LoopIteration: e.r.loops},
		func(h *Hooks) {
			if h.Fork != nil {
				ids := make([]string, len(kids))
				for i, k := range kids {
					ids[i] = e.chart.nodes[k].id
				}
				h.Fork(StageInfo{RunID: e.r.id, RuntimeStageID: e.lastRID, SubflowPath: e.path}, ids)
			}
		})
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	scopes := make([]*Scope, len(kids))
	outs := make([]any, len(kids))
	errs := make([]error, len(kids))
	for i, k := range kids {
		scopes[i] = e.beginIn(cctx, &e.chart.nodes[k], &Scope{par: true})
	}
	e.r.obs.parallel(true)
	var wg sync.WaitGroup
	for i, k := range kids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = callStage(cctx, &e.chart.nodes[k], scopes[i])
			if errs[i] != nil && parent.failFast {
				cancel()
			}
		}()
	}
	wg.Wait()
	e.r.obs.parallel(false)

	// Two siblings writing one key conflict unless every write is an append.
	writers := map[string][]int{}
	nonAppend := map[string]bool{}
	var order []string
	for i, s := range scopes {
		for _, op := range s.ops {
			w := writers[op.Key]
			if len(w) == 0 {
				order = append(order, op.Key)
			}
			if len(w) == 0 || w[len(w)-1] != i {
				writers[op.Key] = append(w, i)
			}
			if op.Verb != VerbAppend {
				nonAppend[op.Key] = true
			}
		}
	}
	for _, key := range order {
		w := writers[key]
		if len(w) < 2 || !nonAppend[key] {
			continue
		}
		ids := make([]string, len(w))
		for j, i := range w {
			ids[j] = scopes[i].info.RuntimeStageID
		}
		last := w[len(w)-1]
		if errs[last] == nil {
			errs[last] = &siblingConflictError{Key: key, Children: ids}
		}
	}
	saved := e.ctl
	var all []error
	for i, s := range scopes {
		if ctl != nil {
			e.ctl = ctl(s.n.id)
		}
		if err := e.end(s, errs[i], nil, nil); err != nil {
			all = append(all, err)
			continue
		}
		e.output = outs[i]
		e.executed(s, "stage", -1)
	}
	e.ctl = saved
	return errors.Join(all...)
}

// selector runs a selector node: its decision commits, then the chosen
// children run in parallel.
func (e *exec) selector(ctx context.Context, n *node) error {
	s := e.begin(ctx, n)
	d, err := callDecider(ctx, n, s)
	var kids []int
	if err == nil && d == nil {
		err = errors.New("selector " + n.id + " returned no decision")
	}
	if err == nil {
		d.Multi = true
		for _, id := range d.Chosen {
			found := false
			for _, k := range n.children {
				if e.chart.nodes[k].id == id {
					found = true
				}
			}
			if !found {
				err = &branchError{Decider: n.id, Branch: id}
				break
			}
		}
		// Children run in declaration order, whatever order the rules chose.
		for _, k := range n.children {
			if contains(d.Chosen, e.chart.nodes[k].id) {
				kids = append(kids, k)
			}
		}
	}
	if err := e.end(s, err, d, nil); err != nil {
		return err
	}
	e.ns[n.idx].lastDecider = len(e.rec.Commits) - 1
	rid := s.info.RuntimeStageID
	e.r.obs.flow(s.info, func(h *Hooks) {
		if h.Selected != nil {
			h.Selected(s.info, d)
		}
	})
	e.executed(s, "selector", -1)
	if len(kids) == 0 {
		return nil
	}
	return e.parallel(ctx, n, kids, func(child string) *Control {
		c := &Control{Decider: rid, Branch: child, RuleIndex: -1}
		for _, r := range d.Rules {
			if r.Matched && r.Branch == child {
				c.Rule, c.RuleIndex = r.Label, r.Index
				break
			}
		}
		return c
	})
}
