// This file holds ToolTime: the slice of the turn's clock a tool is handed when it runs.

package clock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

// ToolTimeVersion is the version of ToolTime's JSON form.
const ToolTimeVersion = 1

// ToolTime is what a tool is told about time: the person's zone (or, when ZoneUnknown, only
// the zone times are spelled in), the turn's now, and the moment this call was dispatched.
// A tool evaluates its own look-backs against DispatchedAt, which after a pause is later than
// Now. Its JSON form is {version, zone, zoneUnknown?, now, dispatchedAt}.
type ToolTime struct {
	Zone         string
	ZoneUnknown  bool
	Now          time.Time
	DispatchedAt time.Time
}

// ForTool returns the time handed to a tool dispatched at dispatchedAt (cut to the
// millisecond, in UTC, like now).
func (c Clock) ForTool(dispatchedAt time.Time) ToolTime {
	return ToolTime{
		Zone:         c.zone.String(),
		ZoneUnknown:  c.ZoneUnknown(),
		Now:          c.now,
		DispatchedAt: dispatchedAt.UTC().Truncate(time.Millisecond),
	}
}

// toolTimeJSON is the wire form of ToolTime, keys in wire order.
type toolTimeJSON struct {
	Version      int    `json:"version"`
	Zone         string `json:"zone"`
	ZoneUnknown  bool   `json:"zoneUnknown,omitempty"`
	Now          string `json:"now"`
	DispatchedAt string `json:"dispatchedAt"`
}

// MarshalJSON writes {version: 1, zone, zoneUnknown?: true, now, dispatchedAt}, instants in
// UTC. zoneUnknown appears only when true. A zero Now or DispatchedAt is refused.
func (t ToolTime) MarshalJSON() ([]byte, error) {
	if t.Now.IsZero() || t.DispatchedAt.IsZero() {
		return nil, fmt.Errorf("clock: tool time needs both now and dispatchedAt")
	}
	return json.Marshal(toolTimeJSON{
		Version:      ToolTimeVersion,
		Zone:         t.Zone,
		ZoneUnknown:  t.ZoneUnknown,
		Now:          UTCString(t.Now),
		DispatchedAt: UTCString(t.DispatchedAt),
	})
}

// UnmarshalJSON reads the JSON form, for a tool written in Go. It refuses unknown keys, a
// version other than 1, instants that are not Strict, a zone ParseZone refuses, and an
// explicit "zoneUnknown": false (the key is written only as true).
func (t *ToolTime) UnmarshalJSON(b []byte) error {
	var w struct {
		toolTimeJSON
		ZoneUnknown *bool `json:"zoneUnknown"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return fmt.Errorf("clock: tool time: %w", err)
	}
	if w.Version != ToolTimeVersion {
		return fmt.Errorf("clock: tool time version %d is not %d", w.Version, ToolTimeVersion)
	}
	if w.ZoneUnknown != nil && !*w.ZoneUnknown {
		return fmt.Errorf("clock: tool time zoneUnknown is written only as true")
	}
	if w.ZoneUnknown != nil && w.Zone != "UTC" {
		return fmt.Errorf("clock: tool time zone %q with zoneUnknown: an unknown zone is spelled UTC", textlen.ClipInput(w.Zone))
	}
	if _, err := tz.Parse(w.Zone); err != nil {
		return fmt.Errorf("clock: tool time zone: %w", err)
	}
	now, err := ParseInstant(w.Now, Strict)
	if err != nil {
		return fmt.Errorf("clock: tool time now: %w", err)
	}
	at, err := ParseInstant(w.DispatchedAt, Strict)
	if err != nil {
		return fmt.Errorf("clock: tool time dispatchedAt: %w", err)
	}
	*t = ToolTime{Zone: w.Zone, ZoneUnknown: w.ZoneUnknown != nil, Now: now.Time.UTC(), DispatchedAt: at.Time.UTC()}
	return nil
}
