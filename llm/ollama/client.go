// This file holds the client: options, Complete, Stream.

package ollama

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
)

// hostEnv is the environment variable Ollama itself uses for its address.
const hostEnv = "OLLAMA_HOST"

// defaultBaseURL is where a local Ollama listens.
const defaultBaseURL = "http://127.0.0.1:11434"

// defaultTimeout bounds one whole call when Options.Timeout is zero; local
// models can be slow to load, so it is generous.
const defaultTimeout = 10 * time.Minute

// Options configure the provider New returns. Every field is optional.
type Options struct {
	// BaseURL is the server root ("/api/chat" is appended); empty means
	// $OLLAMA_HOST, else http://127.0.0.1:11434.
	BaseURL string
	// Model is used when a Request leaves Model empty.
	Model string
	// KeepAlive is sent as keep_alive (e.g. "5m") when set.
	KeepAlive string
	// HTTPClient sends the requests; nil means a plain client.
	HTTPClient *http.Client
	// Timeout bounds one whole call; 0 means 10 minutes (local models can be slow to load), negative none.
	Timeout time.Duration
	// Retry bounds retries of failures that can pass.
	Retry llm.RetryPolicy
	// MaxResponseBytes caps one reply, whole or streamed; 0 means
	// 32 MiB, negative no cap. A larger reply
	// fails the call with an *llm.Error naming this option.
	MaxResponseBytes int64
	// Header adds headers to every request (e.g. for a proxy in front).
	Header http.Header
}

// apiClient speaks Ollama's native chat API. It is safe for concurrent use.
type apiClient struct {
	opts   Options
	base   string
	sender *wire.Sender
	caller *wire.Caller
	ids    atomic.Int64
}

var (
	_ llm.Provider     = (*apiClient)(nil)
	_ llm.Streamer     = (*apiClient)(nil)
	_ llm.Capabilities = (*apiClient)(nil)
	_ llm.Diagnoser    = (*apiClient)(nil)
)

// New returns a provider that speaks Ollama's native chat API. It never
// fails: a server that is not running is reported by the first call (or by
// Diagnose) with `ollama serve`. It is safe for concurrent use.
//
// Besides [llm.Provider], the value implements [llm.Streamer],
// [llm.Capabilities] and [llm.Diagnoser], and has a BaseURL method naming the
// root it sends to; reach them with a type assertion, or open the client
// through providers.Open, whose providers.Client has all of them.
func New(opts Options) llm.Provider { return newAPIClient(opts) }

// newAPIClient builds the client New returns, concretely typed for this package's tests.
func newAPIClient(opts Options) *apiClient {
	c := &apiClient{opts: opts}
	c.base = strings.TrimRight(wire.FirstSet(opts.BaseURL, hostURL(os.Getenv(hostEnv)), defaultBaseURL), "/")
	c.caller = wire.NewCaller(wire.Setup{
		Profile: wire.Profile{Provider: "ollama", BaseURL: c.base, Model: opts.Model, Ollama: true},
		HTTP:    opts.HTTPClient, Retry: opts.Retry, Timeout: c.timeout(), Pkg: "ollama",
		ModelHint: "ollama.Options.Model (see `ollama list`)", MaxBody: opts.MaxResponseBytes, Encode: c.encode,
	})
	c.sender = c.caller.Sender
	return c
}

// hostURL turns an OLLAMA_HOST value ("0.0.0.0:11434", "host", a URL) into
// a base URL a client can dial.
func hostURL(h string) string {
	h = strings.TrimSpace(h)
	if h == "" {
		return ""
	}
	if !strings.Contains(h, "://") {
		h = "http://" + h
	}
	scheme, rest, _ := strings.Cut(h, "://")
	host := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host = rest[:i]
	}
	name, port, err := splitHostPort(host)
	if err != nil {
		return h
	}
	if name == "" || name == "0.0.0.0" {
		name = "127.0.0.1"
	}
	if port == "" {
		port = "11434"
	}
	return scheme + "://" + name + ":" + port
}

func splitHostPort(h string) (string, string, error) {
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		if _, err := strconv.Atoi(h[i+1:]); err != nil {
			return "", "", err
		}
		return h[:i], h[i+1:], nil
	}
	return h, "", nil
}

