// The address-keyed look-up of declared key names.

package flow

import (
	"fmt"
	"strings"
	"testing"
)

func TestKeyTableFindsDeclaredNamesByAddress(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 40} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("key-%d", i)
		}
		tab := newKeyTable(names)
		c := &Chart{fast: tab, slotOf: map[string]int{}}
		for i, name := range names {
			c.slotOf[name] = i
		}
		for i, name := range names {
			if got, ok := tab.find(name); !ok || got != i {
				t.Fatalf("n=%d: find(%q) = %d, %v; want %d, true", n, name, got, ok, i)
			}
			// The same text at another address misses the table and is
			// found through the map.
			copied := strings.Clone(name)
			if _, ok := tab.find(copied); ok {
				t.Fatalf("n=%d: find of a copy of %q hit the address table", n, name)
			}
			if got, ok := c.slotIndex(copied); !ok || got != i {
				t.Fatalf("n=%d: slotIndex(copy of %q) = %d, %v; want %d, true", n, name, got, ok, i)
			}
			// A prefix shares the address but not the length.
			if len(name) > 1 {
				if _, ok := tab.find(name[:len(name)-1]); ok {
					t.Fatalf("n=%d: find of a prefix of %q hit", n, name)
				}
			}
		}
		if _, ok := c.slotIndex("undeclared"); ok {
			t.Fatalf("n=%d: an undeclared key was found", n)
		}
	}
	empty := newKeyTable(nil)
	if _, ok := empty.find("x"); ok {
		t.Fatal("the empty table found a key")
	}
}
