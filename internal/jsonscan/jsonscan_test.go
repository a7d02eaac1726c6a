// This file checks each lexical piece against what the standard library says of the same bytes:
// strconv for hex digits, unicode/utf16 for pairs, encoding/json for escapes and numbers.

package jsonscan

import (
	"encoding/json"
	"regexp"
	"strconv"
	"testing"
	"unicode/utf16"
)

func TestSkipSpace(t *testing.T) {
	for _, tc := range []struct {
		in   string
		pos  int
		want int
	}{
		{"", 0, 0}, {" \t\r\n", 0, 4}, {"  x ", 0, 2}, {"x  ", 1, 3}, {"\v1", 0, 0}, {"\u00a01", 0, 0},
	} {
		if got := SkipSpace([]byte(tc.in), tc.pos); got != tc.want {
			t.Errorf("SkipSpace(%q, %d) = %d, want %d", tc.in, tc.pos, got, tc.want)
		}
	}
}

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		in      string
		end     int
		problem string
	}{
		{"0", 1, ""}, {"-0", 2, ""}, {"01", 1, ""}, {"12.50e+3,", 8, ""}, {"1E9]", 3, ""},
		{"123456789012345678901234567890", 30, ""}, {"-", 1, "a number needs a digit here"},
		{"-x", 1, "a number needs a digit here"}, {"+1", 0, "a number needs a digit here"},
		{"1.", 2, "a fraction needs a digit"}, {"1.e5", 2, "a fraction needs a digit"},
		{"1e", 2, "an exponent needs a digit"}, {"1e+", 3, "an exponent needs a digit"},
		{"2.5E-x", 5, "an exponent needs a digit"},
	} {
		end, problem := Number([]byte(tc.in), 0)
		if end != tc.end || problem != tc.problem {
			t.Errorf("Number(%q) = %d, %q; want %d, %q", tc.in, end, problem, tc.end, tc.problem)
		}
	}
	if end, problem := Number([]byte(`[ -7]`), 2); end != 4 || problem != "" {
		t.Errorf("Number at 2 = %d, %q", end, problem)
	}
}

