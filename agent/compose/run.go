// Running a composition: the chart its steps compile to, one inner agent
// turn per Call node (kept under that node's runtime id), the parallel
// bound and merge, the loop's budget and the router's decision, and the
// one record the run leaves.

package compose

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
)

// The composition chart's own keys.
var (
	kCMessage  = flow.Key[string]("message")
	kCOutcomes = flow.List[Outcome]("outcomes")
)

// Provider is the provider name a composition's manifest carries:
// the model calls are the inner agents'.
const Provider = "composition"

// Composition is agents made of agents: a chart built once from its steps
// and shared, like an *agent.Agent, by every goroutine. Each Run is one run with
// one record.
type Composition struct {
	name          string
	root          Step
	removed       map[string]bool         // Without
	replaced      map[string]*agent.Agent // Replace
	chart         *flow.Chart
	structureJSON json.RawMessage
	calls         map[string]*callStep
	pars          map[string]*parStep
	agents        []string
	now           func() time.Time
}

// compiler turns the step tree into chart nodes.
type compiler struct {
	names map[string]bool
	errs  []error
	keys  []flow.KeyDecl
	comp  *Composition
	// removed are the calls an ablation leaves out (Without); replaced
	// the calls that run another agent (Replace).
	removed  map[string]bool
	replaced map[string]*agent.Agent
}

// use is st, or a copy running the replacement agent.
func (cc *compiler) use(st *callStep) *callStep {
	if a := cc.replaced[st.name]; a != nil {
		cp := *st
		cp.a = a
		return &cp
	}
	return st
}

// New builds a composition named name from root. It refuses, naming
// the step, an unnamed or duplicate name, a loop without a budget, a
// parallel without exactly one merge, and a step reached from itself.
func New(name string, root Step) (*Composition, error) {
	return compose(name, root, nil, nil)
}

// Without is the ablation of inner agents: a copy of the composition in
// which the named calls do not run. A removed call leaves the message as
// it was and records an outcome marked removed (a removed branch is still
// one of the outcomes its merge sees), so a rerun shows what the answer
// owed to it. A name that is not an inner call is refused.
func (c *Composition) Without(names ...string) (*Composition, error) {
	removed := maps.Clone(c.removed)
	if removed == nil {
		removed = map[string]bool{}
	}
	for _, n := range names {
		if err := c.hasCall(n); err != nil {
			return nil, err
		}
		removed[n] = true
	}
	return compose(c.name, c.root, removed, c.replaced)
}

// Replace returns a copy of the composition in which the call name runs a
// instead of its agent: the way to ablate an inner agent's tool or context
// unit (build the inner agent again without it, then Replace). A name that
// is not an inner call, or a nil agent, is refused.
func (c *Composition) Replace(name string, a *agent.Agent) (*Composition, error) {
	if err := c.hasCall(name); err != nil {
		return nil, err
	}
	if a == nil {
		return nil, &refusal{step: fmt.Sprintf("agent %q", name), reason: "the replacement agent is nil"}
	}
	replaced := maps.Clone(c.replaced)
	if replaced == nil {
		replaced = map[string]*agent.Agent{}
	}
	replaced[name] = a
	return compose(c.name, c.root, c.removed, replaced)
}

func (c *Composition) hasCall(n string) error {
	if _, ok := c.calls[n]; !ok {
		return &refusal{step: fmt.Sprintf("agent %q", n), reason: fmt.Sprintf("not an inner agent of composition %q (agents: %s)", c.name, strings.Join(c.agents, ", "))}
	}
	return nil
}

