// Running a chart: the walk over nodes, one commit per executed stage, loops
// as jumps (never recursion), and the result of a run.

package flow

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
	"unsafe"
)

// defaultVisitLimit is the default number of back-edge passes allowed into
// one loop head per run.
const defaultVisitLimit = 1000

// maxSubflowDepth caps subflow nesting.
const maxSubflowDepth = 500

// RunOption configures one run or resume.
type RunOption func(*runConfig)

type runConfig struct {
	dev        bool
	runID      string
	observers  []observer
	visitLimit int
	now        func() time.Time
}

// WithDevChecks turns on checks meant for tests and development: every
// written value must encode to JSON (checked at the write), and every
// committed value a stage reads is fingerprinted at its first read and
// checked again when the stage ends, so a stage that modifies a shared value
// in place fails, naming the key. They cost an encoding per read key.
func WithDevChecks() RunOption { return func(c *runConfig) { c.dev = true } }

// WithRunID sets the run id (default: a random one).
func WithRunID(id string) RunOption { return func(c *runConfig) { c.runID = id } }

// WithObserver attaches hooks under id, the name the other observers' Error
// hook sees when one of these hooks panics. Attaching the same id again
// replaces the earlier hooks in place, so attaching is idempotent. An empty
// id attaches anonymous hooks: each such call adds one observer.
func WithObserver(id string, h *Hooks) RunOption {
	return func(c *runConfig) {
		if h == nil {
			return
		}
		if id == "" {
			c.observers = append(c.observers, observer{id: "hooks-" + strconv.Itoa(len(c.observers)), h: h})
			return
		}
		for i := range c.observers {
			if c.observers[i].id == id {
				c.observers[i].h = h
				return
			}
		}
		c.observers = append(c.observers, observer{id: id, h: h})
	}
}

// WithVisitLimit sets the per-loop-head visit limit (default
// 1000); values below 1 keep the default.
func WithVisitLimit(n int) RunOption {
	return func(c *runConfig) {
		if n > 0 {
			c.visitLimit = n
		}
	}
}

// WithClock sets the clock used for event and pause times (default: UTC now).
func WithClock(now func() time.Time) RunOption { return func(c *runConfig) { c.now = now } }

// Result is what a run or resume returns. Record is set also when an error
// is returned, holding every stage that executed; only a Resume that refuses
// its checkpoint returns a nil Result.
type Result struct {
	// Output is the return value of the last top-level stage or fork child
	// that ran (the leaf, or the stage that broke); a mount leaves it as it
	// was, and a pausable stage clears it.
	Output any
	// Paused reports a run stopped by a pausable stage; Checkpoint resumes it.
	Paused     bool
	Checkpoint *Checkpoint
	// PauseData is the paused stage's [Pause] data.
	PauseData any
	// Broke reports a run stopped by [Scope.Break], with its reason.
	Broke       bool
	BreakReason string
	Record      *Record
	// ObserverPanics counts the hook calls that panicked and were recovered.
	ObserverPanics int64
}

// run is the execution-wide part shared by the top chart and its subflows.
type run struct {
	dev        bool
	id         string
	obs        *observers
	counter    int
	visitLimit int
	now        func() time.Time
	loops      int
	ids        idArena
	slab       slab
	// mounts keeps, per subflow chart, what its mounts share.
	mounts map[*Chart]*mountCache
	// inputDetail is the detail of every error-free input commit of the
	// run (a subflow mounted every loop pass makes one per mount); shared,
	// so immutable, like every CommitDetail.
	inputDetail *CommitDetail
}

func newRun(opts []RunOption) *run {
	cfg := runConfig{visitLimit: defaultVisitLimit, now: timeNow}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.runID == "" {
		cfg.runID = newRunID()
	}
	return &run{id: cfg.runID, obs: newObservers(cfg.observers), visitLimit: cfg.visitLimit, now: cfg.now, dev: cfg.dev}
}

