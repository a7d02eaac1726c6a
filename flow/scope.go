// Scope: the tracked view of state one stage execution reads and writes
// through, with per-key staged writes committed once when the stage ends.

package flow

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"time"
)

// Scope is the state seen by one stage execution. Every Get and Has is a
// tracked read, of a run input too (inputs are the keys commit 0 seeds, and
// they are read-only). The Set and Append of a declared key ([ValueKey.Set],
// [ListKey.Append]) and the scope's Merge and Delete stage writes that land
// as one commit when the stage returns (also when it fails). A stage reads
// its own staged writes; other stages see them only after the commit. A key
// whose name is known only at run time is written through Key[any] or
// List[any] of that name: the write is checked against the declaration.
//
// A Scope is valid only during the stage call that received it and is not
// safe for concurrent use. Values returned by Get are shared with the
// committed state and must not be modified.
//
// A write that is refused (undeclared key, input key, wrong type, append to a
// non-list, merge into a non-object) is not staged; the stage then fails with
// that error after its func returns, and its other writes still commit.
type Scope struct {
	ctx   context.Context
	e     *exec
	n     *node
	info  StageInfo
	reads []string
	ops   []Op
	opAt  []int32 // opAt[i] is the state slot of ops[i]'s key
	// opBuf is the scope's own op buffer, for the stages whose ops do not
	// go to the run's slab (see roomForOp).
	opBuf []Op
	views []view
	tr    trackingReader
	flags uint8
	brk   bool
	why   string
	werr  error
	// borrowed fingerprints committed values read, under WithDevChecks.
	borrowed []borrow
	// dec and evReads are Decide's scratch (see settle).
	dec     Decision
	evReads []string
	// readIdx indexes reads once a stage has many.
	readIdx map[string]struct{}
	// par marks a fork or selector child running beside its siblings: it
	// must not use the run's slab, which only the run's goroutine may touch.
	par bool
}

const (
	untrackedEnv uint8 = 1 << iota
	untrackedSilent
)

// view caches the read-your-writes value of a key this stage wrote and then
// read, until its next write.
type view struct {
	key     string
	val     any
	present bool
	valid   bool
}

// Info says where this stage execution runs: the run's id (the current leg
// when resumed), the execution's runtime id such as "call-llm#3", the subflow
// path ("" at the top level) and how many back-edges the run had taken when
// the stage started. It is the same value the run's hooks receive.
func (s *Scope) Info() StageInfo { return s.info }

// indexFrom is the number of reads past which they get a map index, so a
// stage reading many keys stays linear.
const indexFrom = 16

func (s *Scope) track(key string) {
	if s.readIdx != nil {
		if _, seen := s.readIdx[key]; seen {
			return
		}
		s.readIdx[key] = struct{}{}
		s.reads = append(s.reads, key)
		return
	}
	for _, k := range s.reads {
		if k == key {
			return
		}
	}
	s.reads = append(s.reads, key)
	if len(s.reads) > indexFrom {
		s.readIdx = make(map[string]struct{}, 2*len(s.reads))
		for _, k := range s.reads {
			s.readIdx[k] = struct{}{}
		}
	}
}

// Get returns the key's value as this stage sees it and records the read.
func (s *Scope) Get(key string) (any, bool) {
	s.track(key)
	v, ok := s.lookup(key)
	if s.e.r.obs.read {
		s.e.r.obs.readHook(s.info, key, v)
	}
	return v, ok
}

// Has reports whether the key is present and records the read.
func (s *Scope) Has(key string) bool {
	s.track(key)
	_, ok := s.lookup(key)
	return ok
}

// Peek reads a key without tracking it, for diagnostics. The commit is then
// marked untracked "silent": a slice through it may be incomplete.
func (s *Scope) Peek(key string) (any, bool) {
	s.flags |= untrackedSilent
	return s.lookup(key)
}

// Env returns the infrastructure values attached to the run's context with
// [WithEnv]. They are outside state, so the commit is marked untracked "env".
func (s *Scope) Env() map[string]any {
	s.flags |= untrackedEnv
	m, _ := s.ctx.Value(envKey{}).(map[string]any)
	return m
}

