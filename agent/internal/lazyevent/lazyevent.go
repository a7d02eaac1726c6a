// Package lazyevent lets the agent keep what its events say inside its run
// and build each event only when the record is read.
//
// Boxing a payload struct into an interface costs one allocation per event,
// and a list entry that carries the event's stage, meta and payload costs
// some eighty bytes. A run with no listener for an event only needs the
// payload when someone reads the record, so the agent keeps what the events
// of one iteration say in one Group of its own and the record keeps, for
// each such event, only its time and its index in the group; record.Events
// asks the group for the event on every read.
package lazyevent

import "github.com/agentfootprint/agentfootprint-go/event"

// Token is the argument only this module can pass: a type outside it cannot
// name Token, so it cannot implement Group by accident.
type Token struct{}

// Group holds several events of a run that share their meta and iteration.
// GroupEvent returns event k's type, stage and payload (the value a listener
// would have received); an event must not change once the record names it.
type Group interface {
	GroupEvent(t Token, k int) (typ event.Name, stage string, payload any)
}