func newRunID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "run-" + hex.EncodeToString(b[:])
}

// nextID assigns the next runtime stage id: [path/]id#n, written straight
// into the id arena.
func (r *run) nextID(path, id string) string {
	n := r.counter
	r.counter++
	need := len(id) + 1 + digits(n)
	if path != "" {
		need += len(path) + 1
	}
	if !r.ids.room(need) {
		return string(appendID(make([]byte, 0, need), path, id, n))
	}
	// The append stays within the chunk's capacity, past every byte
	// handed out, so the strings already made never change.
	start := len(r.ids.buf)
	r.ids.buf = appendID(r.ids.buf, path, id, n)
	return unsafe.String(&r.ids.buf[start], len(r.ids.buf)-start)
}

// digits is the length of n in decimal, n >= 0.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// appendID appends [path/]id#n to b, which has the room for it.
func appendID(b []byte, path, id string, n int) []byte {
	if path != "" {
		b = append(b, path...)
		b = append(b, '/')
	}
	b = append(b, id...)
	b = append(b, '#')
	// The counter's digits, last first, into the room past the '#'.
	end := len(b) + digits(n)
	b = b[:end]
	for i := end - 1; ; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return b
}

// slot is one declared key's committed state: the value readers get, the
// backing value appends extend in place, the index of the commit that last
// wrote it, whether the key is present, and whether it is a frozen input.
type slot struct {
	val, back any
	writer    int
	present   bool
	input     bool
}

// exec is one execution of one chart: the top-level run or one subflow run.
type exec struct {
	r     *run
	chart *Chart
	path  string
	depth int
	// state holds every declared key, indexed by Chart.slotOf.
	state   []slot
	rec     *Record
	ns      []nodeState // per node index
	memo    []nodeMemo  // per node index; a subflow's is its mount cache's
	mc      *mountCache // the cache a subflow exec goes back to (nil: top level)
	ctl     *Control
	output  any
	lastRID string
	sc      *Scope
	// own is the scope sc points to, opAt its first op-slot buffer.
	own  Scope
	opAt [8]int32
}

// mountCache is what a run keeps per subflow chart across its mounts.
type mountCache struct {
	// memo is the per-node memos, so the next mount's commits share the
	// details and decisions this one recorded.
	memo []nodeMemo
	// spare is a finished mount's exec, reset and reused by the next
	// mount: its state, node states and scope keep their buffers.
	spare *exec
	// commits is the latest mount's log length, to size the next one's.
	commits int
}

func newExec(r *run, c *Chart, path string) *exec {
	return &exec{r: r, chart: c, path: path, state: make([]slot, len(c.kinds)),
		rec: &Record{RunID: r.id, ChartID: c.id, kinds: c.keys},
		ns:  newNodeStates(len(c.nodes)), memo: make([]nodeMemo, len(c.nodes))}
}

// mountExec returns the exec of one subflow mount: the chart's spare one
// from an earlier mount, reset, or a new one. A subflow is usually mounted
// once per loop pass, so this is what keeps a mount cheap.
func (r *run) mountExec(c *Chart, path string) *exec {
	if r.mounts == nil {
		r.mounts = map[*Chart]*mountCache{}
	}
	mc := r.mounts[c]
	if mc == nil {
		mc = &mountCache{memo: make([]nodeMemo, len(c.nodes))}
		r.mounts[c] = mc
	}
	e := mc.spare
	if e == nil {
		e = &exec{r: r, chart: c, state: make([]slot, len(c.kinds)), ns: newNodeStates(len(c.nodes)),
			memo: mc.memo, mc: mc}
	} else {
		mc.spare = nil // a chart nested in itself gets a second exec
		clear(e.state)
		for i := range e.ns {
			e.ns[i] = nodeState{lastDecider: -1}
		}
		e.ctl, e.output, e.lastRID = nil, nil, ""
		if e.sc != nil {
			e.sc.e = nil // the path may differ: beginIn refills the scope
		}
	}
	e.path = path
	e.rec = r.slab.record(r.id, c.id, c.keys)
	e.rec.Commits = r.slab.commitList(max(mc.commits, 4))
	return e
}

