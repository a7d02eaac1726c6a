package clock

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

// FuzzClockJSON checks that the clock's JSON door never panics and that whatever it accepts
// writes back to bytes it accepts again, unchanged.
func FuzzClockJSON(f *testing.F) {
	f.Add(`{"now":"2026-10-09T15:40:00.123Z","nowSource":"app","zone":"America/Los_Angeles","zoneSource":"builder","window":{"from":"2026-10-08T07:00:00Z","to":"2026-10-09T07:00:00Z","source":"control"}}`)
	f.Add(`{"now":"2026-10-09T15:40:00Z","nowSource":"default","zone":"UTC","zoneSource":"unknown"}`)
	f.Add(`{"now":"2026-10-09T08:40:00-07:00","nowSource":"app","zone":"Asia/Kolkata","zoneSource":"run"}`)
	f.Fuzz(func(t *testing.T, in string) {
		var c Clock
		if err := json.Unmarshal([]byte(in), &c); err != nil {
			return
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("%q: accepted clock does not marshal: %v", in, err)
		}
		var back Clock
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: the clock's own bytes are refused: %v", b, err)
		}
		again, _ := json.Marshal(back)
		if string(again) != string(b) {
			t.Fatalf("round trip changed %s into %s", b, again)
		}
	})
}

// FuzzRange renders arbitrary ranges in a few zones at every grain: no panic, and every
// accepted range ends with the zone's name or tag.
func FuzzRange(f *testing.F) {
	f.Add(int64(1791560400), int64(0), int64(86400), uint8(0), uint8(0))
	f.Add(int64(1793523600), int64(5e8), int64(9000), uint8(1), uint8(3))
	f.Add(int64(-2840140800), int64(0), int64(60), uint8(0), uint8(7))
	zones := []tz.Zone{mustZone(f, la), tz.UTC(), mustZone(f, "Asia/Kathmandu"), mustZone(f, "Europe/London"), {}}
	grains := []Grain{Exact, GrainSecond, GrainMinute, GrainHour, GrainDay, GrainWeek, GrainMonth, GrainYear}
	f.Fuzz(func(t *testing.T, sec, nsec, length int64, zi, gi uint8) {
		const limit = 1 << 38 // about 8700 years either side of 1970
		if sec > limit || sec < -limit || length < 0 || length > limit {
			return
		}
		from := time.Unix(sec, nsec%1e9)
		r := clock.Range{From: from, To: from.Add(time.Duration(length%(1<<33)) * time.Millisecond)}
		z := zones[int(zi)%len(zones)]
		g := grains[int(gi)%len(grains)]
		s, err := Bind(z).Range(r, g)
		if err != nil {
			if r.From.Before(r.To) {
				t.Fatalf("Range(%v, %q) refused a non-empty range: %v", r, g, err)
			}
			return
		}
		if !strings.Contains(s, z.String()) {
			t.Fatalf("%q does not name the zone %s", s, z)
		}
	})
}