func compose(name string, root Step, removed map[string]bool, replaced map[string]*agent.Agent) (*Composition, error) {
	if strings.TrimSpace(name) == "" {
		return nil, &refusal{step: "composition", reason: "a name is required"}
	}
	c := &Composition{name: name, root: root, calls: map[string]*callStep{}, pars: map[string]*parStep{}, now: time.Now,
		removed: removed, replaced: replaced}
	cc := &compiler{names: map[string]bool{}, comp: c, keys: []flow.KeyDecl{kCMessage, kCOutcomes}, removed: removed, replaced: replaced}
	cc.check(root, nil)
	if len(cc.errs) > 0 {
		return nil, errors.Join(cc.errs...)
	}
	b := flow.NewBuilder("compose:" + name)
	b.Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
		kCMessage.Set(s, compRunOf(ctx).message)
		return nil, nil
	})
	ad := builderAdder{b}
	cc.emit(root, ad)
	b.Stage("answer", func(ctx context.Context, s *flow.Scope) (any, error) {
		msg, _ := kCMessage.Get(s)
		return msg, nil
	})
	b.Keys(cc.keys...)
	chart, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("agent: composition %q: %w", name, err)
	}
	c.chart = chart
	st, err := json.Marshal(chart.Structure())
	if err != nil {
		return nil, fmt.Errorf("agent: composition %q: structure: %w", name, err)
	}
	c.structureJSON = st
	return c, nil
}

// MustNew is New that panics on a refused composition, for
// compositions fixed at compile time.
func MustNew(name string, root Step) *Composition {
	c, err := New(name, root)
	if err != nil {
		panic(err)
	}
	return c
}

func callID(name string) string { return "agent:" + name }

// newRunID is a fresh random run id, in the agent's form.
func newRunID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return ""
	}
	return "run-" + hex.EncodeToString(b[:])
}

// emit appends s's nodes to q and returns the id of the first one.
func (cc *compiler) emit(s Step, q nodeAdder) string {
	switch x := s.(type) {
	case *callStep:
		x = cc.use(x)
		cc.comp.calls[x.name] = x
		cc.comp.agents = append(cc.comp.agents, x.name)
		id := callID(x.name)
		if cc.removed[x.name] {
			q.stage(id, removedNode(x, ""))
			return id
		}
		q.pausable(id, cc.comp.callNode(x))
		return id
	case *seqStep:
		first := ""
		for _, st := range x.steps {
			if id := cc.emit(st, q); first == "" {
				first = id
			}
		}
		return first
	case *parStep:
		cc.comp.pars[x.name] = x
		id := "parallel:" + x.name
		children := make([]flow.Child, len(x.branches))
		failFast := false
		for i, br := range x.branches {
			br = cc.use(br)
			cc.comp.calls[br.name] = br
			cc.comp.agents = append(cc.comp.agents, br.name)
			fn := cc.comp.branchNode(x, br)
			if cc.removed[br.name] {
				fn = removedNode(br, x.name)
			}
			children[i] = flow.NewChild(callID(br.name), fn)
			failFast = failFast || br.required
		}
		q.fork(id, flow.ForkOptions{FailFast: failFast}, children...)
		if x.opt.MergeAgent != nil {
			m := cc.use(&callStep{name: x.name + ".merge", a: x.opt.MergeAgent})
			cc.comp.calls[m.name] = m
			cc.comp.agents = append(cc.comp.agents, m.name)
			if cc.removed[m.name] {
				q.stage(callID(m.name), removedNode(m, ""))
			} else {
				q.pausable(callID(m.name), cc.comp.mergeAgentNode(x, m))
			}
		} else {
			q.stage("merge:"+x.name, cc.comp.mergeNode(x))
		}
		return id
	case *loopStep:
		pass := flow.Key[int]("loop:" + x.name + ":pass")
		exit := flow.Key[string]("loop:" + x.name + ":exit")
		cc.keys = append(cc.keys, pass, exit)
		enter := "loop:" + x.name
		q.stage(enter, func(ctx context.Context, s *flow.Scope) (any, error) {
			pass.Set(s, 0)
			exit.Set(s, "")
			return nil, nil
		})
		body := cc.emit(x.body, q)
		q.decider("loop:"+x.name+":check", cc.comp.loopCheck(x, pass, exit),
			flow.Branch("again").LoopTo(body),
			flow.Branch("exit"))
		return enter
	case *condStep:
		route := flow.Key[string]("route:" + x.name)
		why := flow.Key[string]("route:" + x.name + ":why")
		cc.keys = append(cc.keys, route, why)
		branches := make([]*flow.Builder, len(x.routes))
		for i, r := range x.routes {
			branches[i] = flow.Branch(r.Name)
			cc.emit(r.Step, seqAdder{branches[i]})
		}
		id := "route:" + x.name
		q.decider(id, cc.comp.routeDecider(x, route, why), branches...)
		return id
	}
	return ""
}