// release hands a finished mount's exec back to its cache. Nothing may use
// it afterwards: its record lives on in the parent's, its state does not.
func (e *exec) release() {
	if e.mc == nil {
		return
	}
	e.mc.commits = len(e.rec.Commits)
	e.keepLists()
	if e.mc.spare == nil {
		e.mc.spare = e
	}
}

// slot returns key's committed slot, or nil when the key is absent or not
// declared.
func (e *exec) slot(key string) *slot {
	if i, ok := e.chart.slotIndex(key); ok && e.state[i].present {
		return &e.state[i]
	}
	return nil
}

// nodeState is what one execution keeps per chart node.
type nodeState struct {
	visits      int // back-edge passes into the node
	lastDecider int // commit of the node's latest decision, -1 none
}

// nodeMemo is what a node's next commit may share with its last one. Both
// are immutable once recorded, so sharing one is storing it once.
type nodeMemo struct {
	prevDec    *Decision     // the node's latest decision, shared when repeated
	prevDetail *CommitDetail // its latest commit detail, shared when repeated
}

func newNodeStates(n int) []nodeState {
	l := make([]nodeState, n)
	for i := range l {
		l[i].lastDecider = -1
	}
	return l
}

// outcome is how a walk stopped without error.
type outcome struct {
	broke  bool
	reason string
	paused *pausePoint
}

type pausePoint struct {
	node *node
	rid  string
	data any
}

// Run executes the chart with inputs (each a declared key, seeded by the
// input commit and read-only afterwards). On error the returned Result still
// carries the record of everything that executed.
func (c *Chart) Run(ctx context.Context, inputs map[string]any, opts ...RunOption) (*Result, error) {
	r := newRun(opts)
	r.prime(&c.hint)
	e := newExec(r, c, "")
	info := StageInfo{RunID: r.id}
	r.obs.flow(info, func(h *Hooks) {
		if h.RunStart != nil {
			h.RunStart(info)
		}
	})
	if err := e.seed(inputs); err != nil {
		return r.finish(e, outcome{}, err)
	}
	out, err := e.walk(ctx, 0)
	return r.finish(e, out, err)
}

// finish turns a walk's end into a Result and fires the run hooks.
func (r *run) finish(e *exec, out outcome, err error) (*Result, error) {
	res := &Result{Output: e.output, Record: e.rec, Broke: out.broke, BreakReason: out.reason}
	r.keep(&e.chart.hint)
	store(&e.chart.hint.top, int32(len(e.rec.Commits)))
	e.keepLists()
	e.rec.final = finalState{chart: e.chart, state: e.state, commits: len(e.rec.Commits)}
	info := StageInfo{RunID: r.id, RuntimeStageID: e.lastRID, LoopIteration: r.loops}
	if err == nil && out.paused != nil {
		cp, cerr := e.checkpoint(out.paused)
		if cerr != nil {
			err = cerr
		} else {
			res.Paused, res.Checkpoint, res.PauseData = true, cp, out.paused.data
		}
	}
	if err != nil {
		r.obs.flow(info, func(h *Hooks) {
			if h.RunFailed != nil {
				h.RunFailed(info, err)
			}
		})
	} else {
		r.obs.flow(info, func(h *Hooks) {
			if h.RunEnd != nil {
				h.RunEnd(info, res.Output)
			}
		})
	}
	res.ObserverPanics = r.obs.panics.Load()
	return res, err
}

