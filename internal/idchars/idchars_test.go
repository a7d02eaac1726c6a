package idchars

import (
	"regexp"
	"strings"
	"testing"
)

// patterns are the regular expressions the framework's packages used before this package,
// each with the sets and length that replace it.
type pattern struct {
	name        string
	re          *regexp.Regexp
	first, rest Set
	max         int
}

var patterns = []pattern{
	{"unit and passage ids", regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`), Of(Lower, Digits), Of(Lower, Digits, "._-"), 64},
	{"tool names", regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`), Of(Lower, Upper, Digits, "_-"), Of(Lower, Upper, Digits, "_-"), 64},
	{"lens run ids", regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$`), Of(Lower, Upper, Digits), Of(Lower, Upper, Digits, "._:-"), 200},
}

func TestValid(t *testing.T) {
	ids, tools, runs := &patterns[0], &patterns[1], &patterns[2]
	for _, c := range []struct {
		p    *pattern
		id   string
		want bool
	}{
		{ids, "system-prompt", true},
		{ids, "history/3", false},
		{ids, "0.a_b-c", true},
		{ids, "-leading", false},
		{ids, "", false},
		{ids, "Upper", false},
		{ids, strings.Repeat("a", 64), true},
		{ids, strings.Repeat("a", 65), false},
		{ids, "caf\u00e9", false},
		{ids, "line\n", false},
		{tools, "search_logs", true},
		{tools, "-x", true},
		{tools, "a.b", false},
		{tools, strings.Repeat("Z", 64), true},
		{tools, strings.Repeat("Z", 65), false},
		{runs, "run-8f198726d9941264", true},
		{runs, "a:b.c_d-e", true},
		{runs, ":a", false},
		{runs, "a b", false},
		{runs, strings.Repeat("r", 200), true},
		{runs, strings.Repeat("r", 201), false},
	} {
		if got := Valid(c.id, &c.p.first, &c.p.rest, c.p.max); got != c.want {
			t.Errorf("%s: Valid(%q) = %v, want %v", c.p.name, c.id, got, c.want)
		}
		if got := c.p.re.MatchString(c.id); got != c.want {
			t.Errorf("%s: the old pattern on %q = %v, want %v (the table is wrong)", c.p.name, c.id, got, c.want)
		}
	}
}

// TestSetBytes checks every byte value against a set: in it exactly when listed, and never
// above 127 even when listed.
func TestSetBytes(t *testing.T) {
	s := Of("az", "\x00\x7f", "\xff")
	for b := 0; b < 256; b++ {
		want := b == 'a' || b == 'z' || b == 0 || b == 0x7f
		if got := s.Has(byte(b)); got != want {
			t.Errorf("Has(%#x) = %v, want %v", b, got, want)
		}
	}
}

// FuzzValidMatchesPatterns checks that Valid accepts exactly what each replaced pattern
// matched.
func FuzzValidMatchesPatterns(f *testing.F) {
	for _, s := range []string{"system-prompt", "search_logs", "run-1:2", "", "-", "a\n", "\xffa", strings.Repeat("a", 64), strings.Repeat("b", 65), strings.Repeat("c", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		for i := range patterns {
			p := &patterns[i]
			if got, want := Valid(id, &p.first, &p.rest, p.max), p.re.MatchString(id); got != want {
				t.Errorf("%s: Valid(%q) = %v, the pattern %v", p.name, id, got, want)
			}
		}
	})
}