// WriterOf returns the runtime stage id and commit index of the last
// committed write of key (commit 0 for an input); it is not a tracked read.
func (s *Scope) WriterOf(key string) (runtimeStageID string, commit int, ok bool) {
	sl := s.e.slot(key)
	if sl == nil {
		return "", 0, false
	}
	return s.e.rec.Commits[sl.writer].RuntimeStageID, sl.writer, true
}

// Break stops the walk after this stage commits; the run output is this
// stage's return value.
func (s *Scope) Break(reason string) {
	s.brk = true
	s.why = reason
}

// Emit sends a custom event to emit observers. payload runs only when some
// observer listens, so an emit nobody hears costs nothing. Events fire
// immediately, before the stage's commit.
func (s *Scope) Emit(name string, payload func() any) {
	if !s.e.r.obs.emit {
		return
	}
	var p any
	if payload != nil {
		p = payload()
	}
	s.e.r.obs.emitHook(Event{Name: name, Payload: p, RunID: s.info.RunID,
		RuntimeStageID: s.info.RuntimeStageID, SubflowPath: s.info.SubflowPath, At: s.e.r.now()})
}

// lookup returns the staged value when this stage wrote key, else the
// committed one.
func (s *Scope) lookup(key string) (any, bool) {
	if len(s.ops) > 0 {
		for i := range s.views {
			if s.views[i].key == key {
				v := &s.views[i]
				if !v.valid {
					v.val, v.present = s.fold(key)
					v.valid = true
				}
				return v.val, v.present
			}
		}
		if s.wrote(key) {
			val, present := s.fold(key)
			s.views = append(s.views, view{key: key, val: val, present: present, valid: true})
			return val, present
		}
	}
	if sl := s.e.slot(key); sl != nil {
		if s.e.r.dev {
			s.borrow(key, sl.val)
		}
		return sl.val, true
	}
	return nil, false
}

// wrote reports whether this stage staged an op on key.
func (s *Scope) wrote(key string) bool {
	for i := len(s.ops) - 1; i >= 0; i-- {
		if s.ops[i].Key == key {
			return true
		}
	}
	return false
}

// fold materialises key from the committed value and this stage's ops.
func (s *Scope) fold(key string) (any, bool) {
	var val any
	present := false
	i, _ := s.e.chart.slotIndex(key) // declared: this stage wrote it
	if sl := &s.e.state[i]; sl.present {
		val, present = sl.val, true
	}
	k := s.e.chart.kinds[i]
	for _, op := range s.ops {
		if op.Key != key {
			continue
		}
		val, present = applyOp(k, val, present, op)
	}
	return val, present
}

// applyOp returns the value after op, never modifying val in place.
func applyOp(k keyKind, val any, present bool, op Op) (any, bool) {
	switch op.Verb {
	case VerbSet:
		return op.Value, true
	case VerbDelete:
		return nil, false
	case VerbMerge:
		base, _ := val.(map[string]any)
		return deepMerge(base, op.Value.(map[string]any)), true
	case VerbAppend:
		if !present {
			val = nil
		}
		_, v := k.concat(val, op.Value, 0)
		return v, true
	}
	return val, present
}

func (s *Scope) refuse(key, reason string) {
	if s.werr == nil {
		s.werr = &KeyError{Key: key, Reason: reason}
	}
}

// declared returns the key's kind and state slot, refusing undeclared and
// input keys.
func (s *Scope) declared(key string) (keyKind, int32, bool) {
	i, ok := s.e.chart.slotIndex(key)
	if !ok {
		s.refuse(key, "not declared on chart "+s.e.chart.id)
		return nil, 0, false
	}
	if s.e.state[i].input {
		s.refuse(key, "is a frozen input and cannot be written")
		return nil, 0, false
	}
	return s.e.chart.kinds[i], int32(i), true
}