// removedNode stands for an ablated call: it records the call as removed
// and leaves the message unchanged.
func removedNode(st *callStep, group string) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) (any, error) {
		msg, _ := kCMessage.Get(s)
		kCOutcomes.Append(s, Outcome{Agent: st.name, Node: s.Info().RuntimeStageID, Group: group, Input: msg, Removed: true})
		return nil, nil
	}
}

// compRun is one run (or resumed leg) of a composition, reached from its
// nodes through the context.
type compRun struct {
	c       *Composition
	runID   string
	start   time.Time
	message string

	mu    sync.Mutex
	inner []innerRun
	sem   map[string]chan struct{}
	// pending is the inner pause the outer run stopped on; resume is the
	// one a resumed leg answers (each a paused turn as the inner
	// conversation's checkpoint keeps it).
	pending     *innerPause
	pendingCall string
	resume      *innerPause
}

// innerRun is one inner agent turn's record and the outer node that ran it.
type innerRun struct {
	node, agent string
	rec         *record.Record
}

type compKey struct{}

func compRunOf(ctx context.Context) *compRun {
	cr, _ := ctx.Value(compKey{}).(*compRun)
	return cr
}

// InnerError is an inner agent's failure: which call failed, on which
// outer node, and why. The outer record keeps the inner run.
type InnerError struct {
	Agent string
	Node  string
	Err   error
}

// Error names the inner agent, its node and the cause.
func (e *InnerError) Error() string {
	return fmt.Sprintf("agent: composition: inner agent %q (node %s) failed: %v", e.Agent, e.Node, e.Err)
}

// Unwrap returns the inner cause.
func (e *InnerError) Unwrap() error { return e.Err }

// callNode is a Call's node: the inner turn, pausing the outer run when the
// inner one pauses and answering it on resume.
func (c *Composition) callNode(st *callStep) flow.Pausable {
	return flow.Pausable{
		Execute: func(ctx context.Context, s *flow.Scope) (*flow.Pause, error) {
			msg, _ := kCMessage.Get(s)
			return c.runCall(ctx, s, st, msg, "")
		},
		Resume: func(ctx context.Context, s *flow.Scope, input json.RawMessage) error {
			return c.resumeCall(ctx, s, st, input)
		},
	}
}

func (c *Composition) resumeCall(ctx context.Context, s *flow.Scope, st *callStep, input json.RawMessage) error {
	cr := compRunOf(ctx)
	if cr.resume == nil {
		return fmt.Errorf("agent: composition: resume of %q: no inner pause to answer", st.name)
	}
	cp := cr.resume
	cr.resume = nil
	conv, err := cp.conversation(st.a, cr.start)
	if err != nil {
		return fmt.Errorf("agent: composition: resume of %q: %w", st.name, err)
	}
	res, err := conv.Resume(ctx, input)
	p, err := c.settle(cr, s, st, cp.message, "", conv, res, err)
	if err == nil && p != nil {
		return fmt.Errorf("agent: composition: inner agent %q paused again while resuming; a resumed call cannot pause twice", st.name)
	}
	return err
}

// runCall runs one inner turn of st on msg and settles it on s.
func (c *Composition) runCall(ctx context.Context, s *flow.Scope, st *callStep, msg, group string) (*flow.Pause, error) {
	cr := compRunOf(ctx)
	conv := st.a.NewConversation()
	res, err := conv.Send(ctx, agent.Input{Message: msg, RunID: cr.runID + "/" + s.Info().RuntimeStageID})
	return c.settle(cr, s, st, msg, group, conv, res, err)
}

