// This file holds the cache of the runs a store wrote last, as bases: the run after one in a
// conversation is written as a delta on it, and rebuilding its view from the rows again for
// every turn would cost the store a chain of reads on each write.

package stored

import (
	"errors"
	"sync"
)

// The bounds of a ViewCache.
const (
	cacheRuns  = 16
	cacheBytes = 64 << 20
)

// ViewCache keeps the views of the runs a store wrote last (a few, up to a few tens of
// megabytes), by run and version. A store keeps one; it is safe for concurrent use.
type ViewCache struct {
	mu    sync.Mutex
	order []Ref
	bases map[Ref]*Base
	bytes int
}

// Get returns the base kept for ref, or nil (always nil on a nil cache).
func (c *ViewCache) Get(ref Ref) *Base {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bases[ref]
}

// Put keeps b, dropping the oldest entries past the bounds.
func (c *ViewCache) Put(b *Base) {
	if c == nil || b == nil || len(b.View) > cacheBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bases == nil {
		c.bases = map[Ref]*Base{}
	}
	if _, ok := c.bases[b.Ref]; ok {
		return
	}
	c.bases[b.Ref] = b
	c.order = append(c.order, b.Ref)
	c.bytes += len(b.View)
	for len(c.order) > cacheRuns || c.bytes > cacheBytes {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(c.bases[old].View)
		delete(c.bases, old)
	}
}

// FindBase returns the base to write a new run on: the run prev (the last one written in its
// conversation) at its current version, from cache when it holds it, else rebuilt through src.
// A base that does not rebuild (a damaged row) is no base: the new run is written whole rather
// than refused.
func FindBase(src Source, prev Ref, cache *ViewCache) (*Base, error) {
	b, err := NewReader(src, cache).View(prev)
	var fe *FormError
	if errors.As(err, &fe) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}
