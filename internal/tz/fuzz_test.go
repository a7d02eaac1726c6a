package tz

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// FuzzParseZone checks that any name is either refused with a *Error or is UTC or a
// listed Area/Location name, recorded as written.
func FuzzParseZone(f *testing.F) {
	for _, s := range []string{"America/Los_Angeles", "EST", "+05:30", "Local", "", "america/los_angeles", "Etc/GMT+5", "UTC"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		z, err := Parse(name)
		if err != nil {
			var ze *Error
			if !errors.As(err, &ze) {
				t.Fatalf("%q: error %T is not a *Error", name, err)
			}
			if !z.IsZero() {
				t.Fatalf("%q: refused but non-zero", name)
			}
			return
		}
		if z.Name() != name {
			t.Fatalf("%q recorded as %q", name, z.Name())
		}
		if name != "UTC" {
			if _, ok := slices.BinarySearch(tzNames[:], name); !ok || !strings.Contains(name, "/") {
				t.Fatalf("%q accepted but is not a listed Area/Location name", name)
			}
		}
	})
}
