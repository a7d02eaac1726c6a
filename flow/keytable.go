// Key look-up by address: finding a declared key's state slot from the
// address of its name's bytes, which every use of one key value shares.

package flow

import (
	"math/bits"
	"unsafe"
)

// keyTable maps the address and length of each declared key name to the
// key's slot. A key value such as state.KeyHistory hands the engine the
// same name bytes on every Get and Set, so the look-up compares two words
// instead of hashing and comparing the string. A name with the same text
// built elsewhere (Key[any](name) from a computed name) misses here and is
// found through Chart.slotOf. The table is built once with the chart and
// only read afterwards, so concurrent runs share it safely.
type keyTable struct {
	ents  []keyEnt
	shift uint
}

type keyEnt struct {
	p    *byte
	n    int
	slot int32
}

func newKeyTable(names []string) keyTable {
	if len(names) == 0 {
		return keyTable{}
	}
	size := 1 << bits.Len(uint(2*len(names)-1)) // a power of two >= 2n
	t := keyTable{ents: make([]keyEnt, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
	for i, name := range names {
		h := t.home(unsafe.StringData(name))
		for t.ents[h].p != nil {
			h = (h + 1) & (len(t.ents) - 1)
		}
		t.ents[h] = keyEnt{p: unsafe.StringData(name), n: len(name), slot: int32(i)}
	}
	return t
}

// home is the first entry to probe for a name at p (Fibonacci hashing of
// the address).
func (t *keyTable) home(p *byte) int {
	return int((uint64(uintptr(unsafe.Pointer(p))) * 0x9E3779B97F4A7C15) >> t.shift)
}

// find returns the slot of the declared name whose bytes are key's, or
// false when key's bytes are not a declared name's.
func (t *keyTable) find(key string) (int, bool) {
	if len(t.ents) == 0 || len(key) == 0 {
		return 0, false
	}
	p := unsafe.StringData(key)
	for h := t.home(p); ; h = (h + 1) & (len(t.ents) - 1) {
		e := &t.ents[h]
		if e.p == p && e.n == len(key) {
			return int(e.slot), true
		}
		if e.p == nil {
			return 0, false
		}
	}
}

// slotIndex returns the state slot of the declared key named key.
func (c *Chart) slotIndex(key string) (int, bool) {
	if i, ok := c.fast.find(key); ok {
		return i, true
	}
	i, ok := c.slotOf[key]
	return i, ok
}
