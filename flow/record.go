// The commit log: one bundle per executed stage, its ops, and the record of a
// run with the logs of its subflows.

package flow

import (
	"encoding/json"
	"slices"
	"sort"
	"sync"
)

// Verb names what a write op does to its key.
type Verb string

// The four write verbs of the commit log.
const (
	VerbSet    Verb = "set"    // the value is the key's full new value
	VerbMerge  Verb = "merge"  // the value is a patch deep-merged into an object
	VerbAppend Verb = "append" // the value is the list tail appended
	VerbDelete Verb = "delete" // the key is removed; no value
)

func (v Verb) valid() bool {
	switch v {
	case VerbSet, VerbMerge, VerbAppend, VerbDelete:
		return true
	}
	return false
}

// InputStageID is the runtime stage id (and stage id) of commit 0 of every run
// and subflow run, which seeds the frozen inputs.
const InputStageID = "input"

// Op is one write in a commit. Value is the full value for set, the patch for
// merge, the appended tail for append and absent for delete. ReadsBefore is
// the number of the commit's reads that happened before this write (the
// engine sets it). A subflow's output mapping returns ops: build a set or an
// append with the key's [ValueKey.SetOp] or [ListKey.AppendOp], any other op
// as a literal such as Op{Key: "profile", Verb: VerbMerge, Value: patch}.
type Op struct {
	Key         string `json:"key"`
	Verb        Verb   `json:"verb"`
	Value       any    `json:"value,omitempty"`
	ReadsBefore int    `json:"readsBefore"`
}

// MarshalJSON writes value for every verb but delete, also when it is null.
func (o Op) MarshalJSON() ([]byte, error) {
	if o.Verb == VerbDelete {
		return json.Marshal(struct {
			Key         string `json:"key"`
			Verb        Verb   `json:"verb"`
			ReadsBefore int    `json:"readsBefore"`
		}{o.Key, o.Verb, o.ReadsBefore})
	}
	return json.Marshal(struct {
		Key         string `json:"key"`
		Verb        Verb   `json:"verb"`
		Value       any    `json:"value"`
		ReadsBefore int    `json:"readsBefore"`
	}{o.Key, o.Verb, o.Value, o.ReadsBefore})
}

