// Compositions: agents made of agents. A Composition is a flow chart whose
// nodes run named inner agents (Call), in order (Sequence), at once with an
// explicit merge (Parallel), repeatedly under a budget (Loop) or as a
// router chooses (Conditional); the whole thing is one run with one commit
// log, and each inner run's log is kept under the outer node that ran it.

package compose

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/flow"
)

// Step is one part of a composition, built by Call, Sequence, Parallel,
// Loop or Conditional.
type Step interface {
	// kind names the step in errors ("agent", "sequence", …).
	kind() string
}

// callStep runs one named inner agent on the current message.
type callStep struct {
	name     string
	a        *agent.Agent
	required bool
}

func (*callStep) kind() string { return "agent" }

// Call is the step that runs agent a, under name, on the current message
// (the composition's input, or the previous step's answer); its answer
// becomes the current message. Names are unique within a composition and
// name the inner run in the record, in errors and in the roll-up.
func Call(name string, a *agent.Agent) Step { return &callStep{name: name, a: a} }

// Required marks a Parallel branch (a Call) whose failure fails the
// composition at once, cancelling the other branches; an unmarked branch
// is tolerant: its failure is one of the outcomes the merge sees.
func Required(s Step) Step {
	if c, ok := s.(*callStep); ok {
		cp := *c
		cp.required = true
		return &cp
	}
	return &badStep{err: fmt.Errorf("Required wraps a Call, not a %s", kindOf(s))}
}

type seqStep struct{ steps []Step }

func (*seqStep) kind() string { return "sequence" }

// Sequence runs steps one after another; each step's answer is the next
// step's input.
func Sequence(steps ...Step) Step { return &seqStep{steps: steps} }

// Outcome is what one inner agent call produced, as a merge, a loop's test
// and the roll-up see it.
type Outcome struct {
	// Agent is the step's name; Node the outer commit that ran it.
	Agent string `json:"agent"`
	Node  string `json:"node"`
	// Group is the Parallel the call was a branch of ("" for none).
	Group  string `json:"group,omitempty"`
	Input  string `json:"input"`
	Answer string `json:"answer"`
	// Standing is the inner answer's standing (honesty/assess words).
	Standing string `json:"standing"`
	// Error is the inner failure's message, for a tolerant branch.
	Error string `json:"error,omitempty"`
	// Removed marks a call an ablation left out (Composition.Without).
	Removed bool `json:"removed,omitempty"`
}

// MergeFunc combines the outcomes of a Parallel's branches, in declared
// order, into the composition's next message.
type MergeFunc func(ctx context.Context, outcomes []Outcome) (string, error)

// ParallelOptions configures a Parallel.
type ParallelOptions struct {
	// Limit is the most branches running at once (0: all of them).
	Limit int
	// Merge combines the branches' outcomes; exactly one of Merge and
	// MergeAgent is set.
	Merge MergeFunc
	// MergeAgent is an agent (a model call) that merges: its message lists
	// every branch's outcome in declared order. It is recorded as the step
	// named "<parallel>.merge".
	MergeAgent *agent.Agent
}

type parStep struct {
	name     string
	opt      ParallelOptions
	branches []*callStep
	err      error
}

func (*parStep) kind() string { return "parallel" }

// Parallel runs its branches (Calls, each on the same current message) at
// the same time, at most opt.Limit at once, then merges every branch's
// outcome, in declared order, with opt.Merge or opt.MergeAgent. The
// branches' commits and records are kept in declared order whatever order
// they finish in.
func Parallel(name string, opt ParallelOptions, branches ...Step) Step {
	p := &parStep{name: name, opt: opt}
	for i, b := range branches {
		c, ok := b.(*callStep)
		if !ok {
			p.err = errors.Join(p.err, fmt.Errorf("branch %d is a %s; a branch is a Call", i, kindOf(b)))
			continue
		}
		p.branches = append(p.branches, c)
	}
	return p
}

type loopStep struct {
	name   string
	body   Step
	budget int
	until  func(answer string) bool
}

func (*loopStep) kind() string { return "loop" }

// Loop runs body again and again, at most budget passes (a budget is
// required), until until returns true for the pass's answer (nil: run the
// whole budget). The exit reason ("until" or "budget") is recorded with the
// decision that ended the loop.
func Loop(name string, body Step, budget int, until func(answer string) bool) Step {
	return &loopStep{name: name, body: body, budget: budget, until: until}
}

// Route is one branch of a Conditional.
type Route struct {
	Name string
	Step Step
}

// Router chooses a Conditional's route for the current message and says
// why; the choice and the why are recorded with the decision.
type Router func(ctx context.Context, message string) (route, why string, err error)

type condStep struct {
	name   string
	router Router
	routes []Route
}

func (*condStep) kind() string { return "conditional" }

// Conditional asks router which of routes runs on the current message. The
// choice is a recorded decision whose evidence holds the router's reason.
func Conditional(name string, router Router, routes ...Route) Step {
	return &condStep{name: name, router: router, routes: routes}
}

type badStep struct{ err error }

func (*badStep) kind() string { return "invalid step" }

