// This file holds Client: one session with one MCP server, its reconnection
// policy (once, serialised, never replaying a call) and its tool list.

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

// implementation is how the client introduces itself to servers.
var implementation = sdk.Implementation{Name: "agentfootprint-go", Version: "1"}

// Client is a session with one MCP server. It is safe for concurrent use;
// the tools List builds call through it, so close it only after the agent
// using them is done.
//
// Reconnection: when the session is lost during a call (a stdio server that
// exits, a closed connection, an HTTP server that no longer knows the
// session), the call returns a *SessionLostError and is never sent again,
// since it may already have taken effect. The client reconnects once,
// right then, under a lock, so concurrent calls that saw the same loss
// share one reconnection. If that attempt fails, later calls return a
// *ServerDownError without reaching the server, until a List reconnects:
// listing changes nothing on the server, so List on a client without a
// session tries once to open a new one. An application that lists before
// each turn (see List) therefore comes back by itself once the server does.
type Client struct {
	src  Source
	name string
	cfg  *config

	mu      sync.Mutex
	sess    *sdk.ClientSession
	gen     int   // incremented on every new session
	downErr error // why the last reconnection failed; nil while connected
	closed  bool
	// last is the most recent list's shape of every tool.
	last map[string]shape
	// stale is set by the server's notifications/tools/list_changed and
	// by a reconnection (the new session may offer other tools). It is
	// atomic so the notification handler never waits on mu, which a
	// reconnection holds while the handshake runs.
	stale atomic.Bool
	// unrecorded holds list changes not yet put on the record.
	unrecorded []Change
}

// Connect starts (stdio) or reaches (HTTP) the server of src and performs
// the MCP handshake. It fails with an error naming the fault for a malformed source,
// and with one naming the server and wrapping the cause when the server
// cannot be started, reached or initialised within the connect timeout.
func Connect(ctx context.Context, src Source, opts ...Option) (*Client, error) {
	if err := src.check(); err != nil {
		return nil, err
	}
	c := &Client{src: src, name: src.name(), cfg: newConfig(opts)}
	sess, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	c.sess, c.gen = sess, 1
	if src.Name == "" {
		if ir := sess.InitializeResult(); ir != nil && ir.ServerInfo != nil && validName(ir.ServerInfo.Name) {
			c.name = ir.ServerInfo.Name
		}
	}
	return c, nil
}

// validName accepts a server's self-reported name when it is short,
// printable text.
func validName(n string) bool {
	if n == "" || len(n) > 100 {
		return false
	}
	for _, r := range n {
		if r < ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

// Name returns the server's name as errors and sites use it: Source.Name,
// else the name the server gave in its handshake, else one derived from
// the command or URL.
func (c *Client) Name() string { return c.name }

// open makes a fresh session.
func (c *Client) open(ctx context.Context) (*sdk.ClientSession, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.connectTimeout)
	defer cancel()
	client := sdk.NewClient(&implementation, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { c.stale.Store(true) },
	})
	var t sdk.Transport
	if len(c.src.Command) > 0 {
		t = &sdk.CommandTransport{Command: c.src.command(c.cfg), TerminateDuration: terminateGrace}
	} else {
		limit := c.cfg.maxResultBytes
		t = &sdk.StreamableClientTransport{
			Endpoint:     c.src.URL,
			HTTPClient:   &http.Client{Transport: cappedTransport{base: http.DefaultTransport, limit: limit}},
			MaxEventSize: int(limit),
			MaxRetries:   -1,
		}
	}
	sess, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, &connectError{Server: c.name, Err: err}
	}
	return sess, nil
}

// Close ends the session; a stdio server's input is closed and the process
// is waited for, then sent SIGTERM after 2 s and SIGKILL 2 s later if it
// has not exited (a server stopped by that SIGTERM is a clean close). Tools
// built by List fail after Close.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if c.sess == nil {
		return nil
	}
	err := c.sess.Close()
	c.sess = nil
	if stoppedByUs(err) {
		err = nil
	}
	if err != nil {
		return fmt.Errorf("mcp: server %q: closing the session: %w", c.name, err)
	}
	return nil
}

// terminateGrace is how long Close waits for a stdio server to exit after
// its input is closed before sending SIGTERM (and as long again before
// SIGKILL).
const terminateGrace = 2 * time.Second

// stoppedByUs reports whether err is a stdio server's exit by the SIGTERM
// Close sends a server that outlives its closed input: the stop Close
// asked for, not a failure.
func stoppedByUs(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGTERM
}

// errClosed is returned by calls after Close.
var errClosed = errors.New("the client was closed")

// session returns the current session and its generation, or the reason
// there is none.
func (c *Client) session(toolName string) (*sdk.ClientSession, int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed:
		return nil, 0, &ServerDownError{Server: c.name, Tool: toolName, Err: errClosed}
	case c.sess == nil:
		return nil, 0, &ServerDownError{Server: c.name, Tool: toolName, Err: c.downErr}
	}
	return c.sess, c.gen, nil
}

// recover handles the loss of the session of generation gen: unless another
// caller already replaced it, the old session is closed and one new one is
// opened. It reports whether a live session exists afterwards.
func (c *Client) recover(ctx context.Context, gen int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return errClosed
	}
	if c.gen != gen {
		// Another call already handled this loss.
		if c.sess == nil {
			return c.downErr
		}
		return nil
	}
	if c.sess != nil {
		_ = c.sess.Close() // the old session is gone; its close error says nothing new
		c.sess = nil
	}
	c.gen++
	// The reconnection must not be cut short by the failed call's own
	// deadline, only bounded by the connect timeout.
	sess, err := c.open(context.WithoutCancel(ctx))
	if err != nil {
		c.downErr = err
		return err
	}
	c.sess, c.downErr = sess, nil
	c.stale.Store(true)
	return nil
}

