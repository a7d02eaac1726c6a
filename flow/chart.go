// The chart: an immutable graph of stages built once with a Builder and run
// many times.

package flow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
)

// StageFunc is the body of a linear stage. Its return value becomes the run
// output when the stage is the last one executed (a leaf or a break).
type StageFunc func(ctx context.Context, s *Scope) (any, error)

// DeciderFunc is the body of a decider or selector: it may read and write s
// like a stage, and returns the decision with its evidence, usually built by
// [Decide] or [Select]. Its writes commit, with the evidence, before any
// branch runs.
type DeciderFunc func(ctx context.Context, s *Scope) (*Decision, error)

// Pausable is a stage that may stop the run to wait for outside input, given
// as its two funcs (the way [Mount] gives a subflow's mappings). Execute
// returning a non-nil [*Pause] commits the stage and ends the run with a
// checkpoint; [Chart.Resume] later runs Resume as a new execution of the same
// node with the input, and the walk continues after it. Resume cannot pause
// again. Build refuses a Pausable missing either func.
type Pausable struct {
	Execute func(ctx context.Context, s *Scope) (*Pause, error)
	Resume  func(ctx context.Context, s *Scope, input json.RawMessage) error
}

// Pause asks the run to stop after the stage commits. Data must encode to JSON;
// it is carried in the checkpoint as pauseData.
type Pause struct {
	Data any
}

type nodeKind uint8

const (
	kindStage nodeKind = iota
	kindDecider
	kindSelector
	kindFork
	kindMount
	kindPausable
	kindLoop
	kindJoin
)

func (k nodeKind) String() string {
	return [...]string{"stage", "decider", "selector", "fork", "subflow", "pausable", "loop", "join"}[k]
}

// node is one compiled chart node. next is the index of the node that follows
// when the walk falls through (-1: end of the chart).
type node struct {
	idx      int // position in Chart.nodes
	kind     nodeKind
	id, name string
	fn       StageFunc
	decide   DeciderFunc
	pause    Pausable
	mount    *Mount
	sub      *Chart
	branches []branchRef // decider
	children []int       // fork and selector children (stage nodes)
	failFast bool
	next     int
	target   int // loop: node index to jump to; join: decider node index
	targetID string
}

type branchRef struct {
	id    string
	first int
}

// Chart is an immutable, validated graph of stages. It is safe to run from
// many goroutines at once; each run owns its state and record. The only
// thing a run leaves in its chart is a size hint (how many commits, ops and
// ids it took), which sizes the next run's first buffers and never changes
// what a run records.
type Chart struct {
	id      string
	nodes   []node
	byID    map[string]int
	keys    map[string]keyKind
	keyList []KeyDecl
	// slotOf numbers the declared keys in declaration order: a run keeps
	// its state in a slice indexed by it, and kinds[i] is key i's kind.
	slotOf map[string]int
	fast   keyTable
	kinds  []keyKind
	redact map[string]bool
	// listSlots are the slots of the list keys; hint is what the latest
	// run used, to size the next one's buffers.
	listSlots []int32
	hint      runHint
}

// ID returns the chart id recorded in every record and checkpoint.
func (c *Chart) ID() string { return c.id }

// StageOption adjusts one stage node.
type StageOption func(*stageOpts)

type stageOpts struct{ name string }

// Name sets the display name recorded as a commit's stage (default: the id).
func Name(name string) StageOption { return func(o *stageOpts) { o.name = name } }

type spec struct {
	kind     nodeKind
	id, name string
	fn       StageFunc
	decide   DeciderFunc
	pause    Pausable
	mount    *Mount
	sub      *Chart
	branches []*Builder
	children []Child
	failFast bool
}

// Child is one parallel child of a fork or selector: a single stage.
type Child struct {
	id, name string
	fn       StageFunc
}

// NewChild declares a parallel child stage for [Builder.Fork] or [Builder.Selector].
func NewChild(id string, fn StageFunc, opts ...StageOption) Child {
	return Child{id: id, name: applyOpts(id, opts), fn: fn}
}

// ForkOptions configures a fork or selector. By default every child runs to
// the end and their errors are joined; FailFast cancels the others' context
// at the first error.
type ForkOptions struct {
	FailFast bool
}