func (s *Scope) stage(op Op, at int32) {
	if s.e.r.dev && op.Verb != VerbDelete {
		if _, err := json.Marshal(op.Value); err != nil {
			s.refuse(op.Key, "value does not encode to JSON: "+err.Error())
			return
		}
	}
	op.ReadsBefore = len(s.reads)
	if len(s.ops) == cap(s.ops) {
		s.roomForOp()
	}
	s.ops = append(s.ops, op)
	s.opAt = append(s.opAt, at)
	// Views exist only for keys read after a write in this stage.
	for i := range s.views {
		if s.views[i].key == op.Key {
			s.views[i].valid = false
		}
	}
	if s.e.r.obs.write {
		s.e.r.obs.writeHook(s.info, op)
	}
}

// set stages v as the key's full new value. The key must be declared with a
// matching type.
func (s *Scope) set(key string, v any) {
	k, at, ok := s.declared(key)
	if !ok {
		return
	}
	nv, err := k.check(v)
	if err != nil {
		s.refuse(key, err.Error())
		return
	}
	s.stage(Op{Key: key, Verb: VerbSet, Value: nv}, at)
}

// Merge stages a deep-merge patch: objects merge recursively; arrays,
// scalars and null replace. The key must hold a map[string]any (declared as
// Key[map[string]any] or Key[any]). The patch is normalised through JSON so
// the live value equals its replay.
func (s *Scope) Merge(key string, patch any) {
	k, at, ok := s.declared(key)
	if !ok {
		return
	}
	if !k.mergeable() {
		s.refuse(key, "merge needs a key declared as Key[map[string]any] or Key[any]")
		return
	}
	p, err := normalizePatch(patch)
	if err != nil {
		s.refuse(key, "merge patch: "+err.Error())
		return
	}
	if cur, present := s.lookup(key); present && cur != nil {
		if _, isMap := cur.(map[string]any); !isMap {
			s.refuse(key, "merge into a value that is not an object")
			return
		}
	}
	s.stage(Op{Key: key, Verb: VerbMerge, Value: p}, at)
}

func (s *Scope) appendTail(key string, tail any) {
	k, at, ok := s.declared(key)
	if !ok {
		return
	}
	t, err := k.tail(tail)
	if err != nil {
		s.refuse(key, err.Error())
		return
	}
	s.stage(Op{Key: key, Verb: VerbAppend, Value: t}, at)
}

// Delete stages the removal of key.
func (s *Scope) Delete(key string) {
	_, at, ok := s.declared(key)
	if !ok {
		return
	}
	s.stage(Op{Key: key, Verb: VerbDelete}, at)
}

type envKey struct{}

// WithEnv attaches infrastructure values (clients, clocks, limits) to ctx for
// [Scope.Env]. They are not state and are not recorded.
func WithEnv(ctx context.Context, env map[string]any) context.Context {
	return context.WithValue(ctx, envKey{}, env)
}

// timeNow is the default clock.
func timeNow() time.Time { return time.Now().UTC() }

// borrow is the fingerprint of a committed value at its first read.
type borrow struct {
	key string
	sum uint64
	ok  bool
}

func fingerprint(v any) (uint64, bool) {
	b, err := json.Marshal(v)
	if err != nil {
		return 0, false
	}
	h := fnv.New64a()
	_, _ = h.Write(b)
	return h.Sum64(), true
}

func (s *Scope) borrow(key string, v any) {
	for _, b := range s.borrowed {
		if b.key == key {
			return
		}
	}
	sum, ok := fingerprint(v)
	s.borrowed = append(s.borrowed, borrow{key: key, sum: sum, ok: ok})
}

// checkBorrowed fails the stage when a committed value it read changed.
func (s *Scope) checkBorrowed() {
	for _, b := range s.borrowed {
		sl := s.e.slot(b.key)
		if sl == nil || !b.ok {
			continue
		}
		if sum, ok := fingerprint(sl.val); ok && sum != b.sum {
			s.refuse(b.key, "committed value was modified in place by stage "+s.info.RuntimeStageID+
				" (committed values are shared and immutable; copy before changing)")
		}
	}
}
