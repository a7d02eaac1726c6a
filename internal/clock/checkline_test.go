package clock

import (
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
)

// rng builds a range from two strict instants.
func rng(t *testing.T, from, to string) clock.Range {
	t.Helper()
	return clock.Range{From: at(t, from), To: at(t, to)}
}

func TestCheckLine(t *testing.T) {
	p := Bind(mustZone(t, la))
	// The seed's wider read.
	wider := CheckedPeriod{
		Tool: "search_logs", Against: AgainstAsked,
		Compared: rng(t, "2026-10-08T07:00:00Z", "2026-10-09T07:00:00Z"),
		Reads:    []clock.Range{rng(t, "2026-10-08T07:00:00Z", "2026-10-09T15:40:00.001Z")},
		Extra:    []clock.Range{rng(t, "2026-10-09T07:00:00Z", "2026-10-09T15:40:00.001Z")},
	}
	// Worked example: 30 days asked, the last 7 declared.
	narrower := CheckedPeriod{
		Tool: "client_activity", Against: AgainstAsked,
		Compared: rng(t, "2026-09-09T15:40:00Z", "2026-10-09T15:40:00Z"),
		Reads:    []clock.Range{rng(t, "2026-10-02T15:40:00Z", "2026-10-09T15:40:00.001Z")},
		Missing:  []clock.Range{rng(t, "2026-09-09T15:40:00Z", "2026-10-02T15:40:00Z")},
	}
	// Worked example: 60m sent at 15:40Z, dispatched at 16:10Z.
	shifted := CheckedPeriod{
		Tool: "search_logs", Against: AgainstAsked, Shifted: true,
		Compared: rng(t, "2026-10-09T14:40:00Z", "2026-10-09T15:40:00Z"),
		Reads:    []clock.Range{rng(t, "2026-10-09T15:10:00Z", "2026-10-09T16:10:00Z")},
		Missing:  []clock.Range{rng(t, "2026-10-09T14:40:00Z", "2026-10-09T15:10:00Z")},
		Extra:    []clock.Range{rng(t, "2026-10-09T15:40:00Z", "2026-10-09T16:10:00Z")},
	}
	person := narrower
	person.Against = AgainstPerson
	moved := shifted
	moved.Shifted = false
	beyond := CheckedPeriod{Tool: "audit_log", BeyondRetention: true}
	both := shifted
	both.BeyondRetention = true
	onlyShifted := CheckedPeriod{Tool: "search_logs", Shifted: true}

	tests := []struct {
		name string
		c    CheckedPeriod
		a    Audience
		want string // "" = no line
	}{
		{"seed: more than was asked", wider, ForPerson,
			"search_logs read more than was asked — asked: 2026-10-08 00:00:00–2026-10-09 00:00:00 America/Los_Angeles (UTC-07:00); read: 2026-10-08 00:00:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00)"},
		{"seed line is the same for the model", wider, ForModel,
			"search_logs read more than was asked — asked: 2026-10-08 00:00:00–2026-10-09 00:00:00 America/Los_Angeles (UTC-07:00); read: 2026-10-08 00:00:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00)"},
		{"less than was asked", narrower, ForPerson,
			"client_activity read less than was asked — asked: 2026-09-09 08:40:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00); read: 2026-10-02 08:40:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00)"},
		{"your window", person, ForPerson,
			"client_activity read less than your window — your window: 2026-09-09 08:40:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00); read: 2026-10-02 08:40:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00)"},
		{"the person's window", person, ForModel,
			"client_activity read less than the person's window — the person's window: 2026-09-09 08:40:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00); read: 2026-10-02 08:40:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00)"},
		{"shifted, person", shifted, ForPerson,
			"search_logs read a later window — asked: 2026-10-09 07:40:00–08:40:00 America/Los_Angeles (UTC-07:00); read: 2026-10-09 08:10:00–09:10:00 America/Los_Angeles (UTC-07:00)"},
		{"shifted, model", shifted, ForModel,
			"search_logs's look-back was evaluated after this turn's time, so its result leaves out 2026-10-09 07:40:00–08:10:00 America/Los_Angeles (UTC-07:00) of the person's window (2026-10-09 07:40:00–08:40:00 America/Los_Angeles (UTC-07:00)) and includes 2026-10-09 08:40:00–09:10:00 America/Los_Angeles (UTC-07:00), which lies outside it. In the answer, say that search_logs's result leaves 2026-10-09 07:40:00–08:10:00 America/Los_Angeles (UTC-07:00) uncovered, and make no claim about that time based on it"},
		{"different window, not shifted", moved, ForPerson,
			"search_logs read a different window — asked: 2026-10-09 07:40:00–08:40:00 America/Los_Angeles (UTC-07:00); read: 2026-10-09 08:10:00–09:10:00 America/Los_Angeles (UTC-07:00)"},
		{"shifted without a difference", onlyShifted, ForPerson, "search_logs's look-back ran later than this turn's time"},
		{"beyond retention", beyond, ForPerson, "audit_log: its source, as the tool declares, keeps no data as old as the asked time"},
		{"two parts", both, ForPerson,
			"search_logs read a later window — asked: 2026-10-09 07:40:00–08:40:00 America/Los_Angeles (UTC-07:00); read: 2026-10-09 08:10:00–09:10:00 America/Los_Angeles (UTC-07:00). search_logs: its source, as the tool declares, keeps no data as old as the asked time"},
		{"no check", CheckedPeriod{Tool: "quiet"}, ForPerson, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := CheckLine(tt.c, p, tt.a)
			if err != nil {
				t.Fatal(err)
			}
			if ok != (tt.want != "") {
				t.Fatalf("ok = %v for %q", ok, got)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestShiftedConclusionForms(t *testing.T) {
	p := Bind(tz.UTC())
	window := rng(t, "2026-10-09T14:00:00Z", "2026-10-09T15:00:00Z")
	tests := []struct {
		name    string
		missing []clock.Range
		extra   []clock.Range
		want    []string
	}{
		{"whole window missed", []clock.Range{window}, []clock.Range{rng(t, "2026-10-09T15:00:00Z", "2026-10-09T16:00:00Z")}, []string{
			"covers none of the person's window (2026-10-09 14:00:00–15:00:00 UTC) and includes 2026-10-09 15:00:00–16:00:00 UTC instead.",
			"leaves 2026-10-09 14:00:00–15:00:00 UTC uncovered",
		}},
		{"two missing pieces", []clock.Range{rng(t, "2026-10-09T14:00:00Z", "2026-10-09T14:10:00Z"), rng(t, "2026-10-09T14:50:00Z", "2026-10-09T15:00:00Z")}, nil, []string{
			"leaves out 2026-10-09 14:00:00–14:10:00 UTC and 2026-10-09 14:50:00–15:00:00 UTC of the person's window (2026-10-09 14:00:00–15:00:00 UTC). In the answer",
		}},
		{"extra only", nil, []clock.Range{rng(t, "2026-10-09T15:00:00Z", "2026-10-09T15:30:00Z")}, []string{
			"covers the person's window (2026-10-09 14:00:00–15:00:00 UTC) but also includes 2026-10-09 15:00:00–15:30:00 UTC",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ShiftedConclusion(CheckedPeriod{Tool: "logs", Compared: window, Missing: tt.missing, Extra: tt.extra, Shifted: true}, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q\ndoes not contain %q", got, w)
				}
			}
		})
	}
	bad := CheckedPeriod{Tool: "logs", Compared: window, Missing: []clock.Range{{From: window.To, To: window.From}}, Shifted: true}
	if _, _, err := CheckLine(bad, p, ForModel); err == nil {
		t.Errorf("a reversed piece rendered")
	}
	bad.Compared = clock.Range{}
	if _, _, err := CheckLine(bad, p, ForPerson); err == nil {
		t.Errorf("a zero compared range rendered")
	}
}
