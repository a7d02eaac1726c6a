// Package eventbus delivers an agent's events to its listeners: subscription by name, domain
// wildcard or "*", synchronous panic-isolated delivery, and the no-listener fast path. Users
// subscribe through the agent's On method; the agent owns the one Dispatcher that serves it.
package eventbus

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agentfootprint/agentfootprint-go/event"
)

// Dispatcher delivers events to listeners. One dispatcher serves one agent
// (nested runners emit on their outer agent's dispatcher). The zero value
// is ready to use and has no listeners. All methods are safe for concurrent
// use, and a listener may subscribe or unsubscribe from inside a delivery
// without deadlock: a delivery works on the listener set as it was when the
// emit began, skipping listeners unsubscribed since.
type Dispatcher struct {
	mu     sync.Mutex // serialises writers of reg
	reg    atomic.Pointer[registry]
	seq    uint64 // guarded by mu
	panics atomic.Int64
}

// registry is an immutable snapshot of the subscriptions.
type registry struct {
	list     []*subscription    // in subscription order
	all      int                // subscriptions to "*"
	exact    map[event.Name]int // subscriptions per exact name
	prefixes []string           // distinct wildcard prefixes, such as "agentfootprint.tools."
}

type subscription struct {
	id      uint64
	pattern string
	prefix  string // set for wildcard patterns ("…*" minus the '*')
	fn      event.Listener
	removed atomic.Bool
}

func (s *subscription) matches(n event.Name) bool {
	switch {
	case s.pattern == "*":
		return true
	case s.prefix != "":
		return strings.HasPrefix(string(n), s.prefix)
	}
	return string(n) == s.pattern
}

// On subscribes fn to events matching pattern and returns a func that
// unsubscribes it (calling it again does nothing). A pattern is:
//
//   - "*": every event;
//   - a name prefix ending in ".*", such as "agentfootprint.tools.*": every
//     event whose name starts with the text before the '*';
//   - anything else: that exact name.
//
// Listeners of one event run in the order they subscribed. A nil fn
// subscribes nothing. Use event.CheckPattern to refuse a pattern that can match
// no known event.
func (d *Dispatcher) On(pattern string, fn event.Listener) (unsubscribe func()) {
	if fn == nil {
		return func() {}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.seq++
	sub := &subscription{id: d.seq, pattern: pattern, fn: fn}
	if pattern != "*" && strings.HasSuffix(pattern, "*") {
		sub.prefix = strings.TrimSuffix(pattern, "*")
	}
	old := d.reg.Load()
	var list []*subscription
	if old != nil {
		list = append(list, old.list...)
	}
	d.reg.Store(newRegistry(append(list, sub)))
	var once sync.Once
	return func() { once.Do(func() { d.remove(sub) }) }
}

func (d *Dispatcher) remove(sub *subscription) {
	sub.removed.Store(true)
	d.mu.Lock()
	defer d.mu.Unlock()
	old := d.reg.Load()
	if old == nil {
		return
	}
	list := make([]*subscription, 0, len(old.list))
	for _, s := range old.list {
		if s != sub {
			list = append(list, s)
		}
	}
	d.reg.Store(newRegistry(list))
}

func newRegistry(list []*subscription) *registry {
	r := &registry{list: list, exact: map[event.Name]int{}}
	for _, s := range list {
		switch {
		case s.pattern == "*":
			r.all++
		case s.prefix != "":
			found := false
			for _, p := range r.prefixes {
				if p == s.prefix {
					found = true
					break
				}
			}
			if !found {
				r.prefixes = append(r.prefixes, s.prefix)
			}
		default:
			r.exact[event.Name(s.pattern)]++
		}
	}
	return r
}

// HasListeners reports whether an event named n would reach any listener.
// It does not allocate, so emitters may call it before building anything.
func (d *Dispatcher) HasListeners(n event.Name) bool {
	if d == nil {
		return false
	}
	r := d.reg.Load()
	if r == nil {
		return false
	}
	if r.all > 0 || r.exact[n] > 0 {
		return true
	}
	for _, p := range r.prefixes {
		if strings.HasPrefix(string(n), p) {
			return true
		}
	}
	return false
}

// Emit delivers an event named n to its listeners. The payload is built by
// calling build once, and only when some listener matches; with no
// listener the event is dropped at the cost of one check and no
// allocation. A nil build gives a nil payload. Each listener runs inside
// recover: a panic is counted and becomes an agentfootprint.error.fatal
// event {stage: "observer"} delivered at once to the other error.fatal
// listeners (a panic among those is only counted); delivery then goes on.
// build itself is the emitter's code and is not recovered.
func (d *Dispatcher) Emit(n event.Name, build func() any, meta event.Meta) {
	if !d.HasListeners(n) {
		return
	}
	var payload any
	if build != nil {
		payload = build()
	}
	d.deliver(event.Event{Type: n, Payload: payload, Meta: meta})
}

// Dispatch delivers an already built event, as Emit does. It is how a
// nested runner's events reach the outer agent's listeners.
func (d *Dispatcher) Dispatch(e event.Event) {
	if !d.HasListeners(e.Type) {
		return
	}
	d.deliver(e)
}

// Panics returns how many listener panics the dispatcher has recovered.
func (d *Dispatcher) Panics() int64 {
	if d == nil {
		return 0
	}
	return d.panics.Load()
}

func (d *Dispatcher) deliver(e event.Event) {
	r := d.reg.Load()
	if r == nil {
		return
	}
	for _, s := range r.list {
		if s.removed.Load() || !s.matches(e.Type) {
			continue
		}
		if v, panicked := d.call(s, e); panicked {
			if e.Type == event.ErrorFatal {
				continue // a panic while hearing of a failure is only counted
			}
			d.fatal(r, s, e, v)
		}
	}
}

// call runs one listener, recovering a panic.
func (d *Dispatcher) call(s *subscription, e event.Event) (recovered any, panicked bool) {
	defer func() {
		if v := recover(); v != nil {
			d.panics.Add(1)
			recovered, panicked = v, true
		}
	}()
	s.fn(e)
	return nil, false
}

// fatal tells the error.fatal listeners, other than the one that panicked,
// that a listener of e panicked.
func (d *Dispatcher) fatal(r *registry, culprit *subscription, e event.Event, v any) {
	fe := event.Event{
		Type: event.ErrorFatal,
		Payload: event.ErrorFatalPayload{
			Error: fmt.Sprintf("listener %q panicked on %s: %v", culprit.pattern, e.Type, v),
			Stage: event.StageObserver,
			Scope: string(e.Type),
		},
		Meta: e.Meta,
	}
	for _, s := range r.list {
		if s == culprit || s.removed.Load() || !s.matches(event.ErrorFatal) {
			continue
		}
		d.call(s, fe) // panics here are only counted
	}
}
