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
