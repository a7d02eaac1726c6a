package clock

import (
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/google/go-cmp/cmp"
)

// hm builds a range on 2026-10-09 from hour:minute pairs, in UTC.
func hm(h1, m1, h2, m2 int) clock.Range {
	d := func(h, m int) time.Time { return time.Date(2026, 10, 9, h, m, 0, 0, time.UTC) }
	return clock.Range{From: d(h1, m1), To: d(h2, m2)}
}

func TestUnion(t *testing.T) {
	tests := []struct {
		name string
		in   []clock.Range
		want []clock.Range
	}{
		{"none", nil, nil},
		{"empty ranges vanish", []clock.Range{hm(8, 0, 8, 0)}, nil},
		{"sorted and merged", []clock.Range{hm(10, 0, 11, 0), hm(8, 0, 9, 0), hm(8, 30, 9, 30)}, []clock.Range{hm(8, 0, 9, 30), hm(10, 0, 11, 0)}},
		{"touching ranges join", []clock.Range{hm(8, 0, 9, 0), hm(9, 0, 10, 0)}, []clock.Range{hm(8, 0, 10, 0)}},
		{"contained", []clock.Range{hm(8, 0, 12, 0), hm(9, 0, 10, 0)}, []clock.Range{hm(8, 0, 12, 0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slicesClone(tt.in)
			if diff := cmp.Diff(tt.want, Union(tt.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(in, tt.in); diff != "" {
				t.Errorf("Union modified its input:\n%s", diff)
			}
		})
	}
}

func slicesClone(rs []clock.Range) []clock.Range { return append([]clock.Range(nil), rs...) }

func TestDifference(t *testing.T) {
	tests := []struct {
		name string
		a, b []clock.Range
		want []clock.Range
	}{
		{"nothing cut", []clock.Range{hm(8, 0, 9, 0)}, nil, []clock.Range{hm(8, 0, 9, 0)}},
		{"all cut", []clock.Range{hm(8, 0, 9, 0)}, []clock.Range{hm(7, 0, 10, 0)}, nil},
		{"exact cover", []clock.Range{hm(8, 0, 9, 0)}, []clock.Range{hm(8, 0, 9, 0)}, nil},
		{"shifted read: missing head", []clock.Range{hm(14, 40, 15, 40)}, []clock.Range{hm(15, 10, 16, 10)}, []clock.Range{hm(14, 40, 15, 10)}},
		{"shifted read: extra tail", []clock.Range{hm(15, 10, 16, 10)}, []clock.Range{hm(14, 40, 15, 40)}, []clock.Range{hm(15, 40, 16, 10)}},
		{"hole in the middle", []clock.Range{hm(8, 0, 12, 0)}, []clock.Range{hm(8, 0, 9, 0), hm(10, 0, 11, 0)}, []clock.Range{hm(9, 0, 10, 0), hm(11, 0, 12, 0)}},
		{"several a", []clock.Range{hm(8, 0, 9, 0), hm(10, 0, 11, 0)}, []clock.Range{hm(8, 30, 10, 30)}, []clock.Range{hm(8, 0, 8, 30), hm(10, 30, 11, 0)}},
		{"cut before and after", []clock.Range{hm(9, 0, 10, 0)}, []clock.Range{hm(7, 0, 8, 0), hm(11, 0, 12, 0)}, []clock.Range{hm(9, 0, 10, 0)}},
		{"disjoint", []clock.Range{hm(9, 0, 10, 0)}, []clock.Range{hm(10, 0, 11, 0)}, []clock.Range{hm(9, 0, 10, 0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Difference(tt.a, tt.b)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzDifference checks the set laws on small ranges: a − b and b are disjoint, and together
// with a ∩ b they rebuild a.
func FuzzDifference(f *testing.F) {
	f.Add(uint8(0), uint8(60), uint8(30), uint8(90), uint8(100), uint8(120))
	f.Fuzz(func(t *testing.T, a1, a2, b1, b2, b3, b4 uint8) {
		base := time.Date(2026, 10, 9, 0, 0, 0, 0, time.UTC)
		mk := func(x, y uint8) clock.Range {
			if x > y {
				x, y = y, x
			}
			return clock.Range{From: base.Add(time.Duration(x) * time.Minute), To: base.Add(time.Duration(y) * time.Minute)}
		}
		a := []clock.Range{mk(a1, a2)}
		b := []clock.Range{mk(b1, b2), mk(b3, b4)}
		d := Difference(a, b)
		for _, p := range d {
			if diff := cmp.Diff([]clock.Range{p}, Difference([]clock.Range{p}, b)); diff != "" {
				t.Fatalf("piece %v overlaps b:\n%s", p, diff)
			}
		}
		// (a − b) ∪ (a − (a − b)) = a
		inter := Difference(a, d)
		if diff := cmp.Diff(Union(a), Union(append(slicesClone(d), inter...))); diff != "" {
			t.Fatalf("pieces do not rebuild a:\n%s", diff)
		}
	})
}
