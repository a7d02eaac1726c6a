// This file tests the canonical writer against RFC 8785's examples, its number table, a
// project fixture set with goldens, and (when node is installed) an independent ECMAScript
// implementation on the fixtures and on random values.

package jcs

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files (from the ECMAScript reference when node is installed)")

func TestRFC8785Examples(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{
			"3.2.2 example",
			`{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`,
			`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
		},
		{
			"3.2.3 sorting",
			`{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`,
			"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}",
		},
	}
	for _, tc := range cases {
		got, err := Canonicalize([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if string(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestRFC8785Numbers is the IEEE-754 table of RFC 8785 Appendix B.
func TestRFC8785Numbers(t *testing.T) {
	cases := []struct {
		bits uint64
		want string // "" = refused
	}{
		{0x0000000000000000, "0"},
		{0x8000000000000000, "0"},
		{0x0000000000000001, "5e-324"},
		{0x8000000000000001, "-5e-324"},
		{0x7fefffffffffffff, "1.7976931348623157e+308"},
		{0xffefffffffffffff, "-1.7976931348623157e+308"},
		{0x4340000000000000, "9007199254740992"},
		{0xc340000000000000, "-9007199254740992"},
		{0x4430000000000000, "295147905179352830000"},
		{0x7fffffffffffffff, ""},
		{0x7ff0000000000000, ""},
		{0xfff0000000000000, ""},
		{0x44b52d02c7e14af5, "9.999999999999997e+22"},
		{0x44b52d02c7e14af6, "1e+23"},
		{0x44b52d02c7e14af7, "1.0000000000000001e+23"},
		{0x444b1ae4d6e2ef4e, "999999999999999700000"},
		{0x444b1ae4d6e2ef4f, "999999999999999900000"},
		{0x444b1ae4d6e2ef50, "1e+21"},
		{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
		{0x3eb0c6f7a0b5ed8d, "0.000001"},
		{0x41b3de4355555553, "333333333.3333332"},
		{0x41b3de4355555554, "333333333.33333325"},
		{0x41b3de4355555555, "333333333.3333333"},
		{0x41b3de4355555556, "333333333.3333334"},
		{0x41b3de4355555557, "333333333.33333343"},
		{0xbecbf647612f3696, "-0.0000033333333333333333"},
		{0x43143ff3c1cb0959, "1424953923781206.2"},
	}
	for _, tc := range cases {
		f := math.Float64frombits(tc.bits)
		got, err := AppendNumber(nil, f)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%016x: got %s, want an error", tc.bits, got)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%016x: got %s, %v; want %s", tc.bits, got, err, tc.want)
		}
	}
}

func TestCompareUTF16(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"a", "b", -1},
		{"a", "a", 0},
		{"a", "ab", -1},
		{"ab", "a", 1},
		{"", "a", -1},
		{"\U0001F600", "\uFB33", -1}, // surrogates sort before U+E000..U+FFFF
		{"\uFFFF", "\U00010000", 1},
		{"\uE000", "\U0010FFFF", 1},
		{"\U00010000", "\U00010001", -1},
		{"\U0001F600", "\U0001F601", -1},
		{"\uD7FF", "\U00010000", -1},
		{"x\U0001F600", "x\uFFFD", -1},
	}
	for _, tc := range cases {
		if got := CompareUTF16(tc.a, tc.b); got != tc.want {
			t.Errorf("CompareUTF16(%+q, %+q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestAppendGoValues(t *testing.T) {
	tenth, fifth := 0.1, 0.2 // variables: constant arithmetic would be exact
	v := map[string]any{
		"int":     int64(1) << 53,
		"neg":     -7,
		"float":   tenth + fifth,
		"strs":    []string{"<&>", "\u2028"},
		"labels":  map[string]string{"b": "2", "a": "1"},
		"number":  json.Number("1E3"),
		"nothing": nil,
	}
	got, err := Append(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"float\":0.30000000000000004,\"int\":9007199254740992,\"labels\":{\"a\":\"1\",\"b\":\"2\"},\"neg\":-7,\"nothing\":null,\"number\":1000,\"strs\":[\"<&>\",\"\u2028\"]}"
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAppendRefuses(t *testing.T) {
	cases := []struct {
		v       any
		pointer string
	}{
		{map[string]any{"a": []any{1, math.NaN()}}, "/a/1"},
		{map[string]any{"x/y": math.Inf(-1)}, "/x~1y"},
		{map[string]any{"big": int64(1)<<53 + 1}, "/big"},
		{[]any{"ok", "bad \xff"}, "/1"},
		{map[string]any{"bad \xff": 1}, ""},
		{[]any{json.Number("1e999")}, "/0"},
		{[]any{json.Number("twelve")}, "/0"},
		{map[string]any{"t": struct{}{}}, "/t"},
		{[]string{"\xc3"}, "/0"},
	}
	for _, tc := range cases {
		_, err := Append(nil, tc.v)
		var e *Error
		if !errors.As(err, &e) || e.Pointer != tc.pointer {
			t.Errorf("Append(%v) = %v, want an *Error at %q", tc.v, err, tc.pointer)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	cases := []string{
		``, ` `, `{`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{"a":1 "b":2}`, `[1 2]`,
		`{"a":1,"a":2}`, `{"a":{"b":1,"b":1}}`,
		`"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\ud800x"`, "\"\xff\"", "\"a\xc3\"", "\"\x01\"",
		`01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x10`, `NaN`, `Infinity`, `tru`, `nul`,
		`"\x"`, `"\u12"`, `"\u12G4"`, `"abc`, `1 2`, `{} {}`, `[` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth+1),
	}
	for _, in := range cases {
		if v, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, v)
		} else if _, ok := err.(*SyntaxError); !ok {
			t.Errorf("Parse(%q) error is %T, want *SyntaxError", in, err)
		}
	}
}

