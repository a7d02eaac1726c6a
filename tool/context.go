// This file holds the call context: what a running tool can learn about
// the call it serves, and how the dispatcher attaches it.

package tool

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/toolcall"
)

// Call describes the call a tool is serving. The dispatcher attaches it to
// the ctx it runs the tool with (toolrun.WithCall); the tool reads it with
// CallFrom.
type Call struct {
	// ID is the provider's tool call id.
	ID string
	// Name is the tool's name.
	Name string
	// Iteration is the agent iteration that dispatched the call (1-based).
	Iteration int
	// Turn is the conversation turn number (1-based).
	Turn int
	// Progress reports a progress payload while the tool runs; the
	// dispatcher turns it into a tools.progress event. CallFrom never
	// returns a nil Progress.
	Progress func(payload any)
	// Time is the turn's clock, present only when the agent's time layer
	// is armed.
	Time *CallTime
}

// CallTime is the clock handed to a tool under the time layer. Instants are
// UTC; tools evaluate their own look-backs against DispatchedAt. Its fields
// match timelayer.ToolTime's one for one, so the dispatcher converts with
// tool.CallTime(tt); the tool package does not import clock.
type CallTime struct {
	// Zone is the person's zone name, or a stand-in spelling when
	// ZoneUnknown.
	Zone string
	// ZoneUnknown is true when nobody named a zone.
	ZoneUnknown bool
	// Now is the turn's frozen "now".
	Now time.Time
	// DispatchedAt is when this call was dispatched.
	DispatchedAt time.Time
}

// MarshalJSON writes {version: 1, zone, zoneUnknown?, now, dispatchedAt} with
// the instants in UTC (RFC 3339, fraction only when non-zero).
func (t CallTime) MarshalJSON() ([]byte, error) {
	type wire struct {
		Version      int    `json:"version"`
		Zone         string `json:"zone"`
		ZoneUnknown  bool   `json:"zoneUnknown,omitempty"`
		Now          string `json:"now"`
		DispatchedAt string `json:"dispatchedAt"`
	}
	return json.Marshal(wire{
		Version:      1,
		Zone:         t.Zone,
		ZoneUnknown:  t.ZoneUnknown,
		Now:          t.Now.UTC().Format(time.RFC3339Nano),
		DispatchedAt: t.DispatchedAt.UTC().Format(time.RFC3339Nano),
	})
}

// errNoCall is CallFrom's error outside a dispatched call (a tool's func
// called directly, in a unit test say).
var errNoCall = errors.New("tool: no call in this context: the func is not being run by a dispatcher (an agent, or toolrun.Execute through toolrun.WithCall)")

// CallFrom returns the Call the tool is serving: its id, iteration, turn,
// the time layer's clock and the progress reporter. Outside a dispatched
// call it returns an error and a zero Call whose Progress does nothing, so
// a tool that can run both ways says which it is in. A tool's own tests
// attach a call with toolrun.WithCall.
func CallFrom(ctx context.Context) (Call, error) {
	// A dispatcher's context holds a pointer to its call (toolrun.WithCall).
	var c Call
	p, ok := ctx.Value(toolcall.Key{}).(*Call)
	if ok = ok && p != nil; ok {
		c = *p
	}
	if c.Progress == nil {
		c.Progress = func(any) {}
	}
	if !ok {
		return c, errNoCall
	}
	return c, nil
}
