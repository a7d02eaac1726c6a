package clock

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden (run with -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

// wallCounter is an injected wall clock that counts its reads.
type wallCounter struct {
	t     time.Time
	reads int
}

func (w *wallCounter) now() time.Time { w.reads++; return w.t }

var (
	appNow  = time.Date(2026, 10, 9, 8, 40, 0, 123_456_789, time.FixedZone("PDT", -7*3600))
	wallNow = time.Date(2026, 10, 9, 15, 41, 2, 999_999_999, time.UTC)
)

func TestStart(t *testing.T) {
	laZone := mustZone(t, la)
	window := &clock.Range{From: time.Date(2026, 10, 8, 7, 0, 0, 0, time.UTC), To: time.Date(2026, 10, 9, 7, 0, 0, 0, time.UTC)}
	tests := []struct {
		name       string
		builder    tz.Zone
		given      clock.Given
		now        string
		nowSource  NowSource
		zone       string
		zoneSource ZoneSource
		wallReads  int
	}{
		{"app now and run zone", laZone, clock.Given{Now: appNow, Zone: "Asia/Kolkata"},
			"2026-10-09T15:40:00.123Z", NowFromApp, "Asia/Kolkata", ZoneFromRun, 0},
		{"builder zone, default now", laZone, clock.Given{},
			"2026-10-09T15:41:02.999Z", NowDefault, la, ZoneFromBuilder, 1},
		{"no zone anywhere", tz.Zone{}, clock.Given{Now: appNow},
			"2026-10-09T15:40:00.123Z", NowFromApp, "UTC", ZoneUnknown, 0},
		{"run zone without a builder zone", tz.Zone{}, clock.Given{Zone: "UTC"},
			"2026-10-09T15:41:02.999Z", NowDefault, "UTC", ZoneFromRun, 1},
		{"window kept", laZone, clock.Given{Now: appNow, Window: window},
			"2026-10-09T15:40:00.123Z", NowFromApp, la, ZoneFromBuilder, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &wallCounter{t: wallNow}
			c, err := Start(tt.builder, tt.given, w.now)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{UTCString(c.Now()), string(c.NowSource()), c.Zone().String(), string(c.ZoneSource())}
			want := []string{tt.now, string(tt.nowSource), tt.zone, string(tt.zoneSource)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("clock (-want +got):\n%s", diff)
			}
			if w.reads != tt.wallReads {
				t.Errorf("wall clock read %d times, want %d", w.reads, tt.wallReads)
			}
			if c.Now().Location() != time.UTC {
				t.Errorf("now is kept in %v, want UTC", c.Now().Location())
			}
			if c.ZoneUnknown() != (tt.zoneSource == ZoneUnknown) {
				t.Errorf("ZoneUnknown() = %v", c.ZoneUnknown())
			}
			if r, ok := c.Window(); ok != (tt.given.Window != nil) || (ok && !r.From.Equal(window.From)) {
				t.Errorf("Window() = %v, %v", r, ok)
			}
		})
	}
}

func TestStartRefuses(t *testing.T) {
	from := time.Date(2026, 10, 9, 7, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		given clock.Given
		want  string
	}{
		{"abbreviation", clock.Given{Zone: "PST"}, `time.zone: clock: zone "PST"`},
		{"Local", clock.Given{Zone: "Local"}, `"Local"`},
		{"reversed window", clock.Given{Window: &clock.Range{From: from, To: from.Add(-time.Hour)}}, "time.window"},
		{"half a window", clock.Given{Window: &clock.Range{From: from}}, "range.to is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &wallCounter{t: wallNow}
			_, err := Start(tz.Zone{}, tt.given, w.now)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if w.reads != 0 {
				t.Errorf("a refused clock read the wall clock %d times", w.reads)
			}
		})
	}
	for _, tt := range tests {
		if err := tt.given.Check(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Check() = %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
	if err := (clock.Given{Zone: la, Now: wallNow}).Check(); err != nil {
		t.Errorf("a valid clock.Given was refused: %v", err)
	}
	_, err := Start(tz.Zone{}, clock.Given{Zone: "EST"}, nil)
	var ze *tz.Error
	if !errors.As(err, &ze) || ze.Kind != tz.ZoneAbbreviation {
		t.Errorf("the zone refusal is not reachable with errors.As: %v", err)
	}
}

// TestClockJSON pins the JSON form and checks that a stored clock resumes unchanged.
func TestClockJSON(t *testing.T) {
	window := &clock.Range{From: time.Date(2026, 10, 8, 7, 0, 0, 0, time.UTC), To: time.Date(2026, 10, 9, 7, 0, 0, 0, time.UTC)}
	cases := []struct {
		name    string
		builder tz.Zone
		given   clock.Given
	}{
		{"app", mustZone(t, la), clock.Given{Now: appNow, Window: window}},
		{"default", mustZone(t, la), clock.Given{}},
		{"unknown", tz.Zone{}, clock.Given{Now: appNow}},
	}
	var all []byte
	for _, tc := range cases {
		c, err := Start(tc.builder, tc.given, func() time.Time { return wallNow })
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, b...), '\n')
		var back Clock
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(c, back, cmp.AllowUnexported(Clock{}, tz.Zone{}), cmp.Comparer(func(a, b *time.Location) bool {
			return a.String() == b.String()
		})); diff != "" {
			t.Errorf("%s: round trip changed the clock (-want +got):\n%s", tc.name, diff)
		}
		again, _ := json.Marshal(back)
		if string(again) != string(b) {
			t.Errorf("%s: re-marshal %s, want %s", tc.name, again, b)
		}
	}
	golden(t, "clock.json", all)
}