// settle keeps the inner run under the node and writes its outcome.
func (c *Composition) settle(cr *compRun, s *flow.Scope, st *callStep, msg, group string, conv *agent.Conversation, res *agent.Result, err error) (*flow.Pause, error) {
	rid := s.Info().RuntimeStageID
	o := Outcome{Agent: st.name, Node: rid, Group: group, Input: msg}
	if res != nil && res.Record != nil {
		cr.keep(rid, st.name, res.Record)
		o.Answer = res.Answer
		o.Standing = res.Assessment.Standing
	}
	if err != nil {
		o.Error = err.Error()
		kCOutcomes.Append(s, o)
		return nil, &InnerError{Agent: st.name, Node: rid, Err: err}
	}
	if res.Paused {
		if group != "" {
			err := fmt.Errorf("the branch paused to ask a person, and a parallel branch cannot wait; run the agent in a Sequence instead")
			o.Error = err.Error()
			kCOutcomes.Append(s, o)
			return nil, &InnerError{Agent: st.name, Node: rid, Err: err}
		}
		ip, err := pauseOf(conv, msg)
		if err != nil {
			return nil, &InnerError{Agent: st.name, Node: rid, Err: err}
		}
		cr.mu.Lock()
		cr.pending, cr.pendingCall = ip, st.name
		cr.mu.Unlock()
		info := pauseData{Agent: st.name, Node: rid}
		if res.PauseData != nil {
			info.Pause = *res.PauseData
		}
		return &flow.Pause{Data: info}, nil
	}
	kCOutcomes.Append(s, o)
	if group == "" {
		kCMessage.Set(s, o.Answer)
	}
	return nil, nil
}

func (cr *compRun) keep(node, agent string, rec *record.Record) {
	cr.mu.Lock()
	cr.inner = append(cr.inner, innerRun{node: node, agent: agent, rec: rec})
	cr.mu.Unlock()
}

// branchNode is one Parallel branch: it waits for a slot under the limit,
// runs, and (tolerant) turns its failure into an outcome.
func (c *Composition) branchNode(p *parStep, br *callStep) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) (any, error) {
		cr := compRunOf(ctx)
		if sem := cr.sem[p.name]; sem != nil {
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		msg, _ := kCMessage.Get(s)
		_, err := c.runCall(ctx, s, br, msg, p.name)
		if err != nil && !br.required {
			return nil, nil // a tolerant branch's failure is its outcome
		}
		return nil, err
	}
}

// branchOutcomes are the latest outcomes of p's branches, in declared order.
func branchOutcomes(s flow.Reader, p *parStep) []Outcome {
	all := kCOutcomes.Get(s)
	var out []Outcome
	for _, o := range all {
		if o.Group == p.name {
			out = append(out, o)
		}
	}
	if len(out) > len(p.branches) {
		out = out[len(out)-len(p.branches):]
	}
	return out
}

// mergeNode calls the Parallel's merge func, refusing a panic by name.
func (c *Composition) mergeNode(p *parStep) flow.StageFunc {
	return func(ctx context.Context, s *flow.Scope) (out any, err error) {
		outs := branchOutcomes(s, p)
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("agent: composition: the merge of parallel %q panicked: %v", p.name, r)
			}
		}()
		merged, err := p.opt.Merge(ctx, outs)
		if err != nil {
			return nil, fmt.Errorf("agent: composition: the merge of parallel %q: %w", p.name, err)
		}
		kCMessage.Set(s, merged)
		return nil, nil
	}
}

// mergeAgentNode is the merge agent's call: its message lists the outcomes.
func (c *Composition) mergeAgentNode(p *parStep, m *callStep) flow.Pausable {
	return flow.Pausable{
		Execute: func(ctx context.Context, s *flow.Scope) (*flow.Pause, error) {
			return c.runCall(ctx, s, m, mergeMessage(branchOutcomes(s, p)), "")
		},
		Resume: func(ctx context.Context, s *flow.Scope, input json.RawMessage) error {
			return c.resumeCall(ctx, s, m, input)
		},
	}
}

