// The step-budget warning: over 100 only, once per process.

package agent

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestWarnManyIterationsOnce(t *testing.T) {
	warnedManyIterations.Store(false)
	t.Cleanup(func() { warnedManyIterations.Store(true) })
	var buf bytes.Buffer
	l := slog.New(slog.NewTextHandler(&buf, nil))
	tests := []struct {
		n    int
		want bool
	}{
		{10, false},
		{100, false},
		{101, true},
		{500, false}, // already warned
	}
	for _, tc := range tests {
		if got := warnManyIterations(l, tc.n); got != tc.want {
			t.Errorf("warnManyIterations(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
	out := buf.String()
	if strings.Count(out, "level=WARN") != 1 || !strings.Contains(out, "maxIterations=101") {
		t.Errorf("log = %q, want one warning naming maxIterations=101", out)
	}
}
