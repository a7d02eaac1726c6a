// One iteration's events, kept together. An iteration emits the same eight
// events each time (iteration_start, context.evaluated, llm.request,
// llm.response, route_decided, tools.start, tools.result, iteration_end).
// With nobody listening to them, the run writes what each says into one
// iterEvents of the iteration, and the record's list holds for each only its
// times and its kind (record.Events.AppendGrouped): the stages, the meta and
// the iteration are kept once for the eight, and each payload is built when
// the record is read. An event that does not fit (a second call's
// tools.start in a batch, a listener, a batch run side by side) is kept on
// its own, as before.

package agent

import (
	"github.com/agentfootprint/agentfootprint-go/agent/internal/lazyevent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
)

// evKind is one of the events an iteration's group holds.
type evKind uint8

const (
	evIterStart evKind = iota
	evContext
	evRequest
	evResponse
	evRoute
	evToolsStart
	evToolsResult
	evIterEnd
	nEvKinds
)

// evNames are the kinds' event names.
var evNames = [nEvKinds]event.Name{
	evIterStart: event.AgentIterationStart, evContext: event.ContextEvaluated,
	evRequest: event.LLMRequest, evResponse: event.LLMResponse, evRoute: event.AgentRouteDecided,
	evToolsStart: event.ToolsStart, evToolsResult: event.ToolsResult, evIterEnd: event.AgentIterationEnd,
}

// evStage is the stage each kind is emitted from, as an index into
// iterEvents.stages: context, call-llm, the route, the tool calls (or
// wrap-up, for a wrap-up's iteration_end).
var evStage = [nEvKinds]uint8{
	evIterStart: 1, evContext: 0, evRequest: 1, evResponse: 1, evRoute: 2,
	evToolsStart: 3, evToolsResult: 3, evIterEnd: 3,
}

// iterEvents is what one iteration's grouped events say. Each field is
// written once, by the event that fills it, before the record names the
// event; nothing writes it after.
type iterEvents struct {
	iter   int
	group  int // the group's number in the record's list
	meta   *event.Meta
	filled uint16
	stages [4]string

	// context.evaluated is built from the evaluated units and the history
	// messages the window left out.
	ctxEntries []inject.Entry
	ctxEvicted []state.Evicted

	request     event.LLMRequestPayload
	response    event.LLMResponsePayload
	route       event.RouteDecided
	toolsStart  event.ToolsStartPayload
	toolsResult event.ToolsResultPayload
	iterEnd     event.IterationEnd
}

// GroupEvent returns event k of the iteration.
func (g *iterEvents) GroupEvent(_ lazyevent.Token, k int) (event.Name, string, any) {
	kind := evKind(k)
	return evNames[kind], g.stages[evStage[kind]], g.payload(kind)
}

// payload is the payload of the iteration's event of kind k, as a listener
// receives it.
func (g *iterEvents) payload(k evKind) any {
	switch k {
	case evIterStart:
		return event.IterationStart{IterIndex: g.iter}
	case evContext:
		return contextPayload(g.iter, g.ctxEntries, g.ctxEvicted)
	case evRequest:
		return g.request
	case evResponse:
		return g.response
	case evRoute:
		return g.route
	case evToolsStart:
		return g.toolsStart
	case evToolsResult:
		return g.toolsResult
	}
	return g.iterEnd
}

// contextPayload is context.evaluated's payload: the active units with their
// triggers, how many were inactive, and what was dropped (units, and the
// history messages the window left out). Lists with nothing in them are
// [], not null.
func contextPayload(iter int, entries []inject.Entry, evicted []state.Evicted) event.ContextEvaluatedPayload {
	p := event.ContextEvaluatedPayload{Iteration: iter, Active: []event.ActiveUnit{}, Dropped: []event.DroppedUnit{}}
	for _, e := range entries {
		if e.Active {
			p.Active = append(p.Active, event.ActiveUnit{ID: e.ID, Trigger: string(e.Trigger.Kind)})
		} else {
			p.InactiveCount++
		}
		if e.Dropped != nil {
			p.Dropped = append(p.Dropped, event.DroppedUnit{ID: e.ID, Reason: e.Dropped.Reason})
		}
	}
	p.Dropped = append(p.Dropped, evictedUnits(evicted)...)
	return p
}

// emitGrouped emits the iteration's event of kind k, stamped now; build
// writes what it says into the group.
func (rs *runState) emitGrouped(s *flow.Scope, k evKind, iter int, build func(g *iterEvents)) {
	if !rs.wants(evNames[k]) {
		return
	}
	wall, offset := rs.stamp()
	rs.keepGrouped(s, k, iter, wall, offset, build)
}

// emitGroupedAt is emitGrouped for an event reporting what happened at i
// (stampAt).
func (rs *runState) emitGroupedAt(s *flow.Scope, k evKind, iter int, i instant, build func(g *iterEvents)) {
	if !rs.wants(evNames[k]) {
		return
	}
	wall, offset := rs.stampAt(i)
	rs.keepGrouped(s, k, iter, wall, offset, build)
}

// keepGrouped keeps the iteration's event of kind k, stamped wall and
// offset, in the iteration's group; with a listener, in a batch run side by
// side, or when the group cannot take it, on its own. Only the run's stage
// goroutine calls it (a tool's goroutine reports through emit); build may
// not take rs.mu. A nil build writes nothing.
func (rs *runState) keepGrouped(s *flow.Scope, k evKind, iter int, wall, offset int64, build func(g *iterEvents)) {
	n := evNames[k]
	if rs.hold != nil || rs.a.d.HasListeners(n) {
		g := iterEvents{iter: iter}
		if build != nil {
			build(&g)
		}
		rs.keep(s, n, iter, wall, offset, g.payload(k))
		return
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if !rs.a.cfg.recordEvents {
		return
	}
	info := s.Info()
	g := rs.groupLocked(k, iter, &info)
	if g == nil {
		one := iterEvents{iter: iter}
		if build != nil {
			build(&one)
		}
		rs.keepLean(s, n, iter, wall, offset, one.payload(k))
		return
	}
	if build != nil {
		build(g)
	}
	g.filled |= 1 << k
	g.stages[evStage[k]] = info.RuntimeStageID
	rs.events.AppendGrouped(g.group, int(k), wall, offset)
}

// groupLocked returns the group that takes iteration iter's event of kind
// k from the stage info names, starting one for a new iteration; nil when
// the list is full, or the group holds such an event already or another
// stage's in k's place. The caller holds rs.mu.
func (rs *runState) groupLocked(k evKind, iter int, info *flow.StageInfo) *iterEvents {
	n := rs.events.Len()
	if n >= record.MaxEvents {
		return nil
	}
	if n == 0 {
		rs.events.GrowGrouped(rs.eventRoom(), rs.ungroupedRoom())
	}
	m := rs.metaLocked(info)
	g := rs.group
	if g == nil || g.iter != iter || g.meta != m {
		g = &rs.groups.take(1, rs.iterRoom(), 64)[0]
		_, it := rs.sharedLocked(iter)
		g.iter, g.meta = iter, m
		if g.group = rs.events.AddGroup(g, m, it); g.group < 0 {
			return nil
		}
		rs.group = g
	}
	if st := g.stages[evStage[k]]; g.filled&(1<<k) != 0 || (st != "" && st != info.RuntimeStageID) {
		return nil
	}
	return g
}
