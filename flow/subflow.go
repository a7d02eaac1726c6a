// Subflows: a chart mounted as one node of another, with isolated state
// seeded by an input mapping and merged back only through explicit ops.

package flow

import (
	"context"
	"fmt"
)

// Mount configures a subflow mount.
//
// Input maps the parent's state (reads through parent are tracked on the
// mount commit) to the subflow's inputs, which seed the inner input commit
// and are read-only inside. Output turns the finished subflow into explicit
// ops on parent keys, applied as the mount's one commit; nil Output discards
// the inner state. An inner or mapping error is recorded on the mount commit
// (the output mapping is skipped) and returned.
type Mount struct {
	Input  func(parent Reader) (map[string]any, error)
	Output func(res SubflowResult, parent Reader) ([]Op, error)
	// PropagateBreak makes a break inside the subflow also stop the parent,
	// after the mount commits.
	PropagateBreak bool
}

// SubflowResult is what a finished subflow hands to its output mapping.
type SubflowResult struct {
	// Output is the subflow's run output.
	Output any
	// State reads the subflow's final state (untracked). It is valid only
	// during the output mapping call.
	State       Reader
	Broke       bool
	BreakReason string
	Record      *Record
}

// stateReader reads an execution's committed state without tracking.
type stateReader struct{ e *exec }

func (r stateReader) Get(key string) (any, bool) {
	if sl := r.e.slot(key); sl != nil {
		return sl.val, true
	}
	return nil, false
}

func (r stateReader) Has(key string) bool { _, ok := r.Get(key); return ok }

func joinPath(parent, id string) string {
	if parent == "" {
		return id
	}
	return parent + "/" + id
}

func callInput(m *Mount, s *Scope) (in map[string]any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("input mapping panicked: %v", p)
		}
	}()
	if m.Input == nil {
		return nil, nil
	}
	in, err = m.Input(s)
	if err != nil {
		err = fmt.Errorf("input mapping: %w", err)
	}
	return in, err
}

func callOutput(m *Mount, res SubflowResult, s *Scope) (ops []Op, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("output mapping panicked: %v", p)
		}
	}()
	ops, err = m.Output(res, s)
	if err != nil {
		err = fmt.Errorf("output mapping: %w", err)
	}
	return ops, err
}

// mountRun executes a subflow mount: input mapping, inner run, output
// mapping, one commit on the parent.
func (e *exec) mountRun(ctx context.Context, n *node) (*Scope, outcome, error) {
	s := e.begin(ctx, n)
	path := joinPath(e.path, n.id)
	e.r.obs.flow(s.info, func(h *Hooks) {
		if h.SubflowEnter != nil {
			h.SubflowEnter(s.info, path)
		}
	})
	inner := e.r.mountExec(n.sub, path)
	inner.depth = e.depth + 1
	var out outcome
	in, err := callInput(n.mount, s)
	if err == nil && inner.depth > maxSubflowDepth {
		err = fmt.Errorf("subflow nesting exceeds %d", maxSubflowDepth)
	}
	if err == nil {
		err = inner.seed(in)
	}
	if err == nil {
		out, err = inner.walk(ctx, 0)
	}
	if e.rec.Subflows == nil {
		e.rec.Subflows = map[string]*Record{}
	}
	e.rec.Subflows[s.info.RuntimeStageID] = inner.rec
	if err == nil && n.mount.Output != nil {
		res := SubflowResult{Output: inner.output, State: stateReader{inner}, Broke: out.broke,
			BreakReason: out.reason, Record: inner.rec}
		var ops []Op
		ops, err = callOutput(n.mount, res, s)
		for _, op := range ops {
			s.applyExternal(op)
		}
	}
	inner.release()
	err = e.end(s, err, nil, e.r.slab.subflowRef(SubflowRef{Path: path, Run: s.info.RuntimeStageID}))
	e.r.obs.flow(s.info, func(h *Hooks) {
		if h.SubflowExit != nil {
			h.SubflowExit(s.info, path)
		}
	})
	return s, out, err
}

// applyExternal stages an op produced by a mapping through the same checks
// as a stage's own writes.
func (s *Scope) applyExternal(op Op) {
	switch op.Verb {
	case VerbSet:
		s.set(op.Key, op.Value)
	case VerbMerge:
		s.Merge(op.Key, op.Value)
	case VerbAppend:
		s.appendTail(op.Key, op.Value)
	case VerbDelete:
		s.Delete(op.Key)
	default:
		s.refuse(op.Key, fmt.Sprintf("output mapping used unknown verb %q", op.Verb))
	}
}
