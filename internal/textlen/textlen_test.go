// Tests of the UTF-16 length.

package textlen

import (
	"strings"
	"testing"
	"unicode/utf16"
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
		{"sixteen ascii by", 16},
		{"eight by😀eight by\xed\xa0\x80tail", 16 + 2 + 3 + 4},
		{strings.Repeat("a", 17) + "é" + strings.Repeat("b", 9), 27},
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

// unitsByRune is the definition UTF16 must agree with: one rune at a time.
func unitsByRune(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func FuzzUTF16(f *testing.F) {
	for _, s := range []string{"", "abc", "ééé😀", "\xff\xfe", "plain ascii text, long enough", "mixed 😀 text \xed\xa0\x80 and more ascii after it"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := UTF16(s), unitsByRune(s); got != want {
			t.Fatalf("UTF16(%q) = %d, rune by rune %d", s, got, want)
		}
	})
}

// BenchmarkUTF16 counts a 4 KiB tool result of ASCII text and one with a
// non-ASCII character every 64 bytes.
func BenchmarkUTF16(b *testing.B) {
	ascii := strings.Repeat("service checkout: degraded, p99 812 ms; ", 103)[:4096]
	mixed := strings.Repeat(strings.Repeat("x", 62)+"é", 65)[:4096]
	for _, c := range []struct{ name, s string }{{"ascii", ascii}, {"mixed", mixed}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				if UTF16(c.s) == 0 {
					b.Fatal("no units")
				}
			}
		})
		b.Run(c.name+"/rune-by-rune", func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			for b.Loop() {
				if unitsByRune(c.s) == 0 {
					b.Fatal("no units")
				}
			}
		})
	}
}
