// This file holds a record's event list, kept compactly: what every event of
// a run repeats is stored once, and an event.Event is made only when read.

package record

import (
	"encoding/json"
	"iter"
	"math"
	"slices"

	"github.com/agentfootprint/agentfootprint-go/agent/internal/lazyevent"
	"github.com/agentfootprint/agentfootprint-go/event"
)

// Events is the list of a run's events in the order they were emitted. It
// keeps each event's own fields (type, payload, stage, subflow, times,
// iteration) and the fields a run's events share (run id, composition path,
// trace and caller identity) once for a run of events that share them; At
// and All rebuild each event.Event as it was appended. The agent keeps the
// events of an iteration that nobody listened to in a group of its own (see
// agent/internal/lazyevent), and the list holds only each one's times and
// place in its group. A grouped event's payload is built on each read, so
// two reads of one event give equal payloads, not one shared box. The zero
// value is an empty list. Like the Record holding it, it is read-only once
// returned.
type Events struct {
	// order names every event in order: an event of list, or one of a
	// group.
	order []entry
	list  []compactEvent
	// groups are the agent's groups of events (AddGroup).
	groups []groupRef
	// shared holds the last few distinct shared metas, newest last, so
	// events that alternate between a subflow and the top level keep one
	// copy of each.
	shared []*event.Meta
}

// entry is one event's place in the list: with k 0, list[ref]; otherwise
// event k-1 of groups[ref], whose times the entry holds.
type entry struct {
	wall, offset int64
	ref          uint32
	k            uint8
}

// groupRef is a group with the meta and iteration its events share.
type groupRef struct {
	g      lazyevent.Group
	shared *event.Meta
	iter   *int
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

// maxGroupEvents is how many events one group may hold.
const maxGroupEvents = math.MaxUint8 - 1

// Len returns the number of events.
func (e Events) Len() int { return len(e.order) }

// At returns the i-th event (0-based); it panics when i is out of range, as
// an index expression does.
func (e Events) At(i int) event.Event {
	en := &e.order[i]
	if en.k == 0 {
		c := &e.list[en.ref]
		m := *c.shared
		m.RuntimeStageID, m.WallClockMs, m.RunOffsetMs, m.IterIndex = c.stage, c.wall, c.offset, c.iter
		return event.Event{Type: c.typ, Payload: c.payload, Meta: m}
	}
	g := &e.groups[en.ref]
	typ, stage, payload := g.g.GroupEvent(lazyevent.Token{}, int(en.k)-1)
	m := *g.shared
	m.RuntimeStageID, m.WallClockMs, m.RunOffsetMs, m.IterIndex = stage, en.wall, en.offset, g.iter
	return event.Event{Type: typ, Payload: payload, Meta: m}
}

// All yields the events with their indices, in order.
func (e Events) All() iter.Seq2[int, event.Event] {
	return func(yield func(int, event.Event) bool) {
		for i := range e.order {
			if !yield(i, e.At(i)) {
				return
			}
		}
	}
}

// Slice returns the events as a new slice (nil when there are none).
func (e Events) Slice() []event.Event {
	if len(e.order) == 0 {
		return nil
	}
	out := make([]event.Event, len(e.order))
	for i := range e.order {
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
func (e *Events) Grow(n int) { e.GrowGrouped(n, n) }

// GrowGrouped makes room for n more events, of which up to ungrouped are
// appended with Append or AppendShared and the others with AppendGrouped,
// without another allocation.
func (e *Events) GrowGrouped(n, ungrouped int) {
	e.order = slices.Grow(e.order, n)
	e.list = slices.Grow(e.list, min(n, ungrouped))
}

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
		e.noteShared(&m)
	}
	e.add(c)
}

// AppendShared adds an event whose shared meta fields are shared's: the
// run id, subflow path, turn index, composition path, trace and caller
// identity; shared's other fields are ignored. The caller keeps shared for
// the events after it and never changes it. It is Append for a writer that
// already knows what its events share, without comparing metas.
func (e *Events) AppendShared(shared *event.Meta, typ event.Name, payload any, stage string, wallMs, offsetMs int64, iter *int) {
	e.noteShared(shared)
	e.add(compactEvent{typ: typ, payload: payload, stage: stage, wall: wallMs, offset: offsetMs, iter: iter, shared: shared})
}

// add appends c to the list and names it in order.
func (e *Events) add(c compactEvent) {
	e.list = append(e.list, c)
	e.order = append(e.order, entry{ref: uint32(len(e.list) - 1)})
}

// AddGroup adds a group whose events share shared's meta fields (as
// AppendShared) and iteration iter, and returns its number for
// AppendGrouped; -1 when g or shared is nil. The caller never changes
// shared or iter.
func (e *Events) AddGroup(g lazyevent.Group, shared *event.Meta, iter *int) int {
	if g == nil || shared == nil || len(e.groups) >= math.MaxUint32 {
		return -1
	}
	e.noteShared(shared)
	e.groups = append(e.groups, groupRef{g: g, shared: shared, iter: iter})
	return len(e.groups) - 1
}

// AppendGrouped adds event k of group (AddGroup) at the given times. It
// reports false, adding nothing, when there is no such group or k is out of
// range (0 to 253).
func (e *Events) AppendGrouped(group, k int, wallMs, offsetMs int64) bool {
	if group < 0 || group >= len(e.groups) || k < 0 || k >= maxGroupEvents {
		return false
	}
	e.order = append(e.order, entry{wall: wallMs, offset: offsetMs, ref: uint32(group), k: uint8(k + 1)})
	return true
}

// noteShared makes m the newest of the shared metas Append looks back at.
func (e *Events) noteShared(m *event.Meta) {
	if n := len(e.shared); n > 0 && e.shared[n-1] == m {
		return
	}
	if len(e.shared) == sharedBack {
		e.shared = append(e.shared[:0], e.shared[1:]...)
	}
	e.shared = append(e.shared, m)
}

// sharesMeta reports whether m carries the shared fields of s.
func sharesMeta(s, m *event.Meta) bool {
	return s.RunID == m.RunID && s.SubflowPath == m.SubflowPath && s.TraceID == m.TraceID && s.SpanID == m.SpanID &&
		s.SessionID == m.SessionID && s.Principal == m.Principal && s.Tenant == m.Tenant &&
		(s.TurnIndex == nil) == (m.TurnIndex == nil) && (s.TurnIndex == nil || *s.TurnIndex == *m.TurnIndex) &&
		(s.CompositionPath == nil) == (m.CompositionPath == nil) && slices.Equal(s.CompositionPath, m.CompositionPath)
}
