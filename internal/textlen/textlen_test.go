// Tests of the UTF-16 length.

package textlen

import "testing"

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