// mergeMessage is the message a merge agent receives: each branch's answer
// (or failure) under its name, in declared order.
func mergeMessage(outs []Outcome) string {
	var b strings.Builder
	b.WriteString("Combine the answers of these agents into one answer.\n")
	for _, o := range outs {
		fmt.Fprintf(&b, "\n[%s]", o.Agent)
		if o.Removed {
			b.WriteString(" was not asked\n")
			continue
		}
		if o.Error != "" {
			fmt.Fprintf(&b, " failed: %s\n", o.Error)
			continue
		}
		fmt.Fprintf(&b, " (standing %s)\n%s\n", o.Standing, o.Answer)
	}
	return b.String()
}

// The loop's exit reasons, recorded under loop:<name>:exit.
const (
	loopExitUntil  = "until"
	loopExitBudget = "budget"
)

// loopCheck counts the pass, records the exit reason, and decides.
func (c *Composition) loopCheck(l *loopStep, pass flow.ValueKey[int], exit flow.ValueKey[string]) flow.DeciderFunc {
	return func(ctx context.Context, s *flow.Scope) (d *flow.Decision, err error) {
		n, _ := pass.Get(s)
		n++
		pass.Set(s, n)
		msg, _ := kCMessage.Get(s)
		done := false
		if l.until != nil {
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("agent: composition: the until test of loop %q panicked: %v", l.name, r)
					}
				}()
				done = l.until(msg)
			}()
			if err != nil {
				return nil, err
			}
		}
		reason := ""
		switch {
		case done:
			reason = loopExitUntil
		case n >= l.budget:
			reason = loopExitBudget
		}
		exit.Set(s, reason)
		return flow.Decide(s, []flow.Rule{
			{Label: "the until test passed", Branch: "exit", Conditions: []flow.Condition{{Key: exit.KeyName(), Op: "eq", Threshold: loopExitUntil}}},
			{Label: fmt.Sprintf("the budget of %d passes is spent", l.budget), Branch: "exit", Conditions: []flow.Condition{{Key: exit.KeyName(), Op: "eq", Threshold: loopExitBudget}}},
		}, "again"), nil
	}
}

// routeDecider asks the router and records its choice and reason.
func (c *Composition) routeDecider(x *condStep, route, why flow.ValueKey[string]) flow.DeciderFunc {
	return func(ctx context.Context, s *flow.Scope) (d *flow.Decision, err error) {
		msg, _ := kCMessage.Get(s)
		var chosen, reason string
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("the router panicked: %v", r)
				}
			}()
			chosen, reason, err = x.router(ctx, msg)
		}()
		if err != nil {
			return nil, fmt.Errorf("agent: composition: conditional %q: %w", x.name, err)
		}
		rules := make([]flow.Rule, len(x.routes))
		names := make([]string, len(x.routes))
		for i, r := range x.routes {
			names[i] = r.Name
			rules[i] = flow.Rule{Label: "the router chose " + r.Name, Branch: r.Name,
				Conditions: []flow.Condition{{Key: route.KeyName(), Op: "eq", Threshold: r.Name}}}
		}
		if !slices.Contains(names, chosen) {
			return nil, fmt.Errorf("agent: composition: conditional %q: the router chose %q, which is not a route (routes: %s)", x.name, chosen, strings.Join(names, ", "))
		}
		route.Set(s, chosen)
		why.Set(s, reason)
		return flow.Decide(s, rules, chosen), nil
	}
}

// pauseData is the pause data of a composition paused by an inner
// agent: which call (and node), and the inner agent's own pause.
type pauseData struct {
	Agent string          `json:"agent"`
	Node  string          `json:"node"`
	Pause agent.PauseInfo `json:"pause"`
}

// Checkpoint is what resumes a paused composition: the outer chart's
// checkpoint, the inner agent's, and the inner runs so far (kept in the
// record of the resumed run).
//
// It encodes to JSON (MarshalJSON) and comes back with
// Composition.LoadCheckpoint, in this process or another.
type Checkpoint struct {
	flow  *flow.Checkpoint
	inner *innerPause
	agent string

	composition string
	runs        []innerRun
	legs        []record.Leg
	start       time.Time
}