func TestClockJSONRefuses(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"unknown key", `{"now":"2026-10-09T15:40:00Z","nowSource":"app","zone":"UTC","zoneSource":"run","turn":1}`, `unknown field "turn"`},
		{"lenient now", `{"now":"2026-10-09t15:40:00Z","nowSource":"app","zone":"UTC","zoneSource":"run"}`, "clock: now"},
		{"sub-ms now", `{"now":"2026-10-09T15:40:00.0001Z","nowSource":"app","zone":"UTC","zoneSource":"run"}`, "finer than a millisecond"},
		{"bad now source", `{"now":"2026-10-09T15:40:00Z","nowSource":"wall","zone":"UTC","zoneSource":"run"}`, "nowSource"},
		{"bad zone source", `{"now":"2026-10-09T15:40:00Z","nowSource":"app","zone":"UTC","zoneSource":"guess"}`, "zoneSource"},
		{"bad zone", `{"now":"2026-10-09T15:40:00Z","nowSource":"app","zone":"EST","zoneSource":"builder"}`, `zone "EST"`},
		{"unknown zone not UTC", `{"now":"2026-10-09T15:40:00Z","nowSource":"app","zone":"Europe/Paris","zoneSource":"unknown"}`, "spelled UTC"},
		{"window source", `{"now":"2026-10-09T15:40:00Z","nowSource":"app","zone":"UTC","zoneSource":"run","window":{"from":"2026-10-09T15:00:00Z","to":"2026-10-09T15:40:00Z","source":"model"}}`, "window.source"},
		{"window reversed", `{"now":"2026-10-09T15:40:00Z","nowSource":"app","zone":"UTC","zoneSource":"run","window":{"from":"2026-10-09T16:00:00Z","to":"2026-10-09T15:40:00Z","source":"control"}}`, "window"},
		{"not an object", `"now"`, "clock:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Clock
			err := json.Unmarshal([]byte(tt.in), &c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if !c.IsZero() {
				t.Errorf("a refused clock was partly written")
			}
		})
	}
	if _, err := json.Marshal(Clock{}); err == nil {
		t.Errorf("the zero Clock marshaled")
	}
}

func TestResumed(t *testing.T) {
	c, err := Start(mustZone(t, la), clock.Given{Now: appNow}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kept := Reading{Now: c.Now(), Zone: la}
	later := appNow.Add(30 * time.Minute)
	tests := []struct {
		name  string
		given clock.Given
		want  *OnResume
	}{
		{"nothing passed", clock.Given{}, nil},
		{"the same time passed", clock.Given{Now: appNow.Add(100 * time.Microsecond), Zone: la}, nil},
		{"a later now", clock.Given{Now: later}, &OnResume{Passed: Reading{Now: later.UTC().Truncate(time.Millisecond)}, Kept: kept}},
		{"another zone", clock.Given{Zone: "Europe/Berlin"}, &OnResume{Passed: Reading{Zone: "Europe/Berlin"}, Kept: kept}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := c.Resumed(tt.given)
			if ok != (tt.want != nil) {
				t.Fatalf("Resumed reported %v, want %v", ok, tt.want != nil)
			}
			if tt.want != nil {
				if diff := cmp.Diff(*tt.want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}
		})
	}
	got, _ := c.Resumed(clock.Given{Zone: "Europe/Berlin"})
	b, _ := json.Marshal(got)
	want := `{"passed":{"zone":"Europe/Berlin"},"kept":{"now":"2026-10-09T15:40:00.123Z","zone":"America/Los_Angeles"}}`
	if string(b) != want {
		t.Errorf("JSON %s\nwant %s", b, want)
	}
}

// TestClockIsFrozen shows a clock is a value: every later read sees the same time, whatever
// the wall clock does.
func TestClockIsFrozen(t *testing.T) {
	w := &wallCounter{t: wallNow}
	c, _ := Start(mustZone(t, la), clock.Given{}, w.now)
	w.t = wallNow.Add(2 * time.Hour)
	for range 3 {
		if !c.Now().Equal(wallNow.Truncate(time.Millisecond)) {
			t.Fatalf("now moved to %v", c.Now())
		}
	}
	if w.reads != 1 {
		t.Errorf("the wall clock was read %d times, want 1", w.reads)
	}
}