// UnmarshalJSON keeps the value as raw JSON; a chart's key declarations turn
// it back into a typed value (see [Chart.DecodeRecord]).
func (o *Op) UnmarshalJSON(data []byte) error {
	var w struct {
		Key         *string         `json:"key"`
		Verb        Verb            `json:"verb"`
		Value       json.RawMessage `json:"value"`
		ReadsBefore int             `json:"readsBefore"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if w.Key == nil {
		return &CorruptLogError{Field: "ops.key", Reason: "missing"}
	}
	*o = Op{Key: *w.Key, Verb: w.Verb, ReadsBefore: w.ReadsBefore}
	if w.Value != nil {
		o.Value = w.Value
	}
	return nil
}

// Control is the decision governing a commit: the decider's runtime stage id,
// the branch taken and the rule (label and index; -1 for the default) that
// chose it.
type Control struct {
	Decider   string `json:"decider"`
	Branch    string `json:"branch"`
	Rule      string `json:"rule"`
	RuleIndex int    `json:"ruleIndex"`
}

// SubflowRef marks a mount commit: the subflow's path and the runtime stage id
// of the mount, which keys the inner log in [Record.Subflows].
type SubflowRef struct {
	Path string `json:"path"`
	Run  string `json:"run"`
}

// Commit is one bundle of the log: what one executed stage read and wrote.
//
// The fields that vary from one execution of a node to the next sit in the
// Commit itself; the rest (names, reads, decision, notes) sit in its
// [CommitDetail], reached through the embedded pointer, so c.Stage, c.Reads,
// c.Error and the others read as plain fields. The detail is never nil in a
// commit made by a run or decoded from JSON; a Commit built by hand must set
// one (reading a promoted field through a nil detail panics).
type Commit struct {
	// Idx is the position in the log; 0 is the input commit.
	Idx int
	// RuntimeStageID is the execution id ([subflowPath/]stageId#n).
	RuntimeStageID string
	// Ops are the writes in the order they were staged.
	Ops []Op
	// Control is the decision governing this commit (nil before any).
	Control *Control
	*CommitDetail
}

// CommitDetail is the part of a commit that usually repeats from one
// execution of a node to the next. A run gives consecutive commits of a node
// one shared CommitDetail while these fields stay equal (in a loop that is
// every pass), which keeps a long record about a third the size it would be
// with one copy per commit. Shared means immutable: never modify a
// CommitDetail reached through a Commit; build a new one instead.
type CommitDetail struct {
	// Stage is the display name, StageID the node id.
	Stage   string
	StageID string
	// Reads lists the keys read with tracking, in first-read order.
	Reads []string
	// Untracked is a subset of {"env", "silent"}: the stage used Env or
	// Peek, so a slice through it may be incomplete.
	Untracked []string
	// Decision is set on decider and selector commits.
	Decision *Decision
	// Error is the failed stage's message.
	Error string
	// Subflow is set on mount commits.
	Subflow *SubflowRef
	// Redacted lists the keys whose values are masked in this bundle.
	Redacted []string
}

// equal reports whether d and o hold the same facts (slices element-wise,
// the decision and subflow by identity: both are shared, never rebuilt).
func (d *CommitDetail) equal(o *CommitDetail) bool {
	return d.Stage == o.Stage && d.StageID == o.StageID && d.Decision == o.Decision &&
		d.Error == o.Error && d.Subflow == o.Subflow && slices.Equal(d.Reads, o.Reads) &&
		slices.Equal(d.Untracked, o.Untracked) && slices.Equal(d.Redacted, o.Redacted)
}

// commitJSON is the wire form of a commit; its field order is the key order
// of an encoded commit.
type commitJSON struct {
	Idx            int         `json:"idx"`
	Stage          string      `json:"stage"`
	StageID        string      `json:"stageId"`
	RuntimeStageID string      `json:"runtimeStageId"`
	Reads          []string    `json:"reads"`
	Ops            []Op        `json:"ops"`
	Untracked      []string    `json:"untracked,omitempty"`
	Control        *Control    `json:"control,omitempty"`
	Decision       *Decision   `json:"decision,omitempty"`
	Error          string      `json:"error,omitempty"`
	Subflow        *SubflowRef `json:"subflow,omitempty"`
	Redacted       []string    `json:"redacted,omitempty"`
}

// redactedValue replaces the value of a redacted key's op in encoded records.
const redactedValue = "[redacted]"

// MarshalJSON writes empty reads and ops as [] rather than null, and masks
// the op values of the keys listed in redacted.
func (c Commit) MarshalJSON() ([]byte, error) {
	p := commitJSON{Idx: c.Idx, RuntimeStageID: c.RuntimeStageID, Ops: c.Ops, Control: c.Control}
	if d := c.CommitDetail; d != nil {
		p.Stage, p.StageID, p.Reads, p.Untracked = d.Stage, d.StageID, d.Reads, d.Untracked
		p.Decision, p.Error, p.Subflow, p.Redacted = d.Decision, d.Error, d.Subflow, d.Redacted
	}
	if p.Reads == nil {
		p.Reads = []string{}
	}
	if p.Ops == nil {
		p.Ops = []Op{}
	}
	if len(p.Redacted) > 0 {
		ops := make([]Op, len(p.Ops))
		for i, op := range p.Ops {
			if contains(p.Redacted, op.Key) && op.Verb != VerbDelete {
				op.Value = redactedValue
			}
			ops[i] = op
		}
		p.Ops = ops
	}
	return json.Marshal(p)
}

// UnmarshalJSON reads the wire form; the decoded commit always has its own
// detail.
func (c *Commit) UnmarshalJSON(data []byte) error {
	var p commitJSON
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*c = Commit{Idx: p.Idx, RuntimeStageID: p.RuntimeStageID, Ops: p.Ops, Control: p.Control,
		CommitDetail: &CommitDetail{Stage: p.Stage, StageID: p.StageID, Reads: p.Reads, Untracked: p.Untracked,
			Decision: p.Decision, Error: p.Error, Subflow: p.Subflow, Redacted: p.Redacted}}
	return nil
}

// Record is the evidence of one run: its commit log and, keyed by the mount's
// runtime stage id, the record of every subflow execution. Subflows may also
// hold attached logs: the record of a run a stage started itself (an agent
// tool's inner run), under a name that is no runtime stage id of this log.
// No commit mounts an attached log; it is checked like any log.
//
// A Record returned by a run is complete and must be treated as read-only.
// One decoded with encoding/json keeps values as raw JSON (replay then
// returns raw JSON too); decode it with [Chart.DecodeRecord] to get the typed
// values back.
type Record struct {
	RunID       string             `json:"runId"`
	ChartID     string             `json:"chartId"`
	ResumedFrom string             `json:"resumedFrom,omitempty"`
	Commits     []*Commit          `json:"commits"`
	Subflows    map[string]*Record `json:"subflows,omitempty"`

	idx keyIndex
	// kinds are the key declarations of the chart that wrote (or decoded)
	// the record, so replay can concatenate lists without reflection.
	kinds map[string]keyKind
	// final is the committed state after the last commit, kept by the top-
	// level run that wrote the record, so reading a final value
	// ([ValueAt] at the last commit) needs no replay.
	final finalState
}

// finalState is a run's state as of its last commit: the chart that
// numbers the slots, the slots, and the log length they are as of.
type finalState struct {
	chart   *Chart
	state   []slot
	commits int
}

// finalValue answers ValueAt(r, i, key) from the run's final state: ok is
// false when that is not possible (not the last commit, no final state, a
// chart with redacted keys, a key that may hold a merged object), and the
// caller replays. Lists come back as a fresh copy, as a replay folding
// appends returns them; set values are shared, as in a replay.
func (r *Record) finalValue(i int, key string) (v any, present, ok bool) {
	f := &r.final
	if f.chart == nil || f.chart.redact != nil || i != f.commits-1 || i != len(r.Commits)-1 {
		return nil, false, false
	}
	si, declared := f.chart.slotIndex(key)
	if !declared {
		return nil, false, false
	}
	sl := &f.state[si]
	if !sl.present {
		return nil, false, true
	}
	k := f.chart.kinds[si]
	if k.mergeable() {
		return nil, false, false
	}
	return k.fresh(sl.val), true, true
}

// keyIndex maps each key to the ascending indices of commits that write it,
// built lazily for replay and slicing.
type keyIndex struct {
	mu      sync.Mutex
	covered int
	byKey   map[string][]int
	// scans counts look-ups answered by scanning instead of the index.
	scans int
}

// indexAfterScans is how many look-ups [Record.writersUpTo] answers by
// scanning backwards before it builds the index: a finished run reads a
// handful of final values, each usually written a few commits from the end,
// while explain asks about many keys at many commits.
const indexAfterScans = 16

// writersUpTo returns, ascending, the commits at or before i that write key,
// back to and including the latest one that sets or deletes it (the first a
// replay needs). The first few look-ups on a record with no index scan the
// commits backwards from i; later ones build and use the index.
func (r *Record) writersUpTo(key string, i int) []int {
	r.idx.mu.Lock()
	scan := r.idx.byKey == nil && r.idx.scans < indexAfterScans
	if scan {
		r.idx.scans++
	}
	r.idx.mu.Unlock()
	if !scan {
		ws := r.writers(key)
		return ws[:sort.SearchInts(ws, i+1)]
	}
	var ws []int
	for ci := i; ci >= 0; ci-- {
		c := r.Commits[ci]
		if c == nil {
			continue
		}
		wrote, reset := false, false
		for j := range c.Ops {
			if op := &c.Ops[j]; op.Key == key {
				wrote = true
				if op.Verb == VerbSet || op.Verb == VerbDelete {
					reset = true
				}
			}
		}
		if wrote {
			ws = append(ws, ci)
		}
		if reset {
			break
		}
	}
	slices.Reverse(ws)
	return ws
}

func (r *Record) writers(key string) []int {
	r.idx.mu.Lock()
	defer r.idx.mu.Unlock()
	if r.idx.byKey == nil {
		r.idx.byKey = make(map[string][]int)
	}
	for ; r.idx.covered < len(r.Commits); r.idx.covered++ {
		c := r.Commits[r.idx.covered]
		if c == nil {
			continue
		}
		for j, op := range c.Ops {
			if j > 0 && c.Ops[j-1].Key == op.Key {
				continue
			}
			l := r.idx.byKey[op.Key]
			if n := len(l); n > 0 && l[n-1] == r.idx.covered {
				continue
			}
			r.idx.byKey[op.Key] = append(l, r.idx.covered)
		}
	}
	return r.idx.byKey[key]
}

// Commit returns the commit at index i, or false when i is out of range.
func (r *Record) Commit(i int) (*Commit, bool) {
	if r == nil || i < 0 || i >= len(r.Commits) {
		return nil, false
	}
	return r.Commits[i], true
}

// Find returns the index of the commit with the given runtime stage id.
func (r *Record) Find(runtimeStageID string) (int, bool) {
	for i := len(r.Commits) - 1; i >= 0; i-- {
		if c := r.Commits[i]; c != nil && c.RuntimeStageID == runtimeStageID {
			return i, true
		}
	}
	return 0, false
}
