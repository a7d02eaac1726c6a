// This file holds the client: options, Complete, Stream.

package anthropic

import (
	"context"
	"encoding/json"
	"errors"
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

// Environment variables read by New when the options leave a field empty
// (providers.KeyEnv tells a caller which one holds the key).
const (
	keyEnv     = wire.AnthropicKeyEnv
	baseURLEnv = "ANTHROPIC_BASE_URL"
)

// defaultBaseURL is the official endpoint root ("/v1/messages" is appended).
const defaultBaseURL = "https://api.anthropic.com"

// apiVersion is the anthropic-version header sent with every request.
const apiVersion = "2023-06-01"

// defaultMaxTokens is sent when neither the request nor the options set
// one: the API requires max_tokens.
const defaultMaxTokens = 4096

// defaultTimeout bounds one whole call when Options.Timeout is zero.
const defaultTimeout = 5 * time.Minute

// Options configure the provider New returns. Every field is optional.
type Options struct {
	// BaseURL is the root that "/v1/messages" is appended to; empty means
	// $ANTHROPIC_BASE_URL, else https://api.anthropic.com.
	BaseURL string
	// APIKey is sent as x-api-key; empty means $ANTHROPIC_API_KEY.
	APIKey string
	// Model is used when a Request leaves Model empty.
	Model string
	// MaxTokens is sent when a Request leaves MaxTokens at 0; 0 means 4096 (the API requires one).
	MaxTokens int
	// HTTPClient sends the requests; nil means a plain client.
	HTTPClient *http.Client
	// Timeout bounds one whole call; 0 means 5 minutes, negative none.
	Timeout time.Duration
	// Retry bounds retries of failures that can pass.
	Retry llm.RetryPolicy
	// MaxResponseBytes caps one reply, whole or streamed; 0 means
	// 32 MiB, negative no cap. A larger reply
	// fails the call with an *llm.Error naming this option.
	MaxResponseBytes int64
	// Header adds headers to every request (e.g. anthropic-beta).
	Header http.Header
}

// apiClient speaks the Messages API. It is safe for concurrent use.
type apiClient struct {
	opts   Options
	base   string
	key    string
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

// New returns a provider that speaks the Messages API. It never fails: a
// missing key is reported by the first call (or by Diagnose) with the
// variable to set. It is safe for concurrent use.
//
// Besides [llm.Provider], the value implements [llm.Streamer],
// [llm.Capabilities] and [llm.Diagnoser], and has a BaseURL method naming the
// root it sends to; reach them with a type assertion, or open the client
// through providers.Open, whose providers.Client has all of them.
func New(opts Options) llm.Provider { return newAPIClient(opts) }

// newAPIClient builds the client New returns, concretely typed for this package's tests.
func newAPIClient(opts Options) *apiClient {
	c := &apiClient{opts: opts, key: wire.FirstSet(opts.APIKey, os.Getenv(keyEnv))}
	base := wire.FirstSet(opts.BaseURL, os.Getenv(baseURLEnv), defaultBaseURL)
	c.base = strings.TrimSuffix(strings.TrimRight(base, "/"), "/v1")
	c.caller = wire.NewCaller(wire.Setup{
		Profile: wire.Profile{Provider: "anthropic", BaseURL: c.base, Model: opts.Model, KeyEnv: keyEnv,
			KeyOption: "anthropic.Options.APIKey", Key: c.key},
		HTTP: opts.HTTPClient, Retry: opts.Retry, Timeout: c.timeout(), Pkg: "anthropic", MaxBody: opts.MaxResponseBytes, Encode: c.encode,
	})
	c.sender = c.caller.Sender
	return c
}

// Name returns "anthropic".
func (c *apiClient) Name() string { return "anthropic" }

// BaseURL returns the root the client sends to.
func (c *apiClient) BaseURL() string { return c.base }

// Capabilities: the Messages API has no seed; forced tool choice works.
func (c *apiClient) Capabilities() llm.Caps { return llm.Caps{Seed: false, ForcedToolChoice: true} }

func (c *apiClient) model(req *llm.Request) string { return wire.ModelOr(req, c.opts.Model) }

func (c *apiClient) maxTokens(req *llm.Request) int {
	switch {
	case req.MaxTokens > 0:
		return req.MaxTokens
	case c.opts.MaxTokens > 0:
		return c.opts.MaxTokens
	}
	return defaultMaxTokens
}

func (c *apiClient) timeout() time.Duration { return wire.TimeoutOr(c.opts.Timeout, defaultTimeout) }

func (c *apiClient) header(stream bool) http.Header {
	h := wire.CallHeader(c.opts.Header, stream, "text/event-stream")
	h.Set("anthropic-version", apiVersion)
	if c.key != "" {
		h.Set("x-api-key", c.key)
	}
	return h
}

func (c *apiClient) nextID() string { return "anthropic-call-" + strconv.FormatInt(c.ids.Add(1), 10) }

func (c *apiClient) endpoint() string { return c.base + "/v1/messages" }

// Complete sends one non-streaming request.
func (c *apiClient) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	return c.caller.Complete(ctx, req, c.endpoint(), c.header(false), c.decode)
}

// decode reads a non-streamed body: a message, or an error in a 200.
func (c *apiClient) decode(raw []byte, p wire.Profile, h http.Header) (*llm.Response, error) {
	var probe struct {
		Type  string          `json:"type"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, notAMessage(p, raw, err)
	}
	if probe.Type == "error" || (len(probe.Error) > 0 && string(probe.Error) != "null") {
		return nil, wire.Classify(p, 0, h, raw)
	}
	var m message
	if err := json.Unmarshal(raw, &m); err != nil || (probe.Type != "message" && m.Content == nil) {
		if err == nil {
			err = errors.New("no content")
		}
		return nil, notAMessage(p, raw, err)
	}
	return decodeMessage(&m, c.nextID), nil
}

func notAMessage(p wire.Profile, raw []byte, cause error) *llm.Error {
	what := "a body that is not a Messages API reply"
	if wire.ReadProviderText(raw, p).HTML {
		what = "an HTML page"
	}
	_, res := wire.DefaultPolicy(llm.KindUnknown)
	return &llm.Error{Provider: p.Provider, Kind: llm.KindUnknown, Status: http.StatusOK, Resumable: res, Cause: cause,
		Message: "the model call failed: the server at " + p.BaseURL + " answered with " + what +
			"; check the base URL is the API root (without /v1/messages)"}
}

// Stream sends one streaming request and yields text deltas as they
// arrive, then each whole tool call, the usage, and done.
func (c *apiClient) Stream(ctx context.Context, req *llm.Request) iter.Seq2[llm.StreamEvent, error] {
	return c.caller.Stream(ctx, req, c.endpoint(), func() http.Header { return c.header(true) }, c.decode, c.readStream)
}

// readStream decodes an SSE body, calling onText per text delta; it returns
// (nil, nil) when onText asks to stop.
func (c *apiClient) readStream(resp *http.Response, ex *llm.Exchange, p wire.Profile, onText func(string) bool) (*llm.Response, error) {
	a := &accumulator{}
	stopped, err := wire.DriveSSE(resp.Body, ex, func(ev wire.SSEEvent) (string, error) {
		text, err := a.feed(ev.Name, ev.Data)
		if errors.Is(err, errStreamError) {
			return "", wire.Classify(p, 0, resp.Header, a.errBody)
		}
		if err != nil {
			return "", notAMessage(p, ev.Data, err)
		}
		return text, nil
	}, func() bool { return a.done }, onText)
	if err != nil || stopped {
		return nil, err
	}
	if !a.done && a.stop == "" {
		return nil, &llm.Error{Provider: p.Provider, Kind: llm.KindServer, Status: resp.StatusCode, Retryable: true, Resumable: true,
			Cause:   io.ErrUnexpectedEOF,
			Message: "the stream from " + p.BaseURL + " ended before the model finished (no stop_reason and no message_stop); a later attempt may work"}
	}
	return a.result(c.nextID), nil
}
