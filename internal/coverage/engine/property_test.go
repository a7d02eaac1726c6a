package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// genInstant returns a random instant in a random valid spelling, with its true time.
func genInstant(r *rand.Rand) (string, time.Time) {
	t := time.Date(1+r.IntN(9998), time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), 0, time.UTC)
	if r.IntN(2) == 0 {
		t = t.Add(time.Duration(r.IntN(1_000_000_000)))
	}
	return spellInstant(r, t), t
}

// spellInstant writes t in a random zone offset and a random lenient form. The offset keeps the
// local year inside 0000..9999.
func spellInstant(r *rand.Rand, t time.Time) string {
	off := 0
	if r.IntN(3) > 0 {
		off = (r.IntN(47) - 23) * 3600
		off += (r.IntN(60)) * 60 * sign(off)
	}
	local := t.In(time.FixedZone("", off))
	if local.Year() < 0 || local.Year() > 9999 {
		local, off = t, 0
	}
	s := fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d", local.Year(), local.Month(), local.Day(), local.Hour(), local.Minute(), local.Second())
	if ns := local.Nanosecond(); ns != 0 {
		s += fmt.Sprintf(".%09d", ns)
	}
	if off == 0 && r.IntN(2) == 0 {
		return s + "Z"
	}
	sg := '+'
	if off < 0 {
		sg = '-'
		off = -off
	}
	return s + fmt.Sprintf("%c%02d:%02d", sg, off/3600, off%3600/60)
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

func genPeriod(r *rand.Rand) Period {
	a, at := genInstant(r)
	b, bt := genInstant(r)
	if at.After(bt) {
		a, b = b, a
	}
	p := Period{Queried: Span{a, b}, Held: HeldUnknownSpan()}
	if r.IntN(4) > 0 {
		c, ct := genInstant(r)
		d, dt := genInstant(r)
		if ct.After(dt) {
			c, d = d, c
		}
		p.Held = HeldSpan(c, d)
	}
	if r.IntN(2) == 0 {
		p.ReadAt, _ = genInstant(r)
	}
	return p
}

func TestPropertyReadMint(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		p := genPeriod(r)
		w, err := MintPeriod(p)
		if err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		got := readPeriod(w)
		if got.Period == nil || *got.Period != p {
			t.Fatalf("read(mint(p)) = %+v, want %+v", got, p)
		}
		// The same period through JSON bytes reads back too.
		b, _ := Marshal(w)
		if got := readPeriod(j(t, string(b))); got.Period == nil || *got.Period != p {
			t.Fatalf("through bytes: %+v", got)
		}
	}
}

func TestPropertyVerdictZoneInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var ts [4]time.Time
		for i := range ts {
			_, ts[i] = genInstant(r)
		}
		if ts[0].After(ts[1]) {
			ts[0], ts[1] = ts[1], ts[0]
		}
		if ts[2].After(ts[3]) {
			ts[2], ts[3] = ts[3], ts[2]
		}
		var first Verdict
		for k := range 4 {
			p := Period{Queried: Span{spellInstant(r, ts[0]), spellInstant(r, ts[1])}, Held: HeldSpan(spellInstant(r, ts[2]), spellInstant(r, ts[3]))}
			v, err := VerdictOf(p)
			if err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				first = v
			} else if v != first {
				t.Fatalf("verdict changed with the zone spelling: %v vs %v for %+v", v, first, p)
			}
		}
	}
}

func TestPropertyServedInverse(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		p := genPeriod(r)
		w := p.Wire()
		sp, ok := ServedPeriod(w)
		if !ok {
			if v, _ := VerdictOf(p); v != VerdictCovered {
				t.Fatalf("not served: %+v", p)
			}
			continue
		}
		if got := UnservedPeriod(sp.Period); mustJSON(t, got) != mustJSON(t, w) {
			t.Fatalf("unserved(served(w)) = %s, want %s", mustJSON(t, got), mustJSON(t, w))
		}
		// Envelope level: serving is idempotent and its inverse round-trips the ledger.
		c, err := Wrap(nil, LedgerDecl{Checked: []Item{{What: "a"}}, Period: &p})
		if err != nil {
			t.Fatal(err)
		}
		served, _ := Served(c)
		if again, ch := Served(served); ch || mustJSON(t, again) != mustJSON(t, served) {
			t.Fatal("Served is not idempotent")
		}
		back, _ := WithoutServed(served)
		if mustJSON(t, back) != mustJSON(t, c) {
			t.Fatalf("WithoutServed(Served(x)) = %s, want %s", mustJSON(t, back), mustJSON(t, c))
		}
	}
}

func TestPropertyDoorsAgree(t *testing.T) {
	// Both spellings of a malformed period name the same field, modulo readAt / read_at.
	r := rand.New(rand.NewPCG(7, 8))
	keys := []string{"queried", "held", "from", "to"}
	for range 1000 {
		p := genPeriod(r).Wire()
		// Break one string at random.
		k := keys[r.IntN(len(keys))]
		broken := breakPeriod(p, k)
		pw := periodProblem(broken, onWire)
		_, err := MintPeriod(renameReadAt(broken))
		if pw == nil && err == nil {
			continue
		}
		if pw == nil || err == nil {
			t.Fatalf("doors disagree on %s: %v / %v", mustJSON(t, broken), pw, err)
		}
		if rf := err.(*Refusal).Field; rf != pw.Field && rf != "period.readAt" {
			t.Fatalf("fields differ: %s vs %s", rf, pw.Field)
		}
	}
}

func breakPeriod(p Object, key string) Object {
	switch key {
	case "queried", "held":
		return p.With(key, "soon")
	default:
		q, _ := p.Get("queried")
		return p.With("queried", q.(Object).With(key, "2026-09-26"))
	}
}

func renameReadAt(p Object) Object {
	out := Object{}
	for _, m := range p {
		if m.Key == ReadAtKey {
			m.Key = "readAt"
		}
		out = append(out, m)
	}
	return out
}
