package agent

import (
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// On the system clock an event reporting a moment takes that moment's
// reading; on a clock of the caller's it reads the clock itself, once, as
// every event did before readings were shared.
func TestStampAtSharesReadingsOnlyOnTheSystemClock(t *testing.T) {
	at := instant{wall: 1_700_000_000_123, offset: 45, since: 45 * time.Millisecond}

	sys, err := New(scripted.New())
	if err != nil {
		t.Fatal(err)
	}
	rs := &runState{a: sys, start: time.Now()}
	if w, o := rs.stampAt(at); w != at.wall || o != at.offset {
		t.Errorf("system clock: stampAt = %d, %d; want the instant's %d, %d", w, o, at.wall, at.offset)
	}

	base := time.UnixMilli(1_800_000_000_000)
	reads := 0
	own, err := New(scripted.New(), WithClock(func() time.Time {
		reads++
		return base.Add(time.Duration(reads) * time.Second)
	}))
	if err != nil {
		t.Fatal(err)
	}
	rs = &runState{a: own, start: base}
	reads = 0
	w, o := rs.stampAt(at)
	if reads != 1 || w != base.Add(time.Second).UnixMilli() || o != 1000 {
		t.Errorf("own clock: stampAt = %d, %d after %d readings; want %d, 1000 after 1", w, o, reads, base.Add(time.Second).UnixMilli())
	}
	// An instant measures from the run's start, so durations between two
	// readings are exact on either clock.
	i1, i2 := rs.instant(), rs.instant()
	if d := i2.sub(i1); d != time.Second {
		t.Errorf("own clock: the time between two readings = %v, want 1s", d)
	}
}

// The system clock's stamp is what start.Add(d).UnixMilli() gives, without
// building the time.
func TestSystemStampMatchesTheTimeArithmetic(t *testing.T) {
	a, err := New(scripted.New())
	if err != nil {
		t.Fatal(err)
	}
	for _, start := range []time.Time{time.Now(), time.Unix(0, 999_999), time.Unix(1_700_000_000, 999_999_999), time.Unix(-5, 500)} {
		rs := &runState{a: a, start: start}
		w, o, d := rs.systemStamp()
		if want := start.Add(d).UnixMilli(); w != want {
			t.Errorf("start %v: wall = %d, want %d", start, w, want)
		}
		if o != d.Milliseconds() {
			t.Errorf("start %v: offset = %d, want %d", start, o, d.Milliseconds())
		}
	}
}