// numberRE is RFC 8259's number production, anchored at the start.
var numberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`)

// FuzzNumber: an accepted number is exactly the longest prefix the grammar matches, and a
// refused one (from a minus or a digit, where the readers call it) never starts a document
// encoding/json accepts.
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"0", "-0.0e-0", "1.", "01", "-", "1e+", "9.99E999 ", "0x10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		end, problem := Number([]byte(s), 0)
		if end < 0 || end > len(s) {
			t.Fatalf("Number(%q) end %d out of range", s, end)
		}
		if problem == "" {
			if m := numberRE.FindString(s); len(m) != end {
				t.Fatalf("Number(%q) ends at %d, the grammar at %d", s, end, len(m))
			}
			if end == len(s) && !json.Valid([]byte(s)) {
				t.Fatalf("Number(%q) accepted what encoding/json refuses", s)
			}
			return
		}
		if s != "" && (s[0] == '-' || isDigit(s[0])) && json.Valid([]byte(s)) {
			t.Fatalf("Number(%q) refused (%s) what encoding/json accepts", s, problem)
		}
	})
}

// Every byte after a backslash: Escape takes exactly the letters encoding/json takes alone (\u
// needs its digits, so it is not one), and gives the same byte.
func TestEscape(t *testing.T) {
	for l := 0; l < 256; l++ {
		c, ok := Escape(byte(l))
		var want string
		err := json.Unmarshal([]byte{'"', '\\', byte(l), '"'}, &want)
		switch {
		case (err == nil) != ok:
			t.Errorf("Escape(%#x) ok=%v, encoding/json err=%v", l, ok, err)
		case ok && string(c) != want:
			t.Errorf("Escape(%#x) = %q, want %q", l, c, want)
		}
	}
}

// FuzzHex4: the four bytes decode as strconv reads them in base 16.
func FuzzHex4(f *testing.F) {
	for _, s := range []string{"0000", "ffFF", "d83d", "12", "+123", "0x12", "1_23", "12345"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := Hex4([]byte(s))
		if len(s) < 4 {
			if ok {
				t.Fatalf("Hex4(%q) accepted fewer than four bytes", s)
			}
			return
		}
		n, err := strconv.ParseUint(s[:4], 16, 32)
		if (err == nil) != ok || (ok && rune(n) != r) {
			t.Fatalf("Hex4(%q) = %U, %v; strconv %d, %v", s, r, ok, n, err)
		}
	})
}

// FuzzSurrogatePair: a pair is joined exactly when unicode/utf16 joins the two units.
func FuzzSurrogatePair(f *testing.F) {
	f.Add(uint16(0xD83D), `\ude00`)
	f.Add(uint16(0xD800), `\u0041`)
	f.Add(uint16(0xDC00), `\ud800`)
	f.Add(uint16(0xDBFF), `\uDFFFx`)
	f.Add(uint16(0xD800), `\udc0`)
	f.Fuzz(func(t *testing.T, hi uint16, rest string) {
		r, ok := SurrogatePair(rune(hi), []byte(rest))
		want := rune(-1)
		if len(rest) >= 6 && rest[:2] == `\u` {
			if lo, err := strconv.ParseUint(rest[2:6], 16, 32); err == nil {
				if d := utf16.DecodeRune(rune(hi), rune(lo)); d != 0xFFFD {
					want = d
				}
			}
		}
		if ok != (want >= 0) || (ok && r != want) {
			t.Fatalf("SurrogatePair(%#x, %q) = %U, %v; unicode/utf16 %U", hi, rest, r, ok, want)
		}
	})
}

// plainByBytes is Plain one byte at a time, the rule it must agree with.
func plainByBytes(data []byte, pos int) int {
	for ; pos < len(data); pos++ {
		if c := data[pos]; c == '"' || c == '\\' || c < 0x20 {
			break
		}
	}
	return pos
}

func TestPlain(t *testing.T) {
	for _, tc := range []struct {
		in   string
		pos  int
		want int
	}{
		{"", 0, 0}, {"abc", 0, 3}, {`ab"c`, 0, 2}, {`ab\c`, 0, 2}, {"ab\x1fc", 0, 2},
		{"0123456789abcdef", 0, 16}, {`0123456"89abcdef`, 0, 7}, {`01234567"9abcdef`, 0, 8},
		{"01234567\t9ab\"", 3, 8}, {`"x"`, 1, 2}, {"\x00\x00", 0, 0},
		// Bytes that sit next to the matched values, and bytes with the top bit set, stay plain.
		{"!#[]\x20\x21\x7f\x80\xff\xe2\x82\xac!!!!\x1f", 0, 16},
		// A byte just past a match would be marked by the borrow; the first one wins.
		{"aaaa\x00\x20aa", 0, 4}, {"aaaaaa\x1f\x20", 0, 6}, {"a\"#\"####", 0, 1},
	} {
		if got := Plain([]byte(tc.in), tc.pos); got != tc.want {
			t.Errorf("Plain(%q, %d) = %d, want %d", tc.in, tc.pos, got, tc.want)
		}
	}
}

// FuzzPlain: Plain finds the byte the one-at-a-time rule finds, from every start.
func FuzzPlain(f *testing.F) {
	for _, s := range []string{"", "plain text that runs past eight bytes", "tab\there", `a\"b`, "\x1f\x20\x21\x22", "\xff\xfe\x80\x7f\x5c\x5b\x5d\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for pos := 0; pos <= len(data) && pos < 17; pos++ {
			if got, want := Plain(data, pos), plainByBytes(data, pos); got != want {
				t.Fatalf("Plain(%q, %d) = %d, want %d", data, pos, got, want)
			}
		}
	})
}
