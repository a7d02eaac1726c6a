// Internal tests of validation: the order of JSON pointers, and a fuzz of
// the argument check against the input type.

package tool

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestComparePointers(t *testing.T) {
	ordered := []string{"", "/a", "/a/2", "/a/10", "/a/10/x", "/a/b", "/b", "/b~1c"}
	for i := range ordered {
		for j := range ordered {
			got := comparePointers(ordered[i], ordered[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("comparePointers(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

// TestIntegerArguments checks that what Check accepts for a Go integer
// field decodes into it, and that what it cannot decode is an issue at the
// field: the 64-bit types' range (which the declared schema leaves out) and
// integers spelled with a fraction or a zero-padded exponent.
func TestIntegerArguments(t *testing.T) {
	type in struct {
		N int    `json:"n"`
		U uint64 `json:"u,omitempty"`
	}
	tl, err := New("count", "Count.", func(_ context.Context, v in) (string, error) { return fmt.Sprint(v.N, " ", v.U), nil })
	if err != nil {
		t.Fatal(err)
	}
	d := tl.Declaration()
	if strings.Contains(string(d.InputSchema), "9223372036854775808") {
		t.Errorf("the declared schema carries the check-only bounds: %s", d.InputSchema)
	}
	for _, c := range []struct {
		args string
		want string // what the tool saw, or "" for an issue
		path string // the issue's path
		got  string // the issue's Got
	}{
		{args: `{"n":9223372036854775807}`, want: "9223372036854775807 0"},
		{args: `{"n":-9223372036854775808}`, want: "-9223372036854775808 0"},
		{args: `{"n":9223372036854775808}`, path: "/n", got: "integer"},
		{args: `{"n":-9223372036854775809}`, path: "/n", got: "integer"},
		{args: `{"n":1e19}`, path: "/n", got: "number"},
		{args: `{"n":-0e0111111111}`, want: "0 0"},
		{args: `{"n":120e-0001}`, want: "12 0"},
		{args: `{"n":3.0,"u":18446744073709551615}`, want: "3 18446744073709551615"},
		{args: `{"n":1,"u":18446744073709551616}`, path: "/u", got: "integer"},
		{args: `{"n":12e-0001}`, path: "/n", got: "number"},
	} {
		issues, err := d.Check([]byte(c.args))
		if err != nil {
			t.Errorf("Check(%s): %v", c.args, err)
			continue
		}
		if c.want == "" {
			if len(issues) != 1 || issues[0].Path != c.path || issues[0].Got != c.got {
				t.Errorf("Check(%s) = %+v, want one issue at %s with got %q", c.args, issues, c.path, c.got)
			}
			continue
		}
		if len(issues) != 0 {
			t.Errorf("Check(%s) = %+v, want none", c.args, issues)
			continue
		}
		out, err := d.Func(context.Background(), []byte(c.args))
		if err != nil || out != c.want {
			t.Errorf("run(%s) = %v, %v; want %q", c.args, out, err, c.want)
		}
	}
}

func FuzzValidateArgs(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `null`, `[]`, `"x"`, `{"customer":{"id":"c"},"lines":[]}`,
		`{"customer":{"id":1},"lines":[{"sku":2}]}`, `{"customer":`, `{"a":1e400}`, `{"lines":[[[[]]]]}`,
		`{"customer":{"id":"c","~/":0},"lines":null,"priority":-1}`,
		`{"customer":{"id":"c"},"lines":[{"sku":"a","quantity":2.0}],"priority":1e2}`,
		`{"customer":{"id":"c"},"lines":[{"sku":"a","quantity":-0.0e0}],"priority":25500e-2}`,
		`{"customer":{"id":"c"},"lines":[{"sku":"a","quantity":-0e0111111111}]}`,
		`{"customer":{"id":"c"},"lines":[{"sku":"a","quantity":9223372036854775808}]}`,
	} {
		f.Add([]byte(seed))
	}
	type orderIn struct {
		Customer struct {
			ID    string `json:"id"`
			Email string `json:"email,omitempty"`
		} `json:"customer"`
		Lines []struct {
			SKU      string `json:"sku"`
			Quantity int    `json:"quantity"`
		} `json:"lines"`
		Priority uint8  `json:"priority,omitempty"`
		Note     string `json:"note,omitempty"`
	}
	tl, err := New("place_order", "Place an order.", func(_ context.Context, in orderIn) (string, error) { return "", nil })
	if err != nil {
		f.Fatal(err)
	}
	d := tl.Declaration()
	f.Fuzz(func(t *testing.T, args []byte) {
		before := string(args)
		issues, err := d.Check(args)
		if string(args) != before {
			t.Fatalf("Check modified its input")
		}
		if err != nil {
			if issues != nil {
				t.Fatalf("Check returned issues %v with the parse error %v", issues, err)
			}
			return
		}
		if len(issues) == 0 {
			// Valid arguments must decode into the input type.
			if _, err := d.Func(context.Background(), args); err != nil {
				t.Fatalf("valid args %q failed to run: %v", args, err)
			}
			return
		}
		for i, is := range issues {
			if is.Keyword == "" || is.Expected == "" || is.Got == "" {
				t.Fatalf("issue %d has an empty field: %+v", i, is)
			}
			if is.Path != "" && is.Path[0] != '/' {
				t.Fatalf("issue %d path %q is not a JSON pointer", i, is.Path)
			}
			if i > 0 && comparePointers(issues[i-1].Path, is.Path) > 0 {
				t.Fatalf("issues not sorted: %q before %q", issues[i-1].Path, is.Path)
			}
			if i > 0 && issues[i-1] == is {
				t.Fatalf("issue %d repeats the one before: %+v", i, is)
			}
		}
	})
}
