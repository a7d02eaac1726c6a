// Package lazyevent lets the agent keep an event's payload in typed form
// inside its run and box it only when the record is read.
//
// Boxing a payload struct into an interface costs one allocation per event.
// A run with no listener for an event only needs the payload when someone
// reads the record, so the agent writes it into a typed chunk of the run and
// hands the record a pointer to it, which boxes for free; record.Events
// builds the payload value from that pointer on every read.
package lazyevent

// Token is the argument only this module can pass: a type outside it cannot
// name Token, so it cannot implement Payload by accident.
type Token struct{}

// Payload is a payload kept in typed form. EventPayload returns it as the
// value a listener would have received; it must not change once the event is
// kept.
type Payload interface {
	EventPayload(Token) any
}

// Slot holds one payload of type T.
type Slot[T any] struct{ V T }

// EventPayload returns the payload, boxed.
func (s *Slot[T]) EventPayload(Token) any { return s.V }

// Resolve returns p's value when p is kept in typed form, and p otherwise.
func Resolve(p any) any {
	if l, ok := p.(Payload); ok {
		return l.EventPayload(Token{})
	}
	return p
}