// Branch starts the node sequence of the branch with id, for a decider.
// A branch ends by falling through to the node after its decider, by a
// [Builder.LoopTo], or when one of its stages breaks. It is built together
// with the chart it belongs to: Build refuses a branch on its own, and the
// chart's Build refuses a branch that declares or redacts keys.
func Branch(id string) *Builder { return &Builder{id: id, branch: true} }

func applyOpts(id string, opts []StageOption) string {
	o := stageOpts{name: id}
	for _, f := range opts {
		f(&o)
	}
	return o.name
}

// Builder assembles a [Chart], or one branch of a decider (see [Branch]):
// an ordered list of nodes that each method appends to. Build validates the
// whole graph and reports every problem it finds; nothing is checked before
// that.
type Builder struct {
	id     string // the chart id, or the branch id when branch is set
	branch bool
	items  []spec
	keys   []KeyDecl
	redact []string
}

// NewBuilder starts a chart with the given id.
func NewBuilder(id string) *Builder { return &Builder{id: id} }

// Keys declares state keys with their Go types (see [Key] and [List]).
func (b *Builder) Keys(keys ...KeyDecl) *Builder {
	b.keys = append(b.keys, keys...)
	return b
}

// Redact marks declared keys as secret: every commit writing one lists it
// in redacted, its op values are written as "[redacted]" when the record
// is encoded, decision evidence shows the marker instead of the value, and
// [ValueAt] refuses to replay it. The live state (and so a checkpoint's
// state, which resuming needs) still holds the real values.
func (b *Builder) Redact(keys ...string) *Builder {
	b.redact = append(b.redact, keys...)
	return b
}

// Stage appends a linear stage.
func (b *Builder) Stage(id string, fn StageFunc, opts ...StageOption) *Builder {
	b.items = append(b.items, spec{kind: kindStage, id: id, name: applyOpts(id, opts), fn: fn})
	return b
}

// Decider appends a decider: fn chooses exactly one of branches.
func (b *Builder) Decider(id string, fn DeciderFunc, branches ...*Builder) *Builder {
	b.items = append(b.items, spec{kind: kindDecider, id: id, name: id, decide: fn, branches: branches})
	return b
}

// Fork appends a fork: the children run concurrently, each with its own
// buffer, get runtime ids in declaration order and commit in declaration
// order once all have settled. Two children writing one key fail the fork,
// with an error naming the key and the children, unless every such write is
// an append.
func (b *Builder) Fork(id string, opt ForkOptions, children ...Child) *Builder {
	b.items = append(b.items, spec{kind: kindFork, id: id, name: id, children: children, failFast: opt.FailFast})
	return b
}

// Selector appends a selector: fn (usually with [Select]) chooses zero or
// more of the children, which then run like a fork's. The children are the
// branches; their commits carry control edges to the selector's decision.
func (b *Builder) Selector(id string, fn DeciderFunc, opt ForkOptions, children ...Child) *Builder {
	b.items = append(b.items, spec{kind: kindSelector, id: id, name: id, decide: fn, children: children, failFast: opt.FailFast})
	return b
}

// Pausable appends a stage that may pause the run (see [Pausable]).
func (b *Builder) Pausable(id string, p Pausable, opts ...StageOption) *Builder {
	b.items = append(b.items, spec{kind: kindPausable, id: id, name: applyOpts(id, opts), pause: p})
	return b
}

// Mount appends a subflow mount running sub with its own state and log.
func (b *Builder) Mount(id string, sub *Chart, m Mount, opts ...StageOption) *Builder {
	mm := m
	b.items = append(b.items, spec{kind: kindMount, id: id, name: applyOpts(id, opts), sub: sub, mount: &mm})
	return b
}

// LoopTo ends the sequence with a back-edge to the node with id (the loop
// head). State is not rewound; each pass counts one visit of the head.
func (b *Builder) LoopTo(id string) *Builder {
	b.items = append(b.items, spec{kind: kindLoop, id: id})
	return b
}

