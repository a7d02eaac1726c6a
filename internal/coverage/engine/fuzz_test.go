package engine

import (
	"strings"
	"testing"
	"time"
)

func FuzzParseInstant(f *testing.F) {
	for _, s := range []string{"2026-09-26T09:00:00Z", "2016-12-31T23:59:60Z", "2026-09-26t08:00:00.123456789+23:59", "yesterday", "2026-02-30T00:00:00Z", "0000-01-01T00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ParseInstant(s)
		if !ok {
			return
		}
		// Whatever is accepted has a zone and reads back through the layout it matched.
		if !strings.ContainsAny(s[len(s)-1:], "Zz0123456789") {
			t.Fatalf("accepted %q without a zone", s)
		}
		layouts := []string{"2006-01-02T15:04Z07:00", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05.999999999Z07:00"}
		norm := strings.Replace(strings.Replace(s, "t", "T", 1), "z", "Z", 1)
		if strings.Contains(norm, ":60") {
			return // time.Parse refuses leap seconds; the rollover is tested in the vectors
		}
		for _, l := range layouts {
			if want, err := time.Parse(l, norm); err == nil {
				if !want.Equal(got) {
					t.Fatalf("%q: got %v, time.Parse %v", s, got, want)
				}
				return
			}
		}
	})
}

func FuzzPeriodProblem(f *testing.F) {
	f.Add(`{"queried":` + qJSON + `,"held":` + hJSON + `,"read_at":"2026-09-26T10:00:03Z"}`)
	f.Add(`{"queried":` + qJSON + `,"held":"unknown","verdict":"not-held"}`)
	f.Add(`{"queried":{"from":"yesterday"},"held":null}`)
	f.Add(`[1,{"a":[]}]`)
	f.Fuzz(func(t *testing.T, s string) {
		v, err := DecodeJSON([]byte(s))
		if err != nil {
			return
		}
		for _, sp := range []keySpelling{inCamel, onWire} {
			p := periodProblem(v, sp)
			if p != nil {
				if !strings.HasPrefix(p.Field, "period") || len(p.Message) > 1200 {
					t.Fatalf("problem %+v", p)
				}
				continue
			}
			if sp == onWire {
				r := readPeriod(v)
				if r.Period == nil {
					t.Fatal("well formed but unread")
				}
				if _, err := VerdictOf(*r.Period); err != nil {
					t.Fatal(err)
				}
				if rr := readPeriod(r.Period.Wire()); rr.Period == nil || *rr.Period != *r.Period {
					t.Fatal("read(mint(p)) != p")
				}
			}
		}
	})
}

func FuzzRecognizeAndServe(f *testing.F) {
	f.Add(`{"af_absent":true,"looked_for":"x","checked":[{"what":"y","short":"y","kind":"scope"}],"period":` + seedP + `,"note":"N"}`)
	f.Add(`{"af_coverage":{"checked":["a"],"in_progress":[{"what":"b","count":2}],"period":{"queried":` + qJSON + `,"held":"unknown"},"note":"C"},"result":{"af_absent":true,"checked":["z"]}}`)
	f.Add(`{"af_semantics":true,"facts":[1],"provenance":{"measured_at":"m","source":"s"},"coverage":{"not_checked":[{"what":"a","why":"b"}]},"not_covered":["a — b"],"period":` + seedP + `,"note":"S","clarify":null}`)
	f.Add(`{"af_coverage":{},"result":null}`)
	f.Fuzz(func(t *testing.T, s string) {
		v, err := DecodeJSON([]byte(s))
		if err != nil {
			return
		}
		before := mustJSON(t, v)
		r, ok := ReadCoverageResult(v, "fuzz")
		if ok {
			for _, d := range r.Declared {
				if d.Period != nil {
					if _, err := VerdictOf(*d.Period); err != nil {
						t.Fatalf("recorded a malformed period: %v", err)
					}
				}
				_, _ = Marshal(d)
			}
		}
		out, changed := Served(v)
		if mustJSON(t, v) != before {
			t.Fatal("Served mutated its input")
		}
		if !changed && mustJSON(t, out) != before {
			t.Fatal("unchanged but different")
		}
		again, ch := Served(out)
		if ch && mustJSON(t, again) != mustJSON(t, out) {
			t.Fatalf("Served(Served(x)) != Served(x):\n%s\n%s", mustJSON(t, out), mustJSON(t, again))
		}
		_, _ = WithoutServed(out)
	})
}

func FuzzDoors(f *testing.F) {
	f.Add(`{"what":"x","checked":["y",{"what":"z","short":"z"}],"period":` + seedP + `}`)
	f.Add(`{"checked":["a"],"inProgress":["b",{"what":"c","count":3}]}`)
	f.Add(`{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"coverage":{"cannotCover":[{"what":"a","why":"b"}]}}`)
	f.Fuzz(func(t *testing.T, s string) {
		v, err := DecodeJSON([]byte(s))
		if err != nil {
			return
		}
		check := func(env any, err error) {
			if err != nil {
				if !strings.HasPrefix(err.Error(), RefusedPrefix) {
					t.Fatalf("refusal %q lacks the prefix", err)
				}
				return
			}
			if _, ok := ReadCoverageResult(env, "t"); !ok {
				if _, isSem := env.(*Semantics); !isSem {
					t.Fatalf("a minted envelope is not recognized: %s", mustJSON(t, env))
				}
			}
			r, _ := ReadCoverageResult(env, "t")
			if len(r.Problems) > 0 {
				t.Fatalf("a minted envelope reads with problems: %+v", r.Problems)
			}
		}
		a, err := AbsentData(v)
		check(a, err)
		c, err := WrapData(nil, v)
		check(c, err)
		d, err := DescribedData(v)
		check(d, err)
	})
}