// seed writes the input commit (commit 0). Every input must be a declared
// key with a value of its type.
func (e *exec) seed(inputs map[string]any) error {
	// Scratch on the stack for the usual handful of inputs; the commit
	// keeps a slab copy of the ops.
	var nameBuf [16]string
	var opBuf [16]Op
	var atBuf [16]int32
	names := nameBuf[:0]
	for k := range inputs {
		names = append(names, k)
	}
	slices.Sort(names)
	ops, at := opBuf[:0], atBuf[:0]
	var errs []error
	for _, name := range names {
		i, ok := e.chart.slotOf[name]
		if !ok {
			errs = append(errs, &KeyError{Key: name, Reason: "input is not declared on chart " + e.chart.id})
			continue
		}
		v, err := e.chart.kinds[i].check(inputs[name])
		if err != nil {
			errs = append(errs, &KeyError{Key: name, Reason: "input: " + err.Error()})
			continue
		}
		ops = append(ops, Op{Key: name, Verb: VerbSet, Value: v})
		at = append(at, int32(i))
		e.state[i].input = true
	}
	c := e.r.slab.commit()
	c.RuntimeStageID, c.Ops = InputStageID, e.r.slab.ops(ops)
	if c.Ops == nil {
		c.Ops = []Op{}
	}
	err := errors.Join(errs...)
	if err != nil {
		c.CommitDetail = &CommitDetail{Stage: InputStageID, StageID: InputStageID, Error: err.Error()}
	} else {
		if e.r.inputDetail == nil {
			e.r.inputDetail = &CommitDetail{Stage: InputStageID, StageID: InputStageID}
		}
		c.CommitDetail = e.r.inputDetail
	}
	e.apply(ops, at, 0)
	if e.rec.Commits == nil {
		n := int(e.chart.hint.top.Load())
		if n <= 0 {
			n = 32
		}
		e.rec.Commits = make([]*Commit, 0, n)
	}
	e.rec.Commits = append(e.rec.Commits, c)
	if err != nil {
		return fmt.Errorf("flow: inputs of chart %q: %w", e.chart.id, err)
	}
	return nil
}

// apply lands a commit's ops on the committed state; at[i] is the slot of
// ops[i]'s key.
func (e *exec) apply(ops []Op, at []int32, idx int) {
	for i := range ops {
		op := &ops[i]
		sl := &e.state[at[i]]
		if op.Verb == VerbDelete {
			sl.val, sl.back, sl.present = nil, nil, false
			continue
		}
		if !sl.present {
			sl.val, sl.back, sl.present = nil, nil, true
		}
		sl.writer = idx
		switch op.Verb {
		case VerbSet:
			sl.val, sl.back = op.Value, op.Value
		case VerbMerge:
			base, _ := sl.val.(map[string]any)
			sl.val = deepMerge(base, op.Value.(map[string]any))
			sl.back = sl.val
		case VerbAppend:
			sl.back, sl.val = e.chart.kinds[at[i]].concat(sl.back, op.Value, int(e.chart.hint.lists[at[i]].Load()))
		}
	}
}

// begin assigns the runtime id and prepares the scope of one execution. The
// exec's one scope is reused stage after stage (a Scope is valid only during
// its call); fork children get fresh ones.
func (e *exec) begin(ctx context.Context, n *node) *Scope {
	if e.sc == nil {
		// Room for a typical stage, so the buffers rarely grow; the ops go
		// to the slab (see roomForOp).
		e.sc = &e.own
		e.sc.reads, e.sc.opAt = make([]string, 0, 16), e.opAt[:0]
	}
	return e.beginIn(ctx, n, e.sc)
}

