// Parallel tool dispatch: WithParallelTools runs the calls of one batch
// concurrently (bounded), while their results, events and commits are kept
// in the model's call order whatever order they finish in.

package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// parallelConfig is what WithParallelTools and WithCancelOnToolFailure ask.
type parallelConfig struct {
	// limit is the most calls of one batch that execute at once (0 or 1:
	// one after another, the default).
	limit      int
	cancelRest bool
}

// WithParallelTools lets up to n calls of one batch execute at the same
// time (n at least 1; 1 is the default, one after another). Only the tools'
// Execute runs concurrently: resolving, argument filling, validation, the
// check-in and the call clock run first, one call after another in call
// order, and the results are read and recorded in call order once every
// call has returned, so the record, the history and the events read as if
// the calls had run one after another. Listeners hear a batch's tool events
// when the batch ends, in call order.
//
// A check-in is decided before anything executes, so it keeps the
// sequential meaning exactly: the calls before the check-in call run, the
// run pauses on it, and the calls after it run after the answer. A tool
// that pauses from inside Execute (tool.Pause) pauses the run the same way:
// the results of the calls before it are kept; the calls after it may
// already have executed alongside it, and their outcomes are dropped
// unrecorded, because they run again after the answer as in a sequential
// batch. Keep tools that pause from Execute out of batches with tools whose
// side effects must not repeat.
func WithParallelTools(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.errs = append(c.errs, fmt.Errorf("agent: WithParallelTools: the limit must be at least 1, got %d", n))
			return
		}
		c.parallel.limit = n
	}
}

// WithCancelOnToolFailure cancels the context of the calls still executing
// in a parallel batch (WithParallelTools) as soon as one call's tool returns
// an error; the calls that stop because of it are served a text naming the
// call that failed. Without it every call of a batch runs to its end.
func WithCancelOnToolFailure() Option {
	return func(c *config) { c.parallel.cancelRest = true }
}

// heldEvents are one call's events, kept until its batch records them.
type heldEvents struct {
	mu  sync.Mutex
	evs []event.Event
}

func (h *heldEvents) keep(ev event.Event) {
	h.mu.Lock()
	h.evs = append(h.evs, ev)
	h.mu.Unlock()
}

// held returns a copy of the batch for one call of a parallel batch: the
// same scope (used only from the batch's own goroutine), its own coverage
// rows and its own held events.
func (b *batch) held() *batch {
	return &batch{a: b.a, s: b.s, iter: b.iter, turn: b.turn, calls: b.calls, recorded: b.recorded,
		rs: &runState{a: b.rs.a, start: b.rs.start, identity: b.rs.identity, hold: &heldEvents{}}}
}

// release records a held call's events and coverage rows on the batch.
func (b *batch) release(cb *batch) {
	for _, ev := range cb.rs.hold.evs {
		b.rs.deliver(ev)
	}
	cb.rs.hold.evs = nil
	b.rows = append(b.rows, cb.rows...)
	cb.rows = nil
}

// callFailed is the cancellation cause WithCancelOnToolFailure gives.
type callFailed struct {
	id, name string
}

func (e *callFailed) Error() string {
	return fmt.Sprintf("the call %s of tool %q failed", e.id, e.name)
}

// slot is one call of a parallel batch.
type slot struct {
	c     llm.ToolCall
	cb    *batch
	start instant
	p     preparedCall
	o     outcome
	run   bool
	note  string
}

// runParallel dispatches calls[from:] with up to limit executing at once;
// see WithParallelTools for what is kept in order and how a pause behaves.
func (b *batch) runParallel(ctx context.Context, from int, resumed bool, limit int) (*flow.Pause, error) {
	if err := ctx.Err(); err != nil {
		b.commit(false)
		return nil, err
	}
	mode := callMode{resumed: resumed}
	slots := make([]*slot, 0, len(b.calls)-from)
	stop := -1 // the slot of a check-in that pauses the batch
	for i := from; i < len(b.calls); i++ {
		c := b.calls[i]
		sl := &slot{c: c, cb: b.held()}
		sl.start = sl.cb.rs.instant()
		sl.cb.announceAt(i, nil)
		p, o, done := sl.cb.prepareCall(c, mode)
		sl.p, sl.o, sl.run = p, o, !done
		if sl.run {
			sl.note = b.a.seams.resultNote(b.s, c)
		}
		slots = append(slots, sl)
		if done && o.pause != nil && !resumed {
			stop = len(slots) - 1
			break
		}
	}

	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var g errgroup.Group
	g.SetLimit(limit)
	for _, sl := range slots {
		if !sl.run {
			continue
		}
		g.Go(func() error {
			sl.o = sl.cb.executeCall(runCtx, sl.c, sl.p, func() string { return sl.note })
			if sl.o.failed && b.a.cfg.parallel.cancelRest {
				cancel(&callFailed{id: sl.c.ID, name: sl.c.Name})
			}
			return nil
		})
	}
	_ = g.Wait() // the calls report through their slots, never an error

	var first *callFailed
	errors.As(context.Cause(runCtx), &first)
	for k, sl := range slots {
		if k == stop || (sl.run && sl.o.pause != nil && !resumed) {
			// The calls after a pausing one wait for the answer, as in a
			// sequential batch.
			b.release(sl.cb)
			return b.pauseAt(sl.c, sl.o), nil
		}
		o := sl.o
		if first != nil && o.failed && sl.c.ID != first.id {
			o.served = fmt.Sprintf("The call of tool %q was stopped because %s first and this agent cancels the rest of a batch when a call fails.", sl.c.Name, first.Error())
		}
		o = sl.cb.settle(sl.c, o, mode, sl.start)
		b.release(sl.cb)
		b.finish(sl.c, o)
	}
	if err := ctx.Err(); err != nil {
		b.commit(false)
		return nil, err
	}
	b.commit(true)
	return nil, nil
}
