// This file holds the client's options: timeouts, the result size cap, the
// server's standard error, and per-tool options like a native tool's.

package mcp

import (
	"io"
	"time"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

// The client's bounds when no option sets them.
const (
	defaultCallTimeout    = 60 * time.Second
	defaultConnectTimeout = 30 * time.Second
	// defaultMaxResultBytes is the largest result accepted, measured as the
	// size of its JSON encoding. It matches the go-sdk's bound on one
	// stdio message, which caps stdio results whatever this option says.
	defaultMaxResultBytes = 16 << 20
	// maxTools is the most tools one List accepts from a server.
	maxTools = 1000
)

// Option configures a Client.
type Option func(*config)

type config struct {
	callTimeout    time.Duration
	connectTimeout time.Duration
	maxResultBytes int64
	stderr         io.Writer
	toolOpts       map[string][]tool.Option
}

func newConfig(opts []Option) *config {
	c := &config{callTimeout: defaultCallTimeout, connectTimeout: defaultConnectTimeout, maxResultBytes: defaultMaxResultBytes, toolOpts: map[string][]tool.Option{}}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c
}

// WithCallTimeout bounds how long one tool call waits for the server's
// answer (60 seconds when d is not positive). A call past it is
// cancelled and returns an error that names the server, the tool and the
// limit, and wraps context.DeadlineExceeded.
func WithCallTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.callTimeout = d
		}
	}
}

// WithConnectTimeout bounds starting or reaching the server and the MCP
// handshake, and each tools/list request (30 seconds when d is not
// positive).
func WithConnectTimeout(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.connectTimeout = d
		}
	}
}

// WithMaxResultBytes caps the size of one result, measured as the size of
// its JSON encoding (16 MiB when n is not positive). Over HTTP the response body is cut at n bytes;
// over stdio the go-sdk's own 16 MiB message bound also applies. A result
// over the cap returns a *ResultTooLargeError.
func WithMaxResultBytes(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxResultBytes = n
		}
	}
}

// WithStderr sends a stdio server's standard error to w (by default it is
// discarded).
func WithStderr(w io.Writer) Option {
	return func(c *config) { c.stderr = w }
}

// WithToolOptions applies native tool options (tool.WithCheckIn,
// tool.WithPeriod with its tool.WithAskOrAssume rule, tool.WithResultCeiling,
// tool.WithValidation, tool.WithHiddenArguments) to the server's tool of
// that name each time List builds it. They are checked against the
// server's schema like a native tool's: a mismatch leaves the tool out of
// the list with the reason in List.Skipped.
func WithToolOptions(name string, opts ...tool.Option) Option {
	return func(c *config) { c.toolOpts[name] = append(c.toolOpts[name], opts...) }
}