func (e *exec) beginIn(ctx context.Context, n *node, s *Scope) *Scope {
	rid := e.r.nextID(e.path, n.id)
	e.lastRID = rid
	// Field by field, storing a pointer only when it changes: a pointer
	// store costs a write barrier while the collector is marking, and the
	// buffers keep their capacity. A reused scope usually has the same
	// exec and context as its last stage.
	if s.e != e {
		s.e, s.tr.s = e, s
		s.info.RunID, s.info.SubflowPath = e.r.id, e.path
	}
	if s.ctx != ctx {
		s.ctx = ctx
	}
	s.n = n
	s.info.RuntimeStageID, s.info.LoopIteration = rid, e.r.loops
	if sb := &e.r.slab; sb.opOwner == s {
		sb.opOwner = nil // its last stage never reached its commit
		s.ops = nil
	}
	s.reads, s.ops, s.opAt, s.views = s.reads[:0], s.ops[:0], s.opAt[:0], s.views[:0]
	s.tr.reads = s.tr.reads[:0]
	s.flags, s.brk = 0, false
	if s.why != "" || s.werr != nil {
		s.why, s.werr = "", nil
	}
	s.borrowed = s.borrowed[:0]
	if s.readIdx != nil {
		s.readIdx = nil
	}
	if e.r.obs.any() {
		e.r.obs.stageStart(s.info)
	}
	return s
}

// end commits the stage's bundle (also on error) and returns the error
// wrapped with the runtime stage id.
func (e *exec) end(s *Scope, err error, d *Decision, sub *SubflowRef) error {
	if e.r.obs.any() {
		e.r.obs.stageEnd(s.info)
	}
	if len(s.borrowed) > 0 {
		s.checkBorrowed()
	}
	if err == nil && s.werr != nil {
		err = s.werr
	}
	idx := len(e.rec.Commits)
	ops := e.r.slab.commitOps(s)
	c := e.r.slab.commit() // zeroed: set only what this commit has
	c.Idx, c.RuntimeStageID = idx, s.info.RuntimeStageID
	if ops != nil {
		c.Ops = ops
	}
	if e.ctl != nil {
		c.Control = e.ctl
	}
	c.CommitDetail = e.detail(s, err, d, sub, ops)
	if len(e.rec.Commits) == cap(e.rec.Commits) {
		// Double (append grows large slices by 1.25x, copying more often).
		grown := make([]*Commit, len(e.rec.Commits), max(2*cap(e.rec.Commits), 32))
		copy(grown, e.rec.Commits)
		e.rec.Commits = grown
	}
	e.rec.Commits = append(e.rec.Commits, c)
	e.apply(ops, s.opAt, idx)
	if e.r.obs.any() {
		e.r.obs.commit(s.info, c)
	}
	if err != nil {
		err = &StageError{RuntimeStageID: s.info.RuntimeStageID, Err: err}
		e.r.obs.error(s.info, err)
	}
	return err
}

// detail returns the commit detail of the stage ending in s: the node's
// previous detail when every field is unchanged (the usual case in a loop,
// where a commit then costs 64 bytes instead of about 200), a new one otherwise.
func (e *exec) detail(s *Scope, err error, d *Decision, sub *SubflowRef, ops []Op) *CommitDetail {
	ns := &e.memo[s.n.idx]
	prev := ns.prevDetail
	// The loop's usual case, checked field by field before building the
	// detail it would compare: no error, notes or redaction, and the same
	// names, decision, mount and reads as the node's last commit.
	if prev != nil && err == nil && s.flags == 0 && e.chart.redact == nil &&
		prev.Decision == d && prev.Subflow == sub && prev.Error == "" &&
		len(prev.Untracked) == 0 && len(prev.Redacted) == 0 &&
		prev.Stage == s.n.name && prev.StageID == s.n.id && slices.Equal(prev.Reads, s.reads) {
		return prev
	}
	want := CommitDetail{Stage: s.n.name, StageID: s.n.id, Reads: s.reads, Decision: d, Subflow: sub}
	if len(s.reads) == 0 {
		want.Reads = nil
	}
	if s.flags&untrackedEnv != 0 {
		want.Untracked = append(want.Untracked, "env")
	}
	if s.flags&untrackedSilent != 0 {
		want.Untracked = append(want.Untracked, "silent")
	}
	if err != nil {
		want.Error = err.Error()
	}
	if e.chart.redact != nil {
		for _, op := range ops {
			if e.chart.redact[op.Key] && !contains(want.Redacted, op.Key) {
				want.Redacted = append(want.Redacted, op.Key)
			}
		}
	}
	if prev != nil && prev.equal(&want) {
		return prev
	}
	// s.reads is the scope's buffer, reused by the next stage: keep a copy,
	// or the previous detail's list when it is the same.
	if prev != nil && slices.Equal(prev.Reads, want.Reads) {
		want.Reads = prev.Reads
	} else {
		want.Reads = e.r.slab.strings(want.Reads)
	}
	ns.prevDetail = e.r.slab.detail(want)
	return ns.prevDetail
}

