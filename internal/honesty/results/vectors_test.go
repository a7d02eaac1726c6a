// Tests for the pure steps: the results-layer vectors R1 to R7.

package results

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/internal/coverread"
)

var (
	q     = coverage.Span{From: "2026-09-26T09:00:00Z", To: "2026-09-26T10:00:00Z"}
	stale = coverage.Period{Queried: q, Held: coverage.Held{Span: coverage.Span{From: "2026-08-27T02:00:00Z", To: "2026-09-26T02:00:00Z"}}}
	fresh = coverage.Period{Queried: q, Held: coverage.Held{Span: coverage.Span{From: "2026-09-26T00:00:00Z", To: "2026-09-26T12:00:00Z"}}}
	unk   = coverage.Period{Queried: q, Held: coverage.Held{Unknown: true}}
	part  = coverage.Period{Queried: q, Held: coverage.Held{Span: coverage.Span{From: "2026-09-26T09:30:00Z", To: "2026-09-26T12:00:00Z"}}}
)

// mapReader is a flow.Reader over a plain map.
type mapReader map[string]any

func (m mapReader) Get(k string) (any, bool) { v, ok := m[k]; return v, ok }
func (m mapReader) Has(k string) bool        { _, ok := m[k]; return ok }

func TestBatchToJudge(t *testing.T) { // R1 and the loop-head visit table
	tests := []struct {
		name  string
		state mapReader
		stamp int
		ok    bool
	}{
		{"first iteration, no stamp", mapReader{"iteration": 1}, 0, false},
		{"right after tool-calls", mapReader{"iteration": 2, "toolResultsIteration": 1}, 1, true},
		{"after wrap-up", mapReader{"iteration": 3, "toolResultsIteration": 1}, 0, false},
		{"values of another type", mapReader{"iteration": float64(5), "toolResultsIteration": json.Number("4")}, 0, false},
		{"stamp not a number", mapReader{"iteration": 2, "toolResultsIteration": "1"}, 0, false},
		{"no iteration", mapReader{"toolResultsIteration": 1}, 0, false},
		{"same iteration as stamp", mapReader{"iteration": 1, "toolResultsIteration": 1}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stamp, ok := BatchToJudge(tt.state)
			if stamp != tt.stamp || ok != tt.ok {
				t.Errorf("BatchToJudge = (%d, %v), want (%d, %v)", stamp, ok, tt.stamp, tt.ok)
			}
		})
	}
}

func argWindow(name string) (string, bool) {
	if name == "search_logs" {
		return "window", true
	}
	return "", false
}

