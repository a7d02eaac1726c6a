package benchpair

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The blocks alternate which side goes first and add up to n runs a side.
func TestRunOrder(t *testing.T) {
	var got []string
	side := func(name string) func(int) {
		return func(k int) { got = append(got, name+string(rune('0'+k))) }
	}
	Run(7, 3, side("a"), side("b"))
	want := []string{"a3", "b3", "b3", "a3", "a1", "b1"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("blocks (-want +got):\n%s", d)
	}
	got = nil
	Run(2, 0, side("a"), side("b"))
	if d := cmp.Diff([]string{"a1", "b1", "b1", "a1"}, got); d != "" {
		t.Errorf("a block of 0 runs one at a time (-want +got):\n%s", d)
	}
}