func callStage(ctx context.Context, n *node, s *Scope) (out any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &panicError{Stage: n.id, Value: p}
		}
	}()
	return n.fn(ctx, s)
}

func callDecider(ctx context.Context, n *node, s *Scope) (d *Decision, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &panicError{Stage: n.id, Value: p}
		}
	}()
	return n.decide(ctx, s)
}

func callExecute(ctx context.Context, n *node, s *Scope) (p *Pause, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{Stage: n.id, Value: r}
		}
	}()
	return n.pause.Execute(ctx, s)
}

func callResume(ctx context.Context, n *node, s *Scope, input json.RawMessage) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{Stage: n.id, Value: r}
		}
	}()
	return n.pause.Resume(ctx, s, input)
}

// executed fires StageExecuted and, when the walk goes on, Next.
func (e *exec) executed(s *Scope, typ string, next int) {
	if !e.r.obs.any() {
		return
	}
	e.r.obs.flow(s.info, func(h *Hooks) {
		if h.StageExecuted != nil {
			h.StageExecuted(s.info, typ)
		}
	})
	if next < 0 || s.brk {
		return
	}
	to := e.chart.nodes[next].id
	if n := &e.chart.nodes[next]; n.kind == kindLoop || n.kind == kindJoin {
		return
	}
	e.r.obs.flow(s.info, func(h *Hooks) {
		if h.Next != nil {
			h.Next(s.info, to)
		}
	})
}

func (e *exec) broke(s *Scope) outcome {
	e.r.obs.flow(s.info, func(h *Hooks) {
		if h.Break != nil {
			h.Break(s.info, s.why)
		}
	})
	return outcome{broke: true, reason: s.why}
}

