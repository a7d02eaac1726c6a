// This file holds a record's event list, kept compactly: what every event of
// a run repeats is stored once, and an event.Event is made only when read.

package record

import (
	"encoding/json"
	"iter"
	"slices"

	"github.com/agentfootprint/agentfootprint-go/agent/internal/lazyevent"
	"github.com/agentfootprint/agentfootprint-go/event"
)

// Events is the list of a run's events in the order they were emitted. It
// keeps each event's own fields (type, payload, stage, subflow, times,
// iteration) and the fields a run's events share (run id, composition path,
// trace and caller identity) once for a run of events that share them; At
// and All rebuild each event.Event as it was appended. A payload the agent
// kept in typed form is boxed on each read, so two reads of one event give
// equal payloads, not one shared box. The zero value is an empty list. Like
// the Record holding it, it is read-only once returned.
type Events struct {
	list []compactEvent
	// shared holds the last few distinct shared metas, newest last, so
	// events that alternate between a subflow and the top level keep one
	// copy of each.
	shared []*event.Meta
}

// compactEvent is one event without the meta fields its neighbours share.
type compactEvent struct {
	typ     event.Name
	payload any
	stage   string
	wall    int64
	offset  int64
	iter    *int
	shared  *event.Meta // RunID, SubflowPath, TurnIndex, CompositionPath, TraceID, SpanID, identity
}

// sharedBack is how many distinct shared metas Append looks back at.
const sharedBack = 4

// Len returns the number of events.
func (e Events) Len() int { return len(e.list) }

// At returns the i-th event (0-based); it panics when i is out of range, as
// an index expression does.
func (e Events) At(i int) event.Event {
	c := &e.list[i]
	m := *c.shared
	m.RuntimeStageID, m.WallClockMs, m.RunOffsetMs, m.IterIndex = c.stage, c.wall, c.offset, c.iter
	return event.Event{Type: c.typ, Payload: lazyevent.Resolve(c.payload), Meta: m}
}

// All yields the events with their indices, in order.
func (e Events) All() iter.Seq2[int, event.Event] {
	return func(yield func(int, event.Event) bool) {
		for i := range e.list {
			if !yield(i, e.At(i)) {
				return
			}
		}
	}
}

// Slice returns the events as a new slice (nil when there are none).
func (e Events) Slice() []event.Event {
	if len(e.list) == 0 {
		return nil
	}
	out := make([]event.Event, len(e.list))
	for i := range e.list {
		out[i] = e.At(i)
	}
	return out
}

// MarshalJSON writes the events as a JSON array of events ("[]" when there
// are none), as a []event.Event encodes.
func (e Events) MarshalJSON() ([]byte, error) {
	s := e.Slice()
	if s == nil {
		s = []event.Event{}
	}
	return json.Marshal(s)
}

// Grow makes room for n more events without another allocation.
func (e *Events) Grow(n int) { e.list = slices.Grow(e.list, n) }

// Append adds ev at the end. The meta fields ev shares with the events
// before it are kept once.
func (e *Events) Append(ev event.Event) {
	c := compactEvent{typ: ev.Type, payload: ev.Payload, stage: ev.Meta.RuntimeStageID,
		wall: ev.Meta.WallClockMs, offset: ev.Meta.RunOffsetMs, iter: ev.Meta.IterIndex}
	for i := len(e.shared) - 1; i >= 0; i-- {
		if sharesMeta(e.shared[i], &ev.Meta) {
			c.shared = e.shared[i]
			break
		}
	}
	if c.shared == nil {
		m := ev.Meta
		m.RuntimeStageID, m.WallClockMs, m.RunOffsetMs, m.IterIndex = "", 0, 0, nil
		c.shared = &m
		if len(e.shared) == sharedBack {
			e.shared = append(e.shared[:0], e.shared[1:]...)
		}
		e.shared = append(e.shared, &m)
	}
	e.list = append(e.list, c)
}

// AppendShared adds an event whose shared meta fields are shared's: the
// run id, subflow path, turn index, composition path, trace and caller
// identity; shared's other fields are ignored. The caller keeps shared for
// the events after it and never changes it. It is Append for a writer that
// already knows what its events share, without comparing metas.
func (e *Events) AppendShared(shared *event.Meta, typ event.Name, payload any, stage string, wallMs, offsetMs int64, iter *int) {
	if n := len(e.shared); n == 0 || e.shared[n-1] != shared {
		if n == sharedBack {
			e.shared = append(e.shared[:0], e.shared[1:]...)
		}
		e.shared = append(e.shared, shared)
	}
	e.list = append(e.list, compactEvent{typ: typ, payload: payload, stage: stage, wall: wallMs, offset: offsetMs, iter: iter, shared: shared})
}

// sharesMeta reports whether m carries the shared fields of s.
func sharesMeta(s, m *event.Meta) bool {
	return s.RunID == m.RunID && s.SubflowPath == m.SubflowPath && s.TraceID == m.TraceID && s.SpanID == m.SpanID &&
		s.SessionID == m.SessionID && s.Principal == m.Principal && s.Tenant == m.Tenant &&
		(s.TurnIndex == nil) == (m.TurnIndex == nil) && (s.TurnIndex == nil || *s.TurnIndex == *m.TurnIndex) &&
		(s.CompositionPath == nil) == (m.CompositionPath == nil) && slices.Equal(s.CompositionPath, m.CompositionPath)
}