// Build validates and compiles the chart. It refuses an empty chart or id, a
// duplicate or malformed node id, a missing stage func, a decider without
// branches or with duplicate branch ids, a LoopTo to a node that does not
// exist or followed by more nodes, a mount without a chart, a duplicate key
// declaration, a branch built on its own, and a decider's branch started with
// NewBuilder or declaring keys; the error names every offending thing at
// once.
func (b *Builder) Build() (*Chart, error) {
	if b.branch {
		return nil, &chartError{Chart: b.id, Errs: []error{fmt.Errorf("branch %q is not a chart: build the chart it belongs to", b.id)}}
	}
	c := &Chart{id: b.id, byID: map[string]int{}, keys: map[string]keyKind{}, slotOf: map[string]int{}}
	var errs []error
	if b.id == "" {
		errs = append(errs, errors.New("chart id is empty"))
	}
	for _, k := range b.keys {
		if k == nil || k.KeyName() == "" {
			errs = append(errs, errors.New("key declaration with an empty name"))
			continue
		}
		if _, dup := c.keys[k.KeyName()]; dup {
			errs = append(errs, fmt.Errorf("key %q declared twice", k.KeyName()))
			continue
		}
		c.keys[k.KeyName()] = k.kind()
		c.slotOf[k.KeyName()] = len(c.keyList)
		c.keyList = append(c.keyList, k)
		if k.kind().isList() {
			c.listSlots = append(c.listSlots, int32(len(c.kinds)))
		}
		c.kinds = append(c.kinds, k.kind())
	}
	c.hint.lists = make([]atomic.Int32, len(c.kinds))
	for _, k := range b.redact {
		if _, ok := c.keys[k]; !ok {
			errs = append(errs, fmt.Errorf("redacted key %q is not declared", k))
			continue
		}
		if c.redact == nil {
			c.redact = map[string]bool{}
		}
		c.redact[k] = true
	}
	names := make([]string, len(c.keyList))
	for i, k := range c.keyList {
		names[i] = k.KeyName()
	}
	c.fast = newKeyTable(names)
	if len(b.items) == 0 {
		errs = append(errs, errors.New("chart has no stages"))
	}
	comp := &compiler{c: c}
	comp.seq(b.items, -1, "chart "+b.id)
	errs = append(errs, comp.errs...)
	for i := range c.nodes {
		n := &c.nodes[i]
		if n.kind != kindLoop {
			continue
		}
		t, ok := c.byID[n.targetID]
		if !ok {
			errs = append(errs, fmt.Errorf("LoopTo(%q): no node with that id", n.targetID))
			continue
		}
		n.target = t
	}
	if len(errs) > 0 {
		return nil, &chartError{Chart: b.id, Errs: errs}
	}
	return c, nil
}

// MustBuild is Build for charts fixed at compile time; it panics on error.
func (b *Builder) MustBuild() *Chart {
	c, err := b.Build()
	if err != nil {
		panic(err)
	}
	return c
}

type compiler struct {
	c    *Chart
	errs []error
}

func (cp *compiler) errf(format string, a ...any) {
	cp.errs = append(cp.errs, fmt.Errorf(format, a...))
}

func (cp *compiler) add(n node) int {
	n.idx = len(cp.c.nodes)
	cp.c.nodes = append(cp.c.nodes, n)
	return n.idx
}

func validID(id string) bool {
	return id != "" && id != InputStageID && !strings.ContainsAny(id, "#/")
}

