// Observers: optional hook funcs on the scope, flow and emit channels, each
// call isolated so a panicking observer never breaks a run.

package flow

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// StageInfo identifies where something happened in a run: a hook receives
// it for the event it reports, and a stage reads its own with [Scope.Info].
// RuntimeStageID is empty in RunStart and Resume; RunEnd and RunFailed carry
// the last execution's.
type StageInfo struct {
	RunID          string
	RuntimeStageID string
	SubflowPath    string
	// LoopIteration is how many back-edges the run has taken so far.
	LoopIteration int
}

// Event is a custom event emitted by a stage through [Scope.Emit]. Events are
// a pass-through channel: they never enter state or the commit log.
type Event struct {
	Name           string
	Payload        any
	RunID          string
	RuntimeStageID string
	SubflowPath    string
	At             time.Time
}

// Hooks is one observer: every field is optional and nil fields cost nothing.
// Hooks run synchronously, in attach order, one call at a time: on the run's
// goroutine, except the live Read, Write and Emit hooks of fork and selector
// children, which come from the children's goroutines (still serialised). A
// panic in a hook is recovered, counted in [Result].ObserverPanics and reported to the
// other observers' Error hook (a panic inside Error is only counted).
//
// Order for one stage: StageStart, Read/Write/Emit (live, as they happen),
// StageEnd, Commit, then Decision or Selected or SubflowExit, StageExecuted,
// then Next or Loop. On a stage error: StageEnd, Commit, Error. A fork fires
// Fork, then its children's StageStart in declaration order.
type Hooks struct {
	// scope channel
	StageStart func(StageInfo)
	Read       func(info StageInfo, key string, value any)
	Write      func(info StageInfo, op Op)
	Commit     func(info StageInfo, c *Commit)
	StageEnd   func(StageInfo)
	Error      func(info StageInfo, err error)

	// flow channel
	StageExecuted func(info StageInfo, stageType string)
	Next          func(info StageInfo, toStageID string)
	Decision      func(info StageInfo, d *Decision)
	Fork          func(info StageInfo, children []string)
	Selected      func(info StageInfo, d *Decision)
	SubflowEnter  func(info StageInfo, path string)
	SubflowExit   func(info StageInfo, path string)
	Loop          func(info StageInfo, toStageID string, visit int)
	Break         func(info StageInfo, reason string)
	Pause         func(info StageInfo, data any)
	Resume        func(info StageInfo, resumedFrom string)
	RunStart      func(StageInfo)
	RunEnd        func(info StageInfo, output any)
	RunFailed     func(info StageInfo, err error)

	// emit channel
	Emit func(Event)
}

type observer struct {
	id string
	h  *Hooks
}

// observers is the attached hook set of one run, shared with its subflows.
type observers struct {
	list   []observer
	panics atomic.Int64
	// mu serialises hook calls while fork children run concurrently.
	mu     sync.Mutex
	locked bool
	// fast-path flags: whether any observer listens on a hook.
	read, write, emit bool
}

func newObservers(list []observer) *observers {
	o := &observers{list: list}
	for _, ob := range list {
		o.read = o.read || ob.h.Read != nil
		o.write = o.write || ob.h.Write != nil
		o.emit = o.emit || ob.h.Emit != nil
	}
	return o
}

// parallel switches hook serialisation on while fork children run.
func (o *observers) parallel(on bool) { o.locked = on }

func (o *observers) any() bool { return len(o.list) > 0 }

// call runs f for each observer, isolating panics. f receives the hooks and
// returns false when the observer has no such hook.
func (o *observers) call(info StageInfo, isError bool, f func(*Hooks)) {
	if o.locked {
		o.mu.Lock()
		defer o.mu.Unlock()
	}
	for i := range o.list {
		o.one(info, isError, o.list[i].id, o.list[i].h, f)
	}
}

func (o *observers) one(info StageInfo, isError bool, id string, h *Hooks, f func(*Hooks)) {
	defer func() {
		if p := recover(); p != nil {
			o.panics.Add(1)
			if isError {
				return
			}
			err := &observerPanicError{Observer: id, Value: fmt.Sprint(p)}
			for j := range o.list {
				if o.list[j].id != id && o.list[j].h.Error != nil {
					o.one(info, true, o.list[j].id, o.list[j].h, func(h *Hooks) { h.Error(info, err) })
				}
			}
		}
	}()
	f(h)
}

func (o *observers) stageStart(info StageInfo) {
	if !o.any() {
		return
	}
	o.call(info, false, func(h *Hooks) {
		if h.StageStart != nil {
			h.StageStart(info)
		}
	})
}

func (o *observers) stageEnd(info StageInfo) {
	if !o.any() {
		return
	}
	o.call(info, false, func(h *Hooks) {
		if h.StageEnd != nil {
			h.StageEnd(info)
		}
	})
}

func (o *observers) commit(info StageInfo, c *Commit) {
	if !o.any() {
		return
	}
	o.call(info, false, func(h *Hooks) {
		if h.Commit != nil {
			h.Commit(info, c)
		}
	})
}

func (o *observers) error(info StageInfo, err error) {
	if !o.any() {
		return
	}
	o.call(info, true, func(h *Hooks) {
		if h.Error != nil {
			h.Error(info, err)
		}
	})
}

func (o *observers) readHook(info StageInfo, key string, v any) {
	o.call(info, false, func(h *Hooks) {
		if h.Read != nil {
			h.Read(info, key, v)
		}
	})
}

func (o *observers) writeHook(info StageInfo, op Op) {
	o.call(info, false, func(h *Hooks) {
		if h.Write != nil {
			h.Write(info, op)
		}
	})
}

func (o *observers) emitHook(ev Event) {
	info := StageInfo{RunID: ev.RunID, RuntimeStageID: ev.RuntimeStageID, SubflowPath: ev.SubflowPath}
	o.call(info, false, func(h *Hooks) {
		if h.Emit != nil {
			h.Emit(ev)
		}
	})
}

func (o *observers) flow(info StageInfo, f func(*Hooks)) {
	if !o.any() {
		return
	}
	o.call(info, false, f)
}
