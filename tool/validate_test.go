// Internal tests of validation: the order of JSON pointers, and a fuzz of
// the argument check against the input type.

package tool

import (
	"context"
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

func FuzzValidateArgs(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `null`, `[]`, `"x"`, `{"customer":{"id":"c"},"lines":[]}`,
		`{"customer":{"id":1},"lines":[{"sku":2}]}`, `{"customer":`, `{"a":1e400}`, `{"lines":[[[[]]]]}`,
		`{"customer":{"id":"c","~/":0},"lines":null,"priority":-1}`,
		`{"customer":{"id":"c"},"lines":[{"sku":"a","quantity":2.0}],"priority":1e2}`,
		`{"customer":{"id":"c"},"lines":[{"sku":"a","quantity":-0.0e0}],"priority":25500e-2}`,
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