// walk runs nodes from start until the chart ends, a stage breaks or pauses,
// or an error stops it. Loops are jumps, so the Go stack stays flat.
func (e *exec) walk(ctx context.Context, start int) (outcome, error) {
	cur := start
	for cur >= 0 {
		if err := ctx.Err(); err != nil {
			return outcome{}, fmt.Errorf("flow: run %s stopped before %q: %w", e.r.id, e.chart.nodes[cur].id, err)
		}
		n := &e.chart.nodes[cur]
		switch n.kind {
		case kindLoop:
			head := e.chart.nodes[n.target].id
			e.ns[n.target].visits++
			v := e.ns[n.target].visits
			if v > e.r.visitLimit {
				return outcome{}, &LoopLimitError{Node: head, Limit: e.r.visitLimit}
			}
			e.r.loops++
			if e.r.obs.any() {
				info := StageInfo{RunID: e.r.id, RuntimeStageID: e.lastRID, SubflowPath: e.path, LoopIteration: e.r.loops}
				e.r.obs.flow(info, func(h *Hooks) {
					if h.Loop != nil {
						h.Loop(info, head, v)
					}
				})
			}
			cur = n.target
		case kindJoin:
			if i := e.ns[n.target].lastDecider; i >= 0 {
				e.ctl = e.rec.Commits[i].Control
			}
			cur = n.next
		case kindStage:
			s := e.begin(ctx, n)
			out, err := callStage(ctx, n, s)
			if err := e.end(s, err, nil, nil); err != nil {
				return outcome{}, err
			}
			e.output = out
			e.executed(s, "stage", n.next)
			if s.brk {
				return e.broke(s), nil
			}
			cur = n.next
		case kindDecider:
			next, s, err := e.decider(ctx, n)
			if err != nil {
				return outcome{}, err
			}
			if s.brk {
				return e.broke(s), nil
			}
			cur = next
		case kindPausable:
			s := e.begin(ctx, n)
			p, err := callExecute(ctx, n, s)
			if err == nil && p != nil {
				err = checkPause(e, p)
			}
			if err := e.end(s, err, nil, nil); err != nil {
				return outcome{}, err
			}
			e.output = nil
			e.executed(s, "pausable", n.next)
			if p != nil {
				return e.pauseAt(s, n, p), nil
			}
			if s.brk {
				return e.broke(s), nil
			}
			cur = n.next
		case kindFork:
			if err := e.parallel(ctx, n, n.children, nil); err != nil {
				return outcome{}, err
			}
			cur = n.next
		case kindSelector:
			if err := e.selector(ctx, n); err != nil {
				return outcome{}, err
			}
			cur = n.next
		case kindMount:
			s, out, err := e.mountRun(ctx, n)
			if err != nil {
				return outcome{}, err
			}
			e.executed(s, "subflow", n.next)
			if out.broke && n.mount.PropagateBreak {
				s.why = out.reason
				return e.broke(s), nil
			}
			cur = n.next
		default:
			return outcome{}, fmt.Errorf("flow: node %q has unsupported kind %s", n.id, n.kind)
		}
	}
	return outcome{}, nil
}

// decider runs a decider node, commits its evidence and returns the first
// node of the chosen branch.
func (e *exec) decider(ctx context.Context, n *node) (int, *Scope, error) {
	s := e.begin(ctx, n)
	d, err := callDecider(ctx, n, s)
	next := -1
	if err == nil {
		switch {
		case d == nil:
			err = fmt.Errorf("decider %q returned no decision", n.id)
		case len(d.Chosen) != 1:
			err = fmt.Errorf("decider %q chose %d branches, want exactly 1", n.id, len(d.Chosen))
		default:
			next = -2
			for _, b := range n.branches {
				if b.id == d.Chosen[0] {
					next = b.first
				}
			}
			if next == -2 {
				err = &branchError{Decider: n.id, Branch: d.Chosen[0]}
			}
		}
	}
	if d != nil && d.Multi {
		d.Multi = false
	}
	if err := e.end(s, err, d, nil); err != nil {
		return -1, s, err
	}
	e.ns[n.idx].lastDecider = len(e.rec.Commits) - 1
	e.ctl = e.r.slab.control()
	setControl(e.ctl, s.info.RuntimeStageID, d)
	if e.r.obs.any() {
		e.r.obs.flow(s.info, func(h *Hooks) {
			if h.Decision != nil {
				h.Decision(s.info, d)
			}
		})
	}
	e.executed(s, "decider", next)
	return next, s, nil
}

// setControl sets c to the control edge a decision puts on the commits it
// governs.
func setControl(c *Control, decider string, d *Decision) {
	c.Decider, c.Branch, c.Rule, c.RuleIndex = decider, d.Chosen[0], DefaultRule, -1
	if d.Default {
		return
	}
	c.Rule = ""
	for _, r := range d.Rules {
		if r.Matched && r.Branch == c.Branch {
			c.Rule, c.RuleIndex = r.Label, r.Index
			break
		}
	}
}

func checkPause(e *exec, p *Pause) error {
	if e.path != "" {
		return ErrPauseInSubflow
	}
	if _, err := json.Marshal(p.Data); err != nil {
		return fmt.Errorf("pause data does not encode to JSON: %w", err)
	}
	return nil
}