func TestParseAccepts(t *testing.T) {
	cases := []struct {
		in   string
		want any
	}{
		{` {"a" : [ 1 , -0.5e-3 , "x\/y\u00e9\ud83d\ude00" ] } `, map[string]any{"a": []any{json.Number("1"), json.Number("-0.5e-3"), "x/yé😀"}}},
		{`[true,false,null,{},[]]`, []any{true, false, nil, map[string]any{}, []any{}}},
		{`"\b\f\n\r\t\"\\"`, "\b\f\n\r\t\"\\"},
		{`0`, json.Number("0")},
	}
	for _, tc := range cases {
		got, err := Parse([]byte(tc.in))
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.in, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func fixtureLines(t *testing.T) []string {
	data, err := os.ReadFile(filepath.Join("testdata", "fixtures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// runReference canonicalizes texts with testdata/reference.js, or skips without node.
func runReference(t *testing.T, texts []string) []string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the ECMAScript cross-check is skipped (the goldens still hold)")
	}
	in, _ := json.Marshal(texts)
	cmd := exec.Command(node, filepath.Join("testdata", "reference.js"))
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reference.js: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

func TestFixturesGolden(t *testing.T) {
	lines := fixtureLines(t)
	golden := filepath.Join("testdata", "fixtures.golden")
	if *update {
		want := runReference(t, lines)
		if err := os.WriteFile(golden, []byte(strings.Join(want, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update where node is installed)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(want) != len(lines) {
		t.Fatalf("%d goldens for %d fixtures", len(want), len(lines))
	}
	for i, in := range lines {
		got, err := Canonicalize([]byte(in))
		if err != nil {
			t.Errorf("fixture %d: %v", i+1, err)
			continue
		}
		if string(got) != want[i] {
			t.Errorf("fixture %d:\n got %s\nwant %s", i+1, got, want[i])
		}
	}
}

func TestFixturesAgainstReference(t *testing.T) {
	lines := fixtureLines(t)
	want := runReference(t, lines)
	for i, in := range lines {
		got, err := Canonicalize([]byte(in))
		if err != nil || string(got) != want[i] {
			t.Errorf("fixture %d: Go %s (%v), ECMAScript %s", i+1, got, err, want[i])
		}
	}
}

// TestRandomAgainstReference writes random documents (random doubles from their bits,
// strings with surrogate pairs, controls and specials) and compares both canonicalizers.
func TestRandomAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var texts []string
	for range 400 {
		texts = append(texts, string(randomText(r, 0)))
	}
	want := runReference(t, texts)
	for i, in := range texts {
		got, err := Canonicalize([]byte(in))
		if err != nil || string(got) != want[i] {
			t.Errorf("input %s:\n Go %s (%v)\n ES %s", in, got, err, want[i])
		}
	}
}

var alphabet = []rune{'a', 'B', '0', ' ', '"', '\\', '/', '\n', 0, 0x1f, 0x7f, '<', '&', 0x2028, 0xe9, 0xFB33, 0xE000, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF, 0xFEFF}

func randomString(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(6) {
		b.WriteRune(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

func randomText(r *rand.Rand, depth int) []byte {
	switch k := r.IntN(10); {
	case depth < 3 && k < 2:
		out := []byte{'{'}
		seen := map[string]bool{}
		for i := range r.IntN(5) {
			key := randomString(r)
			if seen[key] {
				continue
			}
			seen[key] = true
			if i > 0 && len(out) > 1 {
				out = append(out, ',')
			}
			out = appendString(out, key)
			out = append(out, ':')
			out = append(out, randomText(r, depth+1)...)
		}
		return append(out, '}')
	case depth < 3 && k < 4:
		out := []byte{'['}
		for i := range r.IntN(5) {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, randomText(r, depth+1)...)
		}
		return append(out, ']')
	case k < 6:
		return appendString(nil, randomString(r))
	case k < 7:
		return []byte(strconv.FormatInt(r.Int64N(1<<54)-1<<53, 10))
	default:
		for {
			f := math.Float64frombits(r.Uint64())
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				return strconv.AppendFloat(nil, f, 'g', -1, 64)
			}
		}
	}
}

// TestNumbersAgainstReference formats 8 000 doubles — half from random bit patterns (every
// exponent range, subnormals included), half decimals near the 1e-7 and 1e21 switches — and
// compares with ECMAScript's Number::toString.
func TestNumbersAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var doc []byte
	doc = append(doc, '[')
	var values []float64
	for len(values) < 8000 {
		f := math.Float64frombits(r.Uint64())
		if len(values)%2 == 1 { // decimals around the fixed/exponent boundaries (1e-7, 1e21)
			f = float64(r.Int64N(2_000_001)-1_000_000) * math.Pow10(r.IntN(36)-18)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		if len(values) > 0 {
			doc = append(doc, ',')
		}
		doc = strconv.AppendFloat(doc, f, 'g', -1, 64)
		values = append(values, f)
	}
	doc = append(doc, ']')
	want := runReference(t, []string{string(doc)})
	got, err := Canonicalize(doc)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want[0] {
		g := strings.Split(strings.Trim(string(got), "[]"), ",")
		w := strings.Split(strings.Trim(want[0], "[]"), ",")
		for i := range g {
			if i < len(w) && g[i] != w[i] {
				t.Errorf("%v (bits %016x): Go %s, ECMAScript %s", values[i], math.Float64bits(values[i]), g[i], w[i])
			}
		}
	}
}
