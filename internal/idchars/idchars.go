// Package idchars checks the short ASCII names and ids the framework accepts (tool names,
// context unit and passage ids, run ids in a lens address) one byte at a time.
//
// A regular expression with a counted repetition, such as [a-z0-9._-]{0,63}, compiles to a
// program with one step per count, and a package-level one is compiled as each process starts,
// used or not: the four such patterns this replaces took half a millisecond and 360 KB of every
// start of the command.
package idchars

// The letters and digits, to build sets from.
const (
	Lower  = "abcdefghijklmnopqrstuvwxyz"
	Upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	Digits = "0123456789"
)

// Set is a set of ASCII bytes. Its zero value is empty.
type Set [2]uint64

// Of returns the set of the bytes in chars. Bytes above 127 are left out: no id is
// anything but ASCII.
func Of(chars ...string) Set {
	var s Set
	for _, cs := range chars {
		for i := 0; i < len(cs); i++ {
			if c := cs[i]; c < 128 {
				s[c>>6] |= 1 << (c & 63)
			}
		}
	}
	return s
}

// Has reports whether c is in the set.
func (s *Set) Has(c byte) bool {
	return c < 128 && s[c>>6]&(1<<(c&63)) != 0
}

// Valid reports whether id is 1 to max bytes long, begins with a byte of first, and has
// only bytes of rest after it.
func Valid(id string, first, rest *Set, max int) bool {
	if len(id) == 0 || len(id) > max || !first.Has(id[0]) {
		return false
	}
	for i := 1; i < len(id); i++ {
		if !rest.Has(id[i]) {
			return false
		}
	}
	return true
}