// Agent returns the name of the inner call the composition waits on.
func (cp *Checkpoint) Agent() string { return cp.agent }

// Result is what one composition run produced: the answer or the pause,
// the one record (Record), every inner call's outcome in commit order, and
// the honesty roll-up (RollUp, Assessment, LimitsBlock).
type Result struct {
	// Answer is the composed answer ("" for a paused or failed run).
	Answer string
	// RunID is the composition run's id (its record's runId).
	RunID string
	// Paused reports a run stopped on an inner agent's pause; PauseData is
	// that inner pause, and Checkpoint resumes it.
	Paused    bool
	PauseData *agent.PauseInfo
	// Outcomes are the inner calls' outcomes in the order they committed.
	Outcomes []Outcome
	// Checkpoint resumes a paused run (nil otherwise).
	Checkpoint *Checkpoint
	// Record is the run's one record (nil when the run failed before its
	// first commit).
	Record *record.Record
	// RollUp is the composition's standing folded from the inner runs
	// (RollUpOf of Record; see the RollUp type and docs/COMPOSE.md).
	RollUp *RollUp
	// Assessment is the composition's counterpart of
	// agent.Result.Assessment: the roll-up's standing as an
	// assess.Assessment whose reasons are the inner reasons' names (their
	// witnesses, which point into inner records, stay on RollUp).
	Assessment *assess.Assessment
	// LimitsBlock is, per inner run that declared coverage, that run's
	// limits block under the agent's name ("" when none declared any).
	LimitsBlock string
	// AnswerWithLimits is Answer with LimitsBlock attached after the limits
	// separator (Answer unchanged when no inner run declared any).
	AnswerWithLimits string

	runs []innerRun
}

// Run runs the composition on the person's message: one run, one record.
// A run that fails still returns its result with the record of everything
// that ran, the failing inner run included.
func (c *Composition) Run(ctx context.Context, in agent.Input) (*Result, error) {
	if in.Time != nil {
		return nil, fmt.Errorf("agent: composition %q: Input.Time is not passed to inner agents; set the time on each agent", c.name)
	}
	id := in.RunID
	if id == "" {
		id = newRunID()
	}
	cr := c.newRun(in.Message, id, c.now())
	fres, err := c.chart.Run(context.WithValue(ctx, compKey{}, cr), nil, flow.WithRunID(cr.runID))
	return c.finishRun(cr, fres, err, nil)
}

// Resume answers the inner pause a composition run stopped on; input goes
// to the paused inner agent as its Resume input would.
func (c *Composition) Resume(ctx context.Context, cp *Checkpoint, input json.RawMessage) (*Result, error) {
	if cp == nil || cp.flow == nil || cp.inner == nil {
		return nil, fmt.Errorf("agent: composition %q: resume: the checkpoint is empty", c.name)
	}
	if _, ok := c.calls[cp.agent]; !ok {
		return nil, fmt.Errorf("agent: composition %q: resume: the paused agent %q is not in this composition", c.name, cp.agent)
	}
	cr := c.newRun("", newRunID(), cp.start)
	cr.resume = cp.inner
	cr.inner = append(cr.inner, cp.runs...)
	fres, err := c.chart.Resume(context.WithValue(ctx, compKey{}, cr), cp.flow, input)
	return c.finishRun(cr, fres, err, cp)
}

func (c *Composition) newRun(msg, id string, start time.Time) *compRun {
	cr := &compRun{c: c, runID: id, start: start, message: msg, sem: map[string]chan struct{}{}}
	for name, p := range c.pars {
		if p.opt.Limit > 0 {
			cr.sem[name] = make(chan struct{}, p.opt.Limit)
		}
	}
	return cr
}

// finishRun builds the one record and the roll-up.
func (c *Composition) finishRun(cr *compRun, fres *flow.Result, err error, from *Checkpoint) (*Result, error) {
	out, err := c.finishLeg(cr, fres, err, from)
	out.seal()
	return out, err
}