// Name returns "ollama".
func (c *apiClient) Name() string { return "ollama" }

// BaseURL returns the server root the client sends to.
func (c *apiClient) BaseURL() string { return c.base }

// Capabilities: options.seed reaches the model; there is no forced tool choice.
func (c *apiClient) Capabilities() llm.Caps { return llm.Caps{Seed: true, ForcedToolChoice: false} }

func (c *apiClient) model(req *llm.Request) string { return wire.ModelOr(req, c.opts.Model) }

func (c *apiClient) timeout() time.Duration { return wire.TimeoutOr(c.opts.Timeout, defaultTimeout) }

func (c *apiClient) header(stream bool) http.Header {
	return wire.CallHeader(c.opts.Header, stream, "application/x-ndjson")
}

func (c *apiClient) nextID() string { return "ollama-call-" + strconv.FormatInt(c.ids.Add(1), 10) }

// Complete sends one non-streaming request ("stream": false).
func (c *apiClient) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	return c.caller.Complete(ctx, req, c.base+"/api/chat", c.header(false), c.decode)
}

// decode reads a non-streamed reply: one frame, though a server that
// streamed anyway is tolerated.
func (c *apiClient) decode(raw []byte, p wire.Profile, h http.Header) (*llm.Response, error) {
	a := &accumulator{ids: c.nextID}
	r := wire.NewNDJSONReader(strings.NewReader(string(raw)))
	for {
		line, _, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, notAReply(p, raw, err)
		}
		if _, err := a.feed(line); err != nil {
			if errors.Is(err, errStreamError) {
				return nil, wire.Classify(p, 0, h, a.errBody)
			}
			return nil, notAReply(p, raw, err)
		}
	}
	if !a.done {
		return nil, notAReply(p, raw, errors.New("no done frame"))
	}
	return a.result(), nil
}

func notAReply(p wire.Profile, raw []byte, cause error) *llm.Error {
	what := "a body that is not an /api/chat reply"
	if wire.ReadProviderText(raw, p).HTML {
		what = "an HTML page"
	}
	_, res := wire.DefaultPolicy(llm.KindUnknown)
	return &llm.Error{Provider: p.Provider, Kind: llm.KindUnknown, Status: http.StatusOK, Resumable: res, Cause: cause,
		Message: "the model call failed: the server at " + p.BaseURL + " answered with " + what +
			"; check the base URL points at Ollama itself (for its OpenAI-compatible /v1, use the openai client)"}
}

// Stream sends one streaming request and yields text deltas as they
// arrive, then each tool call, the usage when reported, and done.
func (c *apiClient) Stream(ctx context.Context, req *llm.Request) iter.Seq2[llm.StreamEvent, error] {
	read := func(resp *http.Response, ex *llm.Exchange, p wire.Profile, onText func(string) bool) (*llm.Response, error) {
		return c.readStream(resp.Body, ex, p, onText)
	}
	return c.caller.Stream(ctx, req, c.base+"/api/chat", func() http.Header { return c.header(true) }, nil, read)
}

// readStream decodes an NDJSON body, calling onText per text delta; it
// returns (nil, nil) when onText asks to stop.
func (c *apiClient) readStream(body io.Reader, ex *llm.Exchange, p wire.Profile, onText func(string) bool) (*llm.Response, error) {
	r := wire.NewNDJSONReader(body)
	a := &accumulator{ids: c.nextID}
	for !a.done {
		line, raw, err := r.Next()
		if len(raw) > 0 {
			ex.Frames = append(ex.Frames, raw)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		text, err := a.feed(line)
		if errors.Is(err, errStreamError) {
			return nil, wire.Classify(p, 0, nil, a.errBody)
		}
		if err != nil && r.Cut() {
			return nil, fmt.Errorf("%w (%d bytes of it arrived)", wire.ErrStreamCut, len(raw))
		}
		if err != nil {
			return nil, notAReply(p, line, err)
		}
		if text != "" && !onText(text) {
			return nil, nil
		}
	}
	if !a.done {
		return nil, &llm.Error{Provider: p.Provider, Kind: llm.KindServer, Retryable: true, Resumable: true, Cause: io.ErrUnexpectedEOF,
			Message: "the stream from " + p.BaseURL + " ended before its done frame; a later attempt may work"}
	}
	return a.result(), nil
}
