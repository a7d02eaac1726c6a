// This file holds the store's connection pool: at most max pgx connections, reused while
// idle, dropped when broken or left inside a transaction.

package postgres

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

type pool struct {
	cfg   *pgx.ConnConfig
	slots chan struct{} // one token per connection in use or being dialled

	mu     sync.Mutex
	idle   []*pgx.Conn
	closed bool
}

func newPool(cfg *pgx.ConnConfig, max int) *pool {
	return &pool{cfg: cfg, slots: make(chan struct{}, max)}
}

var errPoolClosed = errors.New("connection pool closed")

// acquire returns an idle connection or dials a new one, waiting for a free slot.
func (p *pool) acquire(ctx context.Context) (*pgx.Conn, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		<-p.slots
		return nil, errPoolClosed
	}
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()
	c, err := pgx.ConnectConfig(ctx, p.cfg)
	if err != nil {
		<-p.slots
		return nil, err
	}
	return c, nil
}

// release returns c to the pool, or closes it when it is broken, busy in a transaction, or
// the pool has been closed.
func (p *pool) release(c *pgx.Conn) {
	defer func() { <-p.slots }()
	reusable := !c.IsClosed() && c.PgConn().TxStatus() == 'I'
	p.mu.Lock()
	if reusable && !p.closed {
		p.idle = append(p.idle, c)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	closeConn(c)
}

// closeConn closes c, giving the server a few seconds to acknowledge.
func closeConn(c *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c.Close(ctx)
}

// close closes the idle connections; connections in use close when released.
func (p *pool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, c := range idle {
		closeConn(c)
	}
}
