// Reading a record's events in the form Record's encoder writes them
// (internal/fastjson): the type, the payload kept raw, and the meta's
// fields by name. Any other form goes to encoding/json, as before;
// FuzzFastEventsReading checks that the two readings agree wherever this
// one accepts.

package record

import (
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/internal/fastjson"
)

// fastEvents reads data, the record's "events" member, and hands add each
// event in order; false when data is not in the form the reader takes (add
// has then been handed the events before the place it gave up at).
func fastEvents(data []byte, add func(rawEvent)) bool {
	r := fastjson.NewReader(data)
	// ints holds the meta's iteration and turn numbers, which the meta
	// points to: a few arrays instead of one allocation an event.
	var ints []int
	at := func(n int) *int {
		if len(ints) == cap(ints) {
			ints = make([]int, 0, 256)
		}
		ints = append(ints, n)
		return &ints[len(ints)-1]
	}
	ok := r.Array(func() bool {
		var e rawEvent
		ok := r.Object(func(name []byte) bool {
			var ok bool
			switch string(name) {
			case "type":
				var n string
				n, ok = r.Word()
				e.Type = event.Name(n)
			case "payload":
				e.Payload, ok = r.Raw()
			case "meta":
				ok = fastMeta(r, &e.Meta, at)
			}
			return ok
		})
		if ok {
			add(e)
		}
		return ok
	})
	return ok && r.Done()
}

// fastMeta reads an event's meta into m; at gives the pointer for a number.
func fastMeta(r *fastjson.Reader, m *event.Meta, at func(int) *int) bool {
	return r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "runId":
			m.RunID, ok = r.Word()
		case "runtimeStageId":
			m.RuntimeStageID, ok = r.Word()
		case "subflowPath":
			m.SubflowPath, ok = r.Word()
		case "wallClockMs":
			m.WallClockMs, ok = r.Int64()
		case "runOffsetMs":
			m.RunOffsetMs, ok = r.Int64()
		case "turnIndex":
			var n int
			n, ok = r.Int()
			m.TurnIndex = at(n)
		case "iterIndex":
			var n int
			n, ok = r.Int()
			m.IterIndex = at(n)
		case "compositionPath":
			m.CompositionPath, ok = r.Words()
		case "traceId":
			m.TraceID, ok = r.Str()
		case "spanId":
			m.SpanID, ok = r.Str()
		case "sessionId":
			m.SessionID, ok = r.Word()
		case "principal":
			m.Principal, ok = r.Word()
		case "tenant":
			m.Tenant, ok = r.Word()
		}
		return ok
	})
}
