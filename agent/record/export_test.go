package record

import (
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/event"
)

// ReadEventsBothWays reads a record's "events" member once by the reader of
// the form the encoder writes (fastOK false when it gives up) and once
// through encoding/json, as Decode does, each as the events' types, raw
// payloads and metas.
func ReadEventsBothWays(data []byte) (fast []event.Event, fastOK bool, slow []event.Event, slowErr error) {
	var evs []rawEvent
	if fastEvents(data, func(e rawEvent) { evs = append(evs, e) }) {
		fast, fastOK = asEvents(evs), true
	}
	var raw []rawEvent
	if slowErr = json.Unmarshal(data, &raw); slowErr == nil {
		slow = asEvents(raw)
	}
	return fast, fastOK, slow, slowErr
}

func asEvents(raw []rawEvent) []event.Event {
	out := make([]event.Event, 0, len(raw))
	for _, e := range raw {
		out = append(out, event.Event{Type: e.Type, Payload: e.Payload, Meta: e.Meta})
	}
	return out
}

// ReadRequestsBothWays reads a record's "requests" member once by the reader
// of the form the encoder writes (fastOK false when it gives up) and once
// through encoding/json.
func ReadRequestsBothWays(data []byte) (fast map[string]RequestDelta, fastOK bool, slow map[string]RequestDelta, slowErr error) {
	fast, fastOK = fastRequests(data)
	slowErr = json.Unmarshal(data, &slow)
	return fast, fastOK, slow, slowErr
}