// reopen opens a new session for a client that has none because the last
// reconnection failed; a client that has one keeps it. It is how List comes
// back after a *ServerDownError.
func (c *Client) reopen(ctx context.Context) error {
	c.mu.Lock()
	gen, down := c.gen, c.sess == nil && !c.closed
	c.mu.Unlock()
	if !down {
		return nil
	}
	return c.recover(ctx, gen)
}

// lost reports whether err means the session is gone.
func lost(err error) bool {
	return errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, sdk.ErrSessionMissing) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// List is one fetch of a server's tools.
type List struct {
	// Tools are the server's tools as *tool.Tool values, in the server's
	// order.
	Tools []*tool.Tool
	// Info holds what the server said about each tool in Tools, in the same
	// order, beyond what a *tool.Tool carries (title, annotations, _meta,
	// output schema).
	Info []ToolInfo
	// Skipped names the server's tools left out and why (a name the
	// framework refuses, a schema that is not an object schema, options
	// that do not fit the schema).
	Skipped []Skipped
	// Changes lists the tools that appeared, vanished or changed since the
	// previous List of this client (none on the first). They are also put
	// on the record with the next call of one of the server's tools.
	Changes []Change
}

// ToolInfo is what the server declared about one tool besides its name,
// description and input schema.
type ToolInfo struct {
	Name         string               `json:"name"`
	Title        string               `json:"title,omitempty"`
	Annotations  *sdk.ToolAnnotations `json:"annotations,omitempty"`
	OutputSchema json.RawMessage      `json:"outputSchema,omitempty"`
	Meta         map[string]any       `json:"_meta,omitempty"`
}

// Skipped is a server tool List left out.
type Skipped struct {
	Tool   string `json:"tool"`
	Reason string `json:"reason"`
}

// List fetches the server's tool list now and builds a *tool.Tool for
// each. Policy: every call of List asks the server again, so an
// application that calls it before each conversation turn offers the
// current tools, and one that calls it once keeps a cached list. Between
// two calls, tools that appear, vanish or change are returned in Changes
// and recorded; a tool from an older list whose server-side schema has
// changed or vanished (seen through the server's list_changed notice) is
// refused at call time with a *ToolChangedError instead of being called
// with arguments validated against a schema the server no longer uses.
// A client left without a session (a lost session whose reconnection
// failed) opens a new one first; the tools of earlier lists call through it
// too.
func (c *Client) List(ctx context.Context) (*List, error) {
	raw, err := c.fetch(ctx)
	if err != nil {
		return nil, err
	}
	l := &List{}
	next := make(map[string]shape, len(raw))
	for _, t := range raw {
		if t == nil {
			continue
		}
		sh, info, built, reason := c.build(t)
		if reason != "" {
			l.Skipped = append(l.Skipped, Skipped{Tool: t.Name, Reason: reason})
			continue
		}
		next[t.Name] = sh
		l.Tools = append(l.Tools, built)
		l.Info = append(l.Info, info)
	}
	c.mu.Lock()
	l.Changes = diff(c.last, next)
	c.last = next
	c.stale.Store(false)
	c.unrecorded = append(c.unrecorded, l.Changes...)
	c.mu.Unlock()
	return l, nil
}

// fetch pages through tools/list, reconnecting once if the session is lost
// (listing has no effect on the server, so it is asked again), or first if
// an earlier loss left the client without a session.
func (c *Client) fetch(ctx context.Context) ([]*sdk.Tool, error) {
	if err := c.reopen(ctx); err != nil {
		return nil, &listError{Server: c.name, Err: fmt.Errorf("reconnecting failed: %w", err)}
	}
	for attempt := 0; ; attempt++ {
		sess, gen, err := c.session("")
		if err != nil {
			return nil, &listError{Server: c.name, Err: err}
		}
		tools, err := c.fetchOn(ctx, sess)
		if err == nil {
			return tools, nil
		}
		if attempt > 0 || !lost(err) || ctx.Err() != nil {
			return nil, &listError{Server: c.name, Err: err}
		}
		if rerr := c.recover(ctx, gen); rerr != nil {
			return nil, &listError{Server: c.name, Err: fmt.Errorf("%w; reconnecting failed: %v", err, rerr)}
		}
	}
}

func (c *Client) fetchOn(ctx context.Context, sess *sdk.ClientSession) ([]*sdk.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.connectTimeout)
	defer cancel()
	var out []*sdk.Tool
	for t, err := range sess.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if len(out) == maxTools {
			return nil, fmt.Errorf("the server lists more than %d tools", maxTools)
		}
		out = append(out, t)
	}
	return out, nil
}

// current reports how the server's tool name differs from want, as far as
// the last list and the server's notices tell: "" when it does not, or is
// not known to. A list_changed notice makes it list again first.
func (c *Client) current(ctx context.Context, name string, want shape) ChangeKind {
	if c.stale.Load() {
		if _, err := c.List(ctx); err != nil {
			return "" // the call itself will say what is wrong
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	got, ok := c.last[name]
	switch {
	case !ok:
		return ToolVanished
	case string(got.schema) != string(want.schema):
		return ToolSchemaChanged
	}
	return ""
}

// takeChanges returns and forgets the list changes not yet recorded.
func (c *Client) takeChanges() []Change {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.unrecorded
	c.unrecorded = nil
	return ch
}