// seq compiles items so that the last falls through to after; it returns the
// index of the first node (or after when items is empty).
func (cp *compiler) seq(items []spec, after int, where string) int {
	first := after
	prev := -1
	link := func(i int) {
		if prev >= 0 {
			cp.c.nodes[prev].next = i
		} else {
			first = i
		}
		prev = i
	}
	for k, it := range items {
		if it.kind == kindLoop {
			i := cp.add(node{kind: kindLoop, targetID: it.id, next: -1, id: "loop:" + it.id})
			link(i)
			if k != len(items)-1 {
				cp.errf("%s: LoopTo(%q) must be the last node of its sequence", where, it.id)
			}
			return first
		}
		if !validID(it.id) {
			cp.errf("%s: node id %q is empty, reserved or contains '#' or '/'", where, it.id)
		} else if _, dup := cp.c.byID[it.id]; dup {
			cp.errf("%s: duplicate node id %q", where, it.id)
		}
		n := node{kind: it.kind, id: it.id, name: it.name, fn: it.fn, decide: it.decide, pause: it.pause,
			mount: it.mount, sub: it.sub, next: after, failFast: it.failFast}
		switch it.kind {
		case kindStage:
			if it.fn == nil {
				cp.errf("%s: stage %q has no func", where, it.id)
			}
		case kindDecider:
			if it.decide == nil {
				cp.errf("%s: decider %q has no func", where, it.id)
			}
			if len(it.branches) == 0 {
				cp.errf("%s: decider %q has no branches", where, it.id)
			}
		case kindFork, kindSelector:
			if it.kind == kindSelector && it.decide == nil {
				cp.errf("%s: selector %q has no func", where, it.id)
			}
			if len(it.children) == 0 {
				cp.errf("%s: %s %q has no children", where, it.kind, it.id)
			}
		case kindPausable:
			if it.pause.Execute == nil {
				cp.errf("%s: pausable stage %q has no Execute func", where, it.id)
			}
			if it.pause.Resume == nil {
				cp.errf("%s: pausable stage %q has no Resume func", where, it.id)
			}
		case kindMount:
			if it.sub == nil {
				cp.errf("%s: subflow mount %q has no chart", where, it.id)
			}
		}
		i := cp.add(n)
		if validID(it.id) {
			if _, dup := cp.c.byID[it.id]; !dup {
				cp.c.byID[it.id] = i
			}
		}
		link(i)
		if it.kind == kindFork || it.kind == kindSelector {
			kids := make([]int, 0, len(it.children))
			for _, ch := range it.children {
				if !validID(ch.id) {
					cp.errf("%s: %s %q child id %q is empty, reserved or contains '#' or '/'", where, it.kind, it.id, ch.id)
					continue
				}
				if _, dup := cp.c.byID[ch.id]; dup {
					cp.errf("%s: duplicate node id %q", where, ch.id)
					continue
				}
				if ch.fn == nil {
					cp.errf("%s: %s %q child %q has no func", where, it.kind, it.id, ch.id)
				}
				k := cp.add(node{kind: kindStage, id: ch.id, name: ch.name, fn: ch.fn, next: -1})
				cp.c.byID[ch.id] = k
				kids = append(kids, k)
			}
			cp.c.nodes[i].children = kids
		}
		if it.kind == kindDecider {
			seen := map[string]bool{}
			refs := make([]branchRef, 0, len(it.branches))
			for _, br := range it.branches {
				if br == nil || br.id == "" {
					cp.errf("%s: decider %q has a branch with an empty id", where, it.id)
					continue
				}
				if !br.branch {
					cp.errf("%s: decider %q branch %q was started with NewBuilder; start it with Branch", where, it.id, br.id)
					continue
				}
				if len(br.keys) > 0 || len(br.redact) > 0 {
					cp.errf("%s: decider %q branch %q declares or redacts keys; do that on the chart's builder", where, it.id, br.id)
				}
				if seen[br.id] {
					cp.errf("%s: decider %q has duplicate branch %q", where, it.id, br.id)
					continue
				}
				seen[br.id] = true
				// The join node restores the governing decision when the
				// branch falls through to the node after the decider.
				join := cp.add(node{kind: kindJoin, id: "join:" + it.id, target: i, next: -1})
				f := cp.seq(br.items, join, fmt.Sprintf("decider %q branch %q", it.id, br.id))
				refs = append(refs, branchRef{id: br.id, first: f})
			}
			cp.c.nodes[i].branches = refs
			// Joins fall through to whatever follows the decider; patched below.
			defer cp.patchJoins(i)
		}
	}
	return first
}

// patchJoins points the decider's join nodes at the decider's successor.
func (cp *compiler) patchJoins(decider int) {
	next := cp.c.nodes[decider].next
	for i := range cp.c.nodes {
		n := &cp.c.nodes[i]
		if n.kind == kindJoin && n.target == decider {
			n.next = next
		}
	}
}
