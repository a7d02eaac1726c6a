// This file fuzzes the strict reader and the writer: no panics, canonical output is a fixed
// point, and it reads back as the same value.

package jcs

import (
	"bytes"
	"testing"
)

func FuzzCanonicalize(f *testing.F) {
	for _, s := range []string{
		`{"b":[1,2.5,"x"],"a":null}`, `"\ud83d\ude00"`, `[1e21,1e-7,-0]`, `{"\ue000":1,"\ud800\udc00":2}`,
		`{"a":1,"a":2}`, `[`, `"\u0000<&>"`, `123456789012345678901234567890`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Canonicalize(data)
		if err != nil {
			return
		}
		again, err := Canonicalize(out)
		if err != nil {
			t.Fatalf("canonical output %q does not read back: %v", out, err)
		}
		if !bytes.Equal(out, again) {
			t.Fatalf("not a fixed point:\n%q\n%q", out, again)
		}
	})
}
