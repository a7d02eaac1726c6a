// This file holds Clock: a turn's frozen now and zone, where each came from, and its JSON form.

package clock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

// NowSource says where a clock's now came from.
type NowSource string

// The sources of now.
const (
	// NowFromApp: the app passed the message time.
	NowFromApp NowSource = "app"
	// NowDefault: nobody passed one; the turn's start was read from the wall clock.
	NowDefault NowSource = "default"
)

// ZoneSource says where a clock's zone came from.
type ZoneSource string

// The sources of the zone.
const (
	ZoneFromRun     ZoneSource = "run"     // the run's input named it
	ZoneFromBuilder ZoneSource = "builder" // the agent's Time(zone) option named it
	ZoneUnknown     ZoneSource = "unknown" // nobody did: times are spelled in UTC
)

// WindowSource is the only source a clock's window has: the app's control.
const WindowSource = "control"

// Clock is one turn's time: now, the person's zone and the app's window, each with its source.
// It is decided once, at the start of a turn, and the same value serves every iteration of
// the turn, pauses included. Its JSON form lets a paused run store it and resume on it.
type Clock struct {
	now        time.Time
	nowSource  NowSource
	zone       tz.Zone
	zoneSource ZoneSource
	window     *clock.Range
}

// Start decides a turn's clock. The zone is the run's (given.Zone), else the builder's, else
// unknown (spelled UTC). Now is given.Now, else one read of wall (time.Now when wall is nil);
// it is cut to the millisecond and kept in UTC. Start refuses, naming the field, a given zone
// that ParseZone refuses and a window that fails clock.Range.Check; it reads the wall clock only
// when given.Now is zero.
func Start(builder tz.Zone, given clock.Given, wall func() time.Time) (Clock, error) {
	if err := given.Check(); err != nil {
		return Clock{}, err
	}
	c := Clock{zone: builder, zoneSource: ZoneFromBuilder}
	switch {
	case given.Zone != "":
		c.zone, _ = tz.Parse(given.Zone) // checked above
		c.zoneSource = ZoneFromRun
	case builder.IsZero():
		c.zone, c.zoneSource = tz.UTC(), ZoneUnknown
	}
	if given.Window != nil {
		w := given.Window.UTC()
		c.window = &w
	}
	if !given.Now.IsZero() {
		c.now, c.nowSource = given.Now, NowFromApp
	} else {
		if wall == nil {
			wall = time.Now
		}
		c.now, c.nowSource = wall(), NowDefault
	}
	c.now = c.now.UTC().Truncate(time.Millisecond)
	return c, nil
}

// Now returns the turn's now: UTC, whole milliseconds.
func (c Clock) Now() time.Time { return c.now }

// NowSource says whether now is the app's or the default.
func (c Clock) NowSource() NowSource { return c.nowSource }

// tz.Zone returns the zone times are spelled in (UTC when the person's zone is unknown).
func (c Clock) Zone() tz.Zone { return c.zone }

// ZoneSource says whether the zone is the run's, the builder's or unknown.
func (c Clock) ZoneSource() ZoneSource { return c.zoneSource }

// ZoneUnknown reports whether nobody named the person's zone.
func (c Clock) ZoneUnknown() bool { return c.zoneSource == ZoneUnknown }

// Window returns the window the person set in the app's control, if any.
func (c Clock) Window() (clock.Range, bool) {
	if c.window == nil {
		return clock.Range{}, false
	}
	return *c.window, true
}

// IsZero reports whether c is the zero Clock (no turn started it).
func (c Clock) IsZero() bool { return c.nowSource == "" }

// Presentation returns the renderer bound to the clock's zone.
func (c Clock) Presentation() Presentation { return Bind(c.zone) }

// Reading is a clock's now and zone, as compared on resume. A zero Now means none was passed.
type Reading struct {
	Now  time.Time `json:"now,omitzero"`
	Zone string    `json:"zone,omitempty"`
}

// OnResume is what a resume passed beside the clock it keeps — the clock-on-resume fact.
type OnResume struct {
	Passed Reading `json:"passed"`
	Kept   Reading `json:"kept"`
}

