// This file holds the client: options, Complete, Stream.

package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
)

// Environment variables read by New when the options leave a field empty
// (providers.KeyEnv tells a caller which one holds the key).
const (
	keyEnv     = wire.OpenAIKeyEnv
	baseURLEnv = "OPENAI_BASE_URL"
)

// defaultBaseURL is the official endpoint.
const defaultBaseURL = "https://api.openai.com/v1"

// defaultTimeout bounds one whole call (all attempts, the whole stream)
// when Options.Timeout is zero.
const defaultTimeout = 5 * time.Minute

// Options configure the provider New returns. Every field is optional.
type Options struct {
	// BaseURL is the API root that "/chat/completions" is appended to;
	// empty means $OPENAI_BASE_URL, else https://api.openai.com/v1.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer"; empty means
	// $OPENAI_API_KEY. With no key at all no header is sent (local servers).
	APIKey string
	// Model is used when a Request leaves Model empty.
	Model string
	// Name is what Name() returns and errors are prefixed with; empty means
	// "openai". Set it for a compatible server ("vllm", "lmstudio").
	Name string
	// HTTPClient sends the requests; nil means a client with no timeout of
	// its own (Timeout and ctx bound every call).
	HTTPClient *http.Client
	// Timeout bounds one whole call; 0 means 5 minutes, negative none.
	Timeout time.Duration
	// Retry bounds retries of failures that can pass.
	Retry llm.RetryPolicy
	// MaxResponseBytes caps one reply, whole or streamed; 0 means
	// 32 MiB, negative no cap. A larger reply
	// fails the call with an *llm.Error naming this option.
	MaxResponseBytes int64
	// Header adds headers to every request (e.g. OpenAI-Organization).
	Header http.Header
	// DeveloperRole sends system text with role "developer" (newer OpenAI
	// reasoning models) instead of "system".
	DeveloperRole bool
	// MaxCompletionTokens sends Request.MaxTokens as
	// "max_completion_tokens" (required by OpenAI's reasoning models)
	// instead of "max_tokens" (understood by every compatible server).
	MaxCompletionTokens bool
	// OmitStreamUsage leaves out stream_options.include_usage for servers
	// that refuse it; streamed usage is then usually not reported.
	OmitStreamUsage bool
}

// apiClient speaks Chat Completions. It is safe for concurrent use.
type apiClient struct {
	opts   Options
	base   string
	key    string
	name   string
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

// New returns a provider that speaks Chat Completions. It never fails: a
// missing key or an unreachable server is reported by the first call (or by
// Diagnose) with the fix. It is safe for concurrent use.
//
// Besides [llm.Provider], the value implements [llm.Streamer],
// [llm.Capabilities] and [llm.Diagnoser], and has a BaseURL method naming the
// root it sends to; reach them with a type assertion, or open the client
// through providers.Open, whose providers.Client has all of them.
func New(opts Options) llm.Provider { return newAPIClient(opts) }

// newAPIClient builds the client New returns, concretely typed for this package's tests.
func newAPIClient(opts Options) *apiClient {
	c := &apiClient{opts: opts, base: wire.FirstSet(opts.BaseURL, os.Getenv(baseURLEnv), defaultBaseURL),
		key: wire.FirstSet(opts.APIKey, os.Getenv(keyEnv)), name: wire.FirstSet(opts.Name, "openai")}
	c.caller = wire.NewCaller(wire.Setup{
		Profile: wire.Profile{Provider: c.name, BaseURL: c.base, Model: opts.Model, KeyEnv: keyEnv,
			KeyOption: "openai.Options.APIKey", Key: c.key},
		HTTP: opts.HTTPClient, Retry: opts.Retry, Timeout: c.timeout(), Pkg: "openai", MaxBody: opts.MaxResponseBytes, Encode: c.encode,
	})
	c.sender = c.caller.Sender
	return c
}

// Name returns the provider name ("openai" unless Options.Name is set).
func (c *apiClient) Name() string { return c.name }

// BaseURL returns the API root the client sends to.
func (c *apiClient) BaseURL() string { return c.base }

// Capabilities: Chat Completions honours seed and forced tool choice.
func (c *apiClient) Capabilities() llm.Caps { return llm.Caps{Seed: true, ForcedToolChoice: true} }

func (c *apiClient) model(req *llm.Request) string { return wire.ModelOr(req, c.opts.Model) }

func (c *apiClient) systemRole() string {
	if c.opts.DeveloperRole {
		return "developer"
	}
	return "system"
}

func (c *apiClient) maxTokensField() string {
	if c.opts.MaxCompletionTokens {
		return "max_completion_tokens"
	}
	return "max_tokens"
}

func (c *apiClient) timeout() time.Duration { return wire.TimeoutOr(c.opts.Timeout, defaultTimeout) }

func (c *apiClient) header(stream bool) http.Header {
	h := wire.CallHeader(c.opts.Header, stream, "text/event-stream")
	if c.key != "" {
		h.Set("Authorization", "Bearer "+c.key)
	}
	return h
}

func (c *apiClient) nextID() string { return c.name + "-call-" + strconv.FormatInt(c.ids.Add(1), 10) }

// Complete sends one non-streaming request.
func (c *apiClient) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	return c.caller.Complete(ctx, req, wire.JoinURL(c.base, "chat/completions"), c.header(false), c.decode)
}

