package clock

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
	"github.com/google/go-cmp/cmp"
)

func TestForTool(t *testing.T) {
	dispatched := time.Date(2026, 10, 9, 16, 10, 0, 456_789_000, time.UTC)
	known, _ := Start(mustZone(t, la), clock.Given{Now: appNow}, nil)
	unknown, _ := Start(tz.Zone{}, clock.Given{Now: appNow}, nil)
	tests := []struct {
		name string
		c    Clock
		want string
	}{
		{"known zone", known, `{"version":1,"zone":"America/Los_Angeles","now":"2026-10-09T15:40:00.123Z","dispatchedAt":"2026-10-09T16:10:00.456Z"}`},
		{"unknown zone", unknown, `{"version":1,"zone":"UTC","zoneUnknown":true,"now":"2026-10-09T15:40:00.123Z","dispatchedAt":"2026-10-09T16:10:00.456Z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt0 := tt.c.ForTool(dispatched.In(time.FixedZone("x", 3600)))
			b, err := json.Marshal(tt0)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("JSON %s\nwant %s", b, tt.want)
			}
			var back ToolTime
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt0, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestToolTimeRefuses(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"version", `{"version":2,"zone":"UTC","now":"2026-10-09T15:40:00Z","dispatchedAt":"2026-10-09T15:40:00Z"}`, "version 2"},
		{"false flag", `{"version":1,"zone":"UTC","zoneUnknown":false,"now":"2026-10-09T15:40:00Z","dispatchedAt":"2026-10-09T15:40:00Z"}`, "only as true"},
		{"unknown zone not UTC", `{"version":1,"zone":"Europe/Paris","zoneUnknown":true,"now":"2026-10-09T15:40:00Z","dispatchedAt":"2026-10-09T15:40:00Z"}`, "spelled UTC"},
		{"zone", `{"version":1,"zone":"PST","now":"2026-10-09T15:40:00Z","dispatchedAt":"2026-10-09T15:40:00Z"}`, "tool time zone"},
		{"now", `{"version":1,"zone":"UTC","now":"2026-10-09T15:40:00","dispatchedAt":"2026-10-09T15:40:00Z"}`, "tool time now"},
		{"dispatchedAt", `{"version":1,"zone":"UTC","now":"2026-10-09T15:40:00Z","dispatchedAt":""}`, "tool time dispatchedAt"},
		{"unknown key", `{"version":1,"zone":"UTC","now":"2026-10-09T15:40:00Z","dispatchedAt":"2026-10-09T15:40:00Z","tz":"x"}`, `unknown field "tz"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v ToolTime
			err := json.Unmarshal([]byte(tt.in), &v)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := json.Marshal(ToolTime{Zone: "UTC"}); err == nil {
		t.Errorf("a tool time without instants marshaled")
	}
}

func TestDriftAtDispatch(t *testing.T) {
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	tests := []struct {
		name string
		d    Dispatch
		want *Drift
	}{
		{"no drift", Dispatch{Now: now, DispatchedAt: now}, nil},
		{"20 s within the default step", Dispatch{Now: now, DispatchedAt: now.Add(20 * time.Second), LibraryFill: true, AcceptsISORange: true}, nil},
		{"exactly one step", Dispatch{Now: now, DispatchedAt: now.Add(time.Minute)}, nil},
		{"clock behind now", Dispatch{Now: now, DispatchedAt: now.Add(-time.Hour)}, nil},
		{"20 s beyond a 1 s granularity, model", Dispatch{Now: now, DispatchedAt: now.Add(20 * time.Second), Step: time.Second},
			&Drift{ByMs: 20000, Outcome: Shifted}},
		{"30 min pause, model's look-back", Dispatch{Now: now, DispatchedAt: now.Add(30 * time.Minute), AcceptsISORange: true},
			&Drift{ByMs: 1_800_000, Outcome: Shifted}},
		{"30 min pause, library fill, iso-range accepted", Dispatch{Now: now, DispatchedAt: now.Add(30 * time.Minute), LibraryFill: true, AcceptsISORange: true},
			&Drift{ByMs: 1_800_000, Outcome: Redrawn, Form: FormISORange}},
		{"30 min pause, library fill, look-back only", Dispatch{Now: now, DispatchedAt: now.Add(30 * time.Minute), LibraryFill: true},
			&Drift{ByMs: 1_800_000, Outcome: Shifted}},
		{"a step plus a millisecond", Dispatch{Now: now, DispatchedAt: now.Add(time.Minute + time.Millisecond)},
			&Drift{ByMs: 60_001, Outcome: Shifted}},
		{"an hour granularity absorbs a pause", Dispatch{Now: now, DispatchedAt: now.Add(30 * time.Minute), Step: time.Hour}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := DriftAtDispatch(tt.d)
			if ok != (tt.want != nil) {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tt.want != nil, got)
			}
			if tt.want != nil {
				if diff := cmp.Diff(*tt.want, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}
		})
	}
	b, _ := json.Marshal(Drift{ByMs: 1_800_000, Outcome: Shifted})
	if string(b) != `{"byMs":1800000,"outcome":"shifted"}` {
		t.Errorf("JSON %s", b)
	}
}
