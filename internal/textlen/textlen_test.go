// Tests of the UTF-16 length.

package textlen

import (
	"strings"
	"testing"
)

func TestUTF16(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"é", 1},
		{"😀", 2},
		{"ééééééééé😀", 11},
		{"\xff", 1},
	} {
		if got := UTF16(c.s); got != c.want {
			t.Errorf("UTF16(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}

func TestPrefix(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abc", 2, "ab"},
		{"abc", 0, ""},
		{"a😀b", 2, "a"},
		{"a😀b", 3, "a😀"},
		{"ééé", 2, "éé"},
	} {
		if got := Prefix(c.s, c.n); got != c.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestClip(t *testing.T) {
	if got := ClipInput(strings.Repeat("x", 80)); got != strings.Repeat("x", ClipInputBytes)+"…" {
		t.Errorf("ClipInput of 80 bytes = %q", got)
	}
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 72, "short"},
		{"abcdef", 3, "abc…"},
		{"aé", 2, "a…"}, // é is two bytes: the cut moves back to its start
		{"aé", 3, "aé"},
	} {
		if got := clip(c.s, c.n); got != c.want {
			t.Errorf("clip(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