func TestPlanPeriods(t *testing.T) { // R2, R3
	p1, p2 := fresh, stale
	tests := []struct {
		name    string
		calls   []RanCall
		periods []CallPeriod
		argOf   ArgumentOf
		want    []PlannedPeriod
	}{
		{
			name:    "R2 declared period and period argument; the rest skipped",
			calls:   []RanCall{{"a", "backup_runs"}, {"b", "search_logs"}, {"c", "lookup"}},
			periods: []CallPeriod{{"a", stale}},
			argOf:   argWindow,
			want: []PlannedPeriod{
				{ToolCallID: "a", ToolName: "backup_runs", Declared: []coverage.Period{stale}},
				{ToolCallID: "b", ToolName: "search_logs", Declared: []coverage.Period{}, Argument: "window"},
			},
		},
		{
			name:    "R3 one id twice in a batch is judged once over all its periods",
			calls:   []RanCall{{"a", "backup_runs"}, {"a", "backup_runs"}},
			periods: []CallPeriod{{"a", p1}, {"a", p2}},
			want:    []PlannedPeriod{{ToolCallID: "a", ToolName: "backup_runs", Declared: []coverage.Period{p1, p2}}},
		},
		{
			name:    "R3 no calls",
			periods: []CallPeriod{{"a", p1}},
			argOf:   argWindow,
			want:    []PlannedPeriod{},
		},
		{
			name:    "period of a call outside the batch is not planned",
			calls:   []RanCall{{"b", "lookup"}},
			periods: []CallPeriod{{"a", p1}},
			want:    []PlannedPeriod{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PlanPeriods(tt.calls, tt.periods, tt.argOf)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PlanPeriods (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckPeriods(t *testing.T) { // R4
	tests := []struct {
		name     string
		declared []coverage.Period
		argument string
		want     boundary.RowVerdict
	}{
		{"stale", []coverage.Period{stale}, "", "not-held"},
		{"fresh", []coverage.Period{fresh}, "", "covered"},
		{"fresh and unknown: least held", []coverage.Period{fresh, unk}, "", "unknown"},
		{"partly", []coverage.Period{part}, "", "partly-held"},
		{"stale beats partly", []coverage.Period{part, stale}, "", "not-held"},
		{"none declared, argument passes", []coverage.Period{}, "window", "undeclared"},
		{"malformed counts as unknown", []coverage.Period{fresh, {Queried: coverage.Span{From: "soon", To: "later"}, Held: coverage.Held{Span: coverage.Span{From: "x", To: "y"}}}}, "", "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckPeriods([]PlannedPeriod{{ToolCallID: "c", ToolName: "t", Declared: tt.declared, Argument: tt.argument}})
			want := []CheckedPeriod{{ToolCallID: "c", ToolName: "t", Verdict: tt.want, Argument: tt.argument}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("CheckPeriods (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPeriodRowsOfJSON(t *testing.T) { // R5
	rows := PeriodRowsOf([]CheckedPeriod{
		{ToolCallID: "a", ToolName: "backup_runs", Verdict: "not-held"},
		{ToolCallID: "b", ToolName: "search_logs", Verdict: "undeclared", Argument: "window"},
	}, Stamp{Turn: 2, Iteration: 3})
	want := []string{
		`{"kind":"period","turn":2,"toolCallId":"a","toolName":"backup_runs","iteration":3,"verdict":"not-held"}`,
		`{"kind":"period","turn":2,"toolCallId":"b","toolName":"search_logs","iteration":3,"verdict":"undeclared","argument":"window"}`,
	}
	if len(rows) != len(want) {
		t.Fatalf("got %d rows, want %d", len(rows), len(want))
	}
	for i, r := range rows {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want[i] {
			t.Errorf("row %d:\n got %s\nwant %s", i, b, want[i])
		}
		if strings.Contains(string(b), "2026-") {
			t.Errorf("row %d copies an instant: %s", i, b)
		}
	}
}

func TestHeldSpanOf(t *testing.T) { // R6
	seed := coverage.Period{
		Queried: coverage.Span{From: "2026-09-30T13:00:00Z", To: "2026-09-30T18:59:50Z"},
		Held:    coverage.Held{Span: coverage.Span{From: "2026-10-01T16:22:44Z", To: "2026-10-01T17:02:44Z"}},
	}
	tests := []struct {
		name     string
		declared []coverage.Period
		verdict  boundary.RowVerdict
		want     HeldSpan
		ok       bool
	}{
		{"seed example, not-held", []coverage.Period{seed}, "not-held",
			HeldSpan{Queried: seed.Queried, Held: coverage.Span{From: "2026-10-01T16:22:44Z", To: "2026-10-01T17:02:44Z"}}, true},
		{"seed example, covered", []coverage.Period{seed}, "covered", HeldSpan{}, false},
		{"fresh then stale, not-held: stale's spans", []coverage.Period{fresh, stale}, "not-held",
			HeldSpan{Queried: q, Held: stale.Held.Span}, true},
		{"partly-held", []coverage.Period{stale, part}, "partly-held", HeldSpan{Queried: q, Held: part.Held.Span}, true},
		{"unknown verdict", []coverage.Period{unk}, "unknown", HeldSpan{}, false},
		{"undeclared", nil, "undeclared", HeldSpan{}, false},
		{"no period with that verdict", []coverage.Period{fresh}, "not-held", HeldSpan{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := HeldSpanOf(tt.declared, tt.verdict)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("HeldSpanOf (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPeriodRowIsWellFormed(t *testing.T) { // R7, on rows decoded from JSON
	tests := []struct {
		name string
		row  string
		want bool
	}{
		{"valid", `{"kind":"period","turn":1,"toolCallId":"a","toolName":"t","iteration":1,"verdict":"covered"}`, true},
		{"verdict stale", `{"kind":"period","turn":1,"toolCallId":"a","toolName":"t","iteration":1,"verdict":"stale"}`, false},
		{"empty argument", `{"kind":"period","turn":1,"toolCallId":"a","toolName":"t","iteration":1,"verdict":"covered","argument":""}`, false},
		{"turn as text", `{"kind":"period","turn":"1","toolCallId":"a","toolName":"t","iteration":1,"verdict":"covered"}`, false},
		{"no toolName", `{"kind":"period","turn":1,"toolCallId":"a","iteration":1,"verdict":"covered"}`, false},
		{"fractional byMs", `{"kind":"period","turn":1,"toolCallId":"a","toolName":"t","iteration":1,"verdict":"covered","shifted":{"byMs":1.5}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal([]byte(tt.row), &m); err != nil {
				t.Fatal(err)
			}
			if got := coverread.PeriodRowIsWellFormed(m); got != tt.want {
				t.Errorf("PeriodRowIsWellFormed = %v, want %v", got, tt.want)
			}
		})
	}
}