// Resumed compares what a resume passed with the frozen clock. It reports false when the
// resume passed nothing different (a zero field passes nothing). When it reports true, the
// clock is still kept: the paused turn's values were read against it. It compares only;
// refuse a malformed clock.Given with clock.Given.Check first.
func (c Clock) Resumed(given clock.Given) (OnResume, bool) {
	kept := Reading{Now: c.now, Zone: c.zone.String()}
	var passed Reading
	differs := false
	if !given.Now.IsZero() {
		passed.Now = given.Now.UTC().Truncate(time.Millisecond)
		differs = differs || !passed.Now.Equal(c.now)
	}
	if given.Zone != "" {
		passed.Zone = given.Zone
		differs = differs || given.Zone != kept.Zone
	}
	if !differs {
		return OnResume{}, false
	}
	return OnResume{Passed: passed, Kept: kept}, true
}

// clockJSON is the wire form of a Clock; its keys are the clock row's, in the row's order.
type clockJSON struct {
	Now        string      `json:"now"`
	NowSource  NowSource   `json:"nowSource"`
	Zone       string      `json:"zone"`
	ZoneSource ZoneSource  `json:"zoneSource"`
	Window     *windowJSON `json:"window,omitempty"`
}

// windowJSON is the wire form of the clock's window.
type windowJSON struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Source string `json:"source"`
}

// MarshalJSON writes {now, nowSource, zone, zoneSource, window?{from, to, source}}, instants
// in UTC. The zero Clock is refused.
func (c Clock) MarshalJSON() ([]byte, error) {
	if c.IsZero() {
		return nil, fmt.Errorf("clock: the zero Clock has no JSON form; start one with Start")
	}
	w := clockJSON{Now: UTCString(c.now), NowSource: c.nowSource, Zone: c.zone.String(), ZoneSource: c.zoneSource}
	if c.window != nil {
		w.Window = &windowJSON{From: UTCString(c.window.From), To: UTCString(c.window.To), Source: WindowSource}
	}
	return json.Marshal(w)
}

// UnmarshalJSON restores a clock written by MarshalJSON. It refuses unknown keys, a now that is
// not a Strict instant, an unknown source, a zone ParseZone refuses, an unknown zone spelled
// other than UTC, and a malformed window — each naming the field.
func (c *Clock) UnmarshalJSON(b []byte) error {
	var w clockJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return fmt.Errorf("clock: %w", err)
	}
	now, err := ParseInstant(w.Now, Strict)
	if err != nil {
		return fmt.Errorf("clock: now: %w", err)
	}
	v := Clock{now: now.Time.UTC(), nowSource: w.NowSource, zoneSource: w.ZoneSource}
	if v.now.Nanosecond()%int(time.Millisecond) != 0 {
		return fmt.Errorf("clock: now %q is finer than a millisecond; a clock keeps whole milliseconds", textlen.ClipInput(w.Now))
	}
	switch w.NowSource {
	case NowFromApp, NowDefault:
	default:
		return fmt.Errorf("clock: nowSource %q is not %q or %q", textlen.ClipInput(string(w.NowSource)), NowFromApp, NowDefault)
	}
	switch w.ZoneSource {
	case ZoneUnknown:
		if w.Zone != "UTC" {
			return fmt.Errorf("clock: zone %q with zoneSource %q: an unknown zone is spelled UTC", textlen.ClipInput(w.Zone), ZoneUnknown)
		}
		v.zone = tz.UTC()
	case ZoneFromRun, ZoneFromBuilder:
		if v.zone, err = tz.Parse(w.Zone); err != nil {
			return fmt.Errorf("clock: zone: %w", err)
		}
	default:
		return fmt.Errorf("clock: zoneSource %q is not %q, %q or %q", textlen.ClipInput(string(w.ZoneSource)), ZoneFromRun, ZoneFromBuilder, ZoneUnknown)
	}
	if w.Window != nil {
		if w.Window.Source != WindowSource {
			return fmt.Errorf("clock: window.source %q is not %q", textlen.ClipInput(w.Window.Source), WindowSource)
		}
		var r clock.Range
		raw, _ := json.Marshal(struct {
			From string `json:"from"`
			To   string `json:"to"`
		}{From: w.Window.From, To: w.Window.To})
		if err := r.UnmarshalJSON(raw); err != nil {
			return fmt.Errorf("clock: window: %w", err)
		}
		v.window = &r
	}
	*c = v
	return nil
}