func kindOf(s Step) string {
	if s == nil {
		return "nil step"
	}
	return s.kind()
}

// refusal is a composition refused at construction (or a Replace or
// Without refused): step names the step (or agent) at fault.
type refusal struct {
	step   string
	reason string
}

// Error names the step at fault and why.
func (e *refusal) Error() string {
	return fmt.Sprintf("agent: composition: %s: %s", e.step, e.reason)
}

// check walks the step tree once: names present and unique, budgets set,
// merges set, no step reached from itself.
func (c *compiler) check(s Step, path []Step) {
	for _, p := range path {
		if p == s {
			c.fail(kindOf(s), "the step contains itself (a cycle)")
			return
		}
	}
	path = append(path, s)
	name := func(kind, n string) bool {
		if strings.TrimSpace(n) == "" {
			c.fail(kind, "a name is required")
			return false
		}
		if c.names[n] {
			c.fail(fmt.Sprintf("%s %q", kind, n), "the name is used twice; names are unique within a composition")
			return false
		}
		c.names[n] = true
		return true
	}
	switch x := s.(type) {
	case nil:
		c.fail("step", "nil step")
	case *badStep:
		c.fail("step", x.err.Error())
	case *callStep:
		if name("agent", x.name) && x.a == nil {
			c.fail(fmt.Sprintf("agent %q", x.name), "the agent is nil")
		}
	case *seqStep:
		if len(x.steps) == 0 {
			c.fail("sequence", "it has no steps")
		}
		for _, st := range x.steps {
			c.check(st, path)
		}
	case *parStep:
		if !name("parallel", x.name) {
			return
		}
		where := fmt.Sprintf("parallel %q", x.name)
		if x.err != nil {
			c.fail(where, x.err.Error())
		}
		if len(x.branches) == 0 {
			c.fail(where, "it has no branches")
		}
		if (x.opt.Merge == nil) == (x.opt.MergeAgent == nil) {
			c.fail(where, "exactly one of Merge and MergeAgent is required")
		}
		if x.opt.Limit < 0 {
			c.fail(where, fmt.Sprintf("the limit must not be negative, got %d", x.opt.Limit))
		}
		for _, b := range x.branches {
			c.check(b, path)
		}
		if x.opt.MergeAgent != nil {
			name("agent", x.name+".merge")
		}
	case *loopStep:
		if !name("loop", x.name) {
			return
		}
		if x.budget < 1 {
			c.fail(fmt.Sprintf("loop %q", x.name), fmt.Sprintf("a budget of at least one pass is required, got %d", x.budget))
		}
		c.check(x.body, path)
	case *condStep:
		if !name("conditional", x.name) {
			return
		}
		where := fmt.Sprintf("conditional %q", x.name)
		if x.router == nil {
			c.fail(where, "the router is nil")
		}
		if len(x.routes) == 0 {
			c.fail(where, "it has no routes")
		}
		seen := map[string]bool{}
		for _, r := range x.routes {
			if r.Name == "" || seen[r.Name] {
				c.fail(where, fmt.Sprintf("route names must be present and unique, got %q", r.Name))
			}
			seen[r.Name] = true
			c.check(r.Step, path)
		}
	default:
		c.fail("step", fmt.Sprintf("unknown step type %T", s))
	}
}

func (c *compiler) fail(step, reason string) {
	c.errs = append(c.errs, &refusal{step: step, reason: reason})
}

// nodeAdder is what compiling needs of a chart or a branch flow.Builder.
type nodeAdder interface {
	stage(id string, fn flow.StageFunc)
	decider(id string, fn flow.DeciderFunc, branches ...*flow.Builder)
	fork(id string, opt flow.ForkOptions, children ...flow.Child)
	pausable(id string, p flow.Pausable)
	loopTo(id string)
}

type builderAdder struct{ b *flow.Builder }

func (x builderAdder) stage(id string, fn flow.StageFunc) { x.b.Stage(id, fn) }
func (x builderAdder) decider(id string, fn flow.DeciderFunc, br ...*flow.Builder) {
	x.b.Decider(id, fn, br...)
}
func (x builderAdder) fork(id string, o flow.ForkOptions, ch ...flow.Child) { x.b.Fork(id, o, ch...) }
func (x builderAdder) pausable(id string, p flow.Pausable)                  { x.b.Pausable(id, p) }
func (x builderAdder) loopTo(id string)                                     { x.b.LoopTo(id) }

type seqAdder struct{ q *flow.Builder }

func (x seqAdder) stage(id string, fn flow.StageFunc) { x.q.Stage(id, fn) }
func (x seqAdder) decider(id string, fn flow.DeciderFunc, br ...*flow.Builder) {
	x.q.Decider(id, fn, br...)
}
func (x seqAdder) fork(id string, o flow.ForkOptions, ch ...flow.Child) { x.q.Fork(id, o, ch...) }
func (x seqAdder) pausable(id string, p flow.Pausable)                  { x.q.Pausable(id, p) }
func (x seqAdder) loopTo(id string)                                     { x.q.LoopTo(id) }
