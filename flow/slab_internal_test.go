// White-box tests of the arenas' accounting, which sizes the next run.

package flow

import "testing"

// An id arena primed with exactly the bytes of a run's ids holds them all
// in its one chunk: nextID reserves no more than it writes.
func TestIDArenaPrimedExactly(t *testing.T) {
	ids := []struct{ path, id string }{{"", "call-llm"}, {"sf", "judge"}, {"a/b", "x"}, {"", "route"}}
	var total int32
	for i, x := range ids {
		total += int32(len((&run{counter: i}).nextID(x.path, x.id)))
	}
	r := &run{}
	r.ids.prime(total)
	for i, x := range ids {
		want := string(appendID(nil, x.path, x.id, i))
		if got := r.nextID(x.path, x.id); got != want {
			t.Fatalf("id %d: got %q, want %q", i, got, want)
		}
	}
	if r.ids.made != int(total) || r.ids.used() != total {
		t.Fatalf("arena made %d bytes and used %d for ids of %d bytes: want one exact chunk", r.ids.made, r.ids.used(), total)
	}
}

// The pools count what a run took, so a primed pool of that size is one
// chunk: taking exactly its pieces makes no second one.
func TestPoolPrimedExactly(t *testing.T) {
	var p pool[Op]
	p.prime(7, opHi)
	made := p.made // the size class may hold more than 7
	for range made {
		p.one(opLo, opHi)
	}
	if p.made != made || int(p.used()) != made {
		t.Fatalf("pool made %d and used %d after taking %d primed pieces", p.made, p.used(), made)
	}
	p.take(3, opLo, opHi)
	if int(p.used()) != made+3 {
		t.Fatalf("used %d after taking 3 more, want %d", p.used(), made+3)
	}
}

// A list's room from the hint is capped: after one very long run, the next
// run's first append reserves about 32 KiB, not the long run's length.
func TestListHintIsCapped(t *testing.T) {
	var k listKind[[64]byte]
	back, view := k.concat([][64]byte{{1}}, [][64]byte{{2}}, 1_000_000)
	h, ok := back.(*listBack[[64]byte])
	if !ok {
		t.Fatalf("back is %T, want *listBack", back)
	}
	if got := view.([][64]byte); len(got) != 2 || got[0][0] != 1 || got[1][0] != 2 {
		t.Fatalf("view = %v, want the set element then the appended one", got)
	}
	if c := cap(h.s); c > 1+(32<<10)/64 || c < 2 {
		t.Fatalf("backing capacity %d after a hint of a million, want at most %d", c, 1+(32<<10)/64)
	}
	// A small hint is honoured whole.
	back, _ = k.concat([][64]byte{{1}}, [][64]byte{{2}}, 40)
	if c := cap(back.(*listBack[[64]byte]).s); c != 41 {
		t.Fatalf("backing capacity %d for a hint of 40 after one element, want 41", c)
	}
}
