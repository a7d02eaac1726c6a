package clock_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
)

func TestRangeJSON(t *testing.T) {
	r := clock.Range{
		From: time.Date(2026, 10, 9, 8, 0, 0, 0, time.FixedZone("PDT", -7*3600)),
		To:   time.Date(2026, 10, 9, 15, 40, 0, 1e6, time.UTC),
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"from":"2026-10-09T15:00:00Z","to":"2026-10-09T15:40:00.001Z"}`
	if string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	var back clock.Range
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !back.From.Equal(r.From) || !back.To.Equal(r.To) || back.Duration() != 40*time.Minute+time.Millisecond {
		t.Errorf("round trip gave %+v", back)
	}
	if _, err := json.Marshal(clock.Range{}); err == nil {
		t.Errorf("the zero Range marshaled")
	}
	refused := []struct{ in, want string }{
		{`{"from":"2026-10-09T15:00:00","to":"2026-10-09T15:40:00Z"}`, "range.from"},
		{`{"from":"2026-10-09T15:00:00Z","to":"2026-10-09t15:40:00Z"}`, "range.to"},
		{`{"from":"2026-10-09T16:00:00Z","to":"2026-10-09T15:40:00Z"}`, "after range.to"},
		{`[1,2]`, "clock: range"},
		{`{"from":"2026-10-09","to":"2026-10-09T15:40:00Z"}`, `clock: range.from: clock: instant "2026-10-09" refused (strict): `},
	}
	for _, tt := range refused {
		var r clock.Range
		if err := json.Unmarshal([]byte(tt.in), &r); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.in, err, tt.want)
		}
	}
}