// decode reads a non-streamed reply with the client's call ids.
func (c *apiClient) decode(raw []byte, p wire.Profile, h http.Header) (*llm.Response, error) {
	return decodeResponse(raw, p, h, c.nextID)
}

// completion is the non-streamed reply body.
type completion struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content      json.RawMessage `json:"content"`
			Refusal      *string         `json:"refusal"`
			ToolCalls    []toolCallDelta `json:"tool_calls"`
			FunctionCall *functionDelta  `json:"function_call"`
		} `json:"message"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *usage          `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// decodeResponse reads a non-streamed reply. A 200 whose body is an error,
// or that is not a chat completion, is an *llm.Error.
func decodeResponse(raw []byte, p wire.Profile, h http.Header, ids func() string) (*llm.Response, error) {
	var cm completion
	if err := json.Unmarshal(raw, &cm); err != nil {
		return nil, notAReply(p, h, raw, err)
	}
	if len(cm.Error) > 0 && string(cm.Error) != "null" {
		return nil, wire.Classify(p, 0, h, raw)
	}
	if len(cm.Choices) == 0 {
		return nil, notAReply(p, h, raw, errors.New("no choices"))
	}
	ch := cm.Choices[0]
	a := &accumulator{id: cm.ID, model: cm.Model}
	a.content.WriteString(contentText(ch.Message.Content))
	if ch.Message.Refusal != nil && *ch.Message.Refusal != "" {
		a.refusal.WriteString(*ch.Message.Refusal)
		if a.content.Len() == 0 {
			a.content.WriteString(*ch.Message.Refusal)
		}
	}
	for i, d := range ch.Message.ToolCalls {
		if d.Index == nil {
			idx := i
			d.Index = &idx
		}
		a.addCall(d)
	}
	if ch.Message.FunctionCall != nil {
		a.addCall(ch.Message.FunctionCall.asToolCall())
	}
	if ch.FinishReason != nil {
		a.finish = *ch.FinishReason
	}
	if cm.Usage != nil {
		u := cm.Usage.toLLM()
		a.usage = &u
	}
	return a.result(ids), nil
}

// contentText reads message.content: a string, null, or an array of parts
// whose text parts are joined.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b bytes.Buffer
		for _, p := range parts {
			if p.Type == "text" || p.Type == "output_text" {
				b.WriteString(p.Text)
			}
		}
		return b.String()
	}
	return ""
}

// notAReply reports a 2xx body that is not a chat completion.
func notAReply(p wire.Profile, h http.Header, raw []byte, cause error) *llm.Error {
	pt := wire.ReadProviderText(raw, p)
	what := "a body that is not a chat completion"
	if pt.HTML {
		what = "an HTML page"
	}
	_, res := wire.DefaultPolicy(llm.KindUnknown)
	return &llm.Error{Provider: p.Provider, Kind: llm.KindUnknown, Status: http.StatusOK, Resumable: res, Cause: cause,
		Message: "the model call failed: the server at " + p.BaseURL + " answered with " + what +
			"; check the base URL points at an OpenAI-compatible API (it usually ends in /v1)"}
}

// Stream sends one streaming request and yields text deltas as they
// arrive, then each whole tool call, the usage when reported, and done.
// A plain JSON or HTML reply (an error, a proxy page, or a whole
// completion with streaming ignored) is decoded as a whole.
func (c *apiClient) Stream(ctx context.Context, req *llm.Request) iter.Seq2[llm.StreamEvent, error] {
	return c.caller.Stream(ctx, req, wire.JoinURL(c.base, "chat/completions"), func() http.Header { return c.header(true) },
		c.decode, c.readStream)
}

// readStream decodes an SSE body into a response, calling onText for each
// text delta; it returns (nil, nil) when onText asks to stop. Reader
// errors are returned raw for the caller to classify; a frame that is not
// JSON or that carries an error is an *llm.Error.
func (c *apiClient) readStream(resp *http.Response, ex *llm.Exchange, p wire.Profile, onText func(string) bool) (*llm.Response, error) {
	a := &accumulator{}
	stopped, err := wire.DriveSSE(resp.Body, ex, func(ev wire.SSEEvent) (string, error) {
		text, err := a.feed(ev.Data)
		if errors.Is(err, errStreamError) {
			return "", wire.Classify(p, 0, resp.Header, a.errBody)
		}
		if err != nil {
			return "", notAReply(p, resp.Header, ev.Data, err)
		}
		return text, nil
	}, func() bool { return a.done }, onText)
	if err != nil || stopped {
		return nil, err
	}
	if !a.done && a.finish == "" {
		return nil, &llm.Error{Provider: p.Provider, Kind: llm.KindServer, Status: resp.StatusCode, Retryable: true, Resumable: true,
			Cause:   io.ErrUnexpectedEOF,
			Message: "the stream from " + p.BaseURL + " ended before the model finished (no finish_reason and no [DONE]); a later attempt may work"}
	}
	return a.result(c.nextID), nil
}