// finishLeg is finishRun before the roll-up is folded.
func (c *Composition) finishLeg(cr *compRun, fres *flow.Result, err error, from *Checkpoint) (*Result, error) {
	out := &Result{}
	if fres != nil && fres.Record != nil {
		log := fres.Record
		out.RunID = log.RunID
		cr.mu.Lock()
		runs := slices.Clone(cr.inner)
		cr.mu.Unlock()
		order := map[string]int{}
		for i, cm := range log.Commits {
			order[cm.RuntimeStageID] = i
		}
		slices.SortStableFunc(runs, func(x, y innerRun) int { return order[x.node] - order[y.node] })
		out.runs = runs
		out.Record = c.record(cr, log, runs, from, err == nil && !fres.Paused)
		if v, ok, _ := flow.ValueAt(log, len(log.Commits)-1, kCOutcomes.KeyName()); ok {
			out.Outcomes, _ = v.([]Outcome)
		}
	}
	if err != nil {
		return out, fmt.Errorf("agent: composition %q: run %s: %w", c.name, out.RunID, err)
	}
	if fres.Paused {
		out.Paused = true
		cp := &Checkpoint{flow: fres.Checkpoint, inner: cr.pending, agent: cr.pendingCall, composition: c.name, runs: out.runs, start: cr.start}
		if out.Record != nil {
			cp.legs = out.Record.Manifest.Legs
		}
		out.Checkpoint = cp
		if pd, ok := fres.PauseData.(pauseData); ok {
			pi := pd.Pause
			out.PauseData = &pi
		}
		return out, nil
	}
	out.Answer, _ = fres.Output.(string)
	return out, nil
}

// record is the composition's one record: its own commit log, with each
// inner run's log under the node that ran it (Subflows, and a subflow
// reference on that commit), every inner blob and request delta, and every
// event with its composition path.
func (c *Composition) record(cr *compRun, log *flow.Record, runs []innerRun, from *Checkpoint, complete bool) *record.Record {
	if log.Subflows == nil {
		log.Subflows = map[string]*flow.Record{}
	}
	blobs := map[string][]byte{}
	var requests map[string]record.RequestDelta
	var events record.Events
	byNode := map[string]bool{}
	for _, r := range runs {
		ir := r.rec
		log.Subflows[r.node] = ir.Log
		byNode[r.node] = true
		for k, v := range ir.Blobs {
			blobs[k] = v
		}
		if len(ir.Requests) > 0 && requests == nil {
			requests = make(map[string]record.RequestDelta, len(ir.Requests))
		}
		for k, v := range ir.Requests {
			requests[k] = v
		}
		for _, ev := range ir.Events.All() {
			ev.Meta.CompositionPath = append([]string{c.name, r.agent}, ev.Meta.CompositionPath[min(1, len(ev.Meta.CompositionPath)):]...)
			events.Append(ev)
		}
	}
	for _, cm := range log.Commits {
		if byNode[cm.RuntimeStageID] && cm.CommitDetail != nil && cm.Subflow == nil {
			d := *cm.CommitDetail
			d.Subflow = &flow.SubflowRef{Path: cm.RuntimeStageID, Run: cm.RuntimeStageID}
			cm.CommitDetail = &d
		}
	}
	m := record.Manifest{
		RunID: log.RunID, AgentID: c.name, Provider: Provider, Library: "agentfootprint-go " + record.LibraryVersion,
		StartedAt: cr.start.UTC().Format(time.RFC3339Nano), EndedAt: c.now().UTC().Format(time.RFC3339Nano),
		Complete: complete, TurnNumber: 1, ToolNames: []string{}, UnitIDs: slices.Clone(c.agents),
	}
	if from != nil {
		m.Legs = append(slices.Clone(from.legs), record.Leg{RunID: log.RunID, ResumedFrom: from.flow.RunID})
	} else {
		m.Legs = []record.Leg{{RunID: log.RunID}}
	}
	return &record.Record{Manifest: m, Structure: slices.Clone(c.structureJSON), Log: log, Blobs: blobs, Requests: requests, Events: events}
}
