package clock_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
)

func TestGivenCheck(t *testing.T) {
	from := time.Date(2026, 10, 9, 7, 0, 0, 0, time.UTC)
	refused := []struct {
		name  string
		given clock.Given
		want  string
	}{
		{"abbreviation", clock.Given{Zone: "PST"}, `clock: time.zone: clock: zone "PST" is an abbreviation`},
		{"offset", clock.Given{Zone: "+05:30"}, `clock: time.zone: clock: zone "+05:30" is a bare offset`},
		{"Local", clock.Given{Zone: "Local"}, `names the server's own zone`},
		{"wrong case", clock.Given{Zone: "america/los_angeles"}, `is not a zone name in the tz database`},
		{"reversed window", clock.Given{Window: &clock.Range{From: from, To: from.Add(-time.Hour)}}, "clock: time.window: clock: range.from 2026-10-09T07:00:00Z is after range.to 2026-10-09T06:00:00Z"},
		{"half a window", clock.Given{Window: &clock.Range{From: from}}, "clock: time.window: clock: range.to is missing"},
	}
	for _, tt := range refused {
		err := tt.given.Check()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Check() = %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
	accepted := []clock.Given{
		{},
		{Zone: "UTC"},
		{Zone: "America/Los_Angeles", Now: from},
		{Zone: "Asia/Kathmandu", Window: &clock.Range{From: from, To: from.Add(24 * time.Hour)}},
		{Window: &clock.Range{From: from, To: from}}, // an empty window is allowed
	}
	for _, g := range accepted {
		if err := g.Check(); err != nil {
			t.Errorf("%+v was refused: %v", g, err)
		}
	}
}

func TestRangeShiftedAndUTC(t *testing.T) {
	la := time.FixedZone("PDT", -7*3600)
	r := clock.Range{From: time.Date(2026, 10, 9, 8, 0, 0, 0, la), To: time.Date(2026, 10, 9, 9, 0, 0, 0, la)}
	s := r.Shifted(-30 * time.Minute)
	if got, want := s.From.UTC(), time.Date(2026, 10, 9, 14, 30, 0, 0, time.UTC); !got.Equal(want) || s.Duration() != time.Hour {
		t.Errorf("Shifted(-30m) = %+v, want from %s lasting 1h", s, want)
	}
	u := r.UTC()
	if u.From.Location() != time.UTC || u.To.Location() != time.UTC || !u.From.Equal(r.From) {
		t.Errorf("UTC() = %+v", u)
	}
	if err := (clock.Range{To: r.To}).Check(); err == nil || !strings.Contains(err.Error(), "range.from is missing") {
		t.Errorf("a range without From passed Check: %v", err)
	}
}

// ExampleGiven shows the time an app hands one turn: the message time, the person's zone and
// the window the person picked in the app. Check is what the agent runs before the turn.
func ExampleGiven() {
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	g := clock.Given{
		Now:    now,
		Zone:   "America/Los_Angeles",
		Window: &clock.Range{From: now.Add(-24 * time.Hour), To: now},
	}
	fmt.Println(g.Check())
	fmt.Println(clock.Given{Zone: "PST"}.Check())
	w, _ := json.Marshal(g.Window)
	fmt.Println(string(w))
	// Output:
	// <nil>
	// clock: time.zone: clock: zone "PST" is an abbreviation, which names no place and no daylight-saving rule; use UTC or an IANA Area/Location such as America/New_York
	// {"from":"2026-10-08T15:40:00Z","to":"2026-10-09T15:40:00Z"}
}
