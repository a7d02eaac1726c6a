// Package embed holds text embedders over HTTP: the OpenAI-compatible
// /v1/embeddings endpoint and Ollama's /api/embed. They send through the
// same plumbing as the chat clients (retries, redacted headers, the same
// error sentences) and implement retrieval.Embedder.
package embed

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
)

// Caps on one call.
const (
	// MaxBatch bounds the texts embedded in one request.
	MaxBatch = 2048
	// maxReply bounds the reply body read.
	maxReply = 64 << 20
	// defaultTimeout bounds one call when Options.Timeout is zero.
	defaultTimeout = 60 * time.Second
)

// Options configure an embedder. Empty fields take the defaults named on
// each constructor.
type Options struct {
	// BaseURL is the API root the endpoint path is appended to.
	BaseURL string
	// APIKey is sent as a bearer token (OpenAI-compatible only).
	APIKey string
	// Model names the embedding model. Required.
	Model string
	// HTTPClient sends the requests; nil means a plain client.
	HTTPClient *http.Client
	// Retry bounds retries of failures that can pass.
	Retry llm.RetryPolicy
	// Timeout bounds one call; 0 means 60 seconds.
	Timeout time.Duration
}

// Client embeds texts through one HTTP API.
type Client struct {
	sender  *wire.Sender
	url     string
	model   string
	header  http.Header
	timeout time.Duration
	encode  func(model string, texts []string) ([]byte, error)
	decode  func(body []byte, n int) ([][]float32, error)
}

// OpenAI returns an embedder for an OpenAI-compatible /embeddings endpoint.
// BaseURL defaults to $OPENAI_BASE_URL, else https://api.openai.com/v1; the
// key to $OPENAI_API_KEY.
func OpenAI(opts Options) (*Client, error) {
	base := wire.FirstSet(opts.BaseURL, os.Getenv("OPENAI_BASE_URL"), "https://api.openai.com/v1")
	key := wire.FirstSet(opts.APIKey, os.Getenv(wire.OpenAIKeyEnv))
	c, err := newClient(opts, wire.Profile{Provider: "openai", BaseURL: base, Model: opts.Model,
		KeyEnv: wire.OpenAIKeyEnv, KeyOption: "embed.Options.APIKey", Key: key}, wire.JoinURL(base, "embeddings"))
	if err != nil {
		return nil, err
	}
	if key != "" {
		c.header.Set("Authorization", "Bearer "+key)
	}
	c.encode = func(model string, texts []string) ([]byte, error) {
		return json.Marshal(struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}{model, texts})
	}
	c.decode = decodeOpenAI
	return c, nil
}

// Ollama returns an embedder for Ollama's /api/embed. BaseURL defaults to
// $OLLAMA_HOST, else http://127.0.0.1:11434.
func Ollama(opts Options) (*Client, error) {
	base := wire.FirstSet(opts.BaseURL, os.Getenv("OLLAMA_HOST"), "http://127.0.0.1:11434")
	c, err := newClient(opts, wire.Profile{Provider: "ollama", BaseURL: base, Model: opts.Model, Ollama: true},
		wire.JoinURL(base, "api/embed"))
	if err != nil {
		return nil, err
	}
	c.encode = func(model string, texts []string) ([]byte, error) {
		return json.Marshal(struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}{model, texts})
	}
	c.decode = decodeOllama
	return c, nil
}

func newClient(opts Options, p wire.Profile, url string) (*Client, error) {
	if opts.Model == "" {
		return nil, fmt.Errorf("embed: %s: Options.Model is empty; name the embedding model", p.Provider)
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	t := opts.Timeout
	if t <= 0 {
		t = defaultTimeout
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	return &Client{
		sender: &wire.Sender{Profile: p, HTTP: hc, Retry: opts.Retry,
			TimeoutLabel: "the embedder timeout of " + t.String() + " (embed.Options.Timeout)"},
		url: url, model: opts.Model, header: h, timeout: t,
	}, nil
}

// Embed returns one vector per text, in order. It refuses more than
// MaxBatch texts and a reply whose count or lengths do not match.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	if len(texts) > MaxBatch {
		return nil, fmt.Errorf("embed: %d texts in one call, more than %d; split the batch", len(texts), MaxBatch)
	}
	body, err := c.encode(c.model, texts)
	if err != nil {
		return nil, fmt.Errorf("embed: encoding the request: %w", err)
	}
	callCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var ex llm.Exchange
	resp, err := c.sender.Post(ctx, callCtx, c.url, c.header, body, &ex)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
	if err != nil {
		return nil, fmt.Errorf("embed: reading the reply from %s: %w", c.url, err)
	}
	if len(raw) > maxReply {
		return nil, fmt.Errorf("embed: the reply from %s is larger than %d bytes", c.url, maxReply)
	}
	vecs, err := c.decode(raw, len(texts))
	if err != nil {
		return nil, fmt.Errorf("embed: the reply from %s: %w", c.url, err)
	}
	return vecs, nil
}

func decodeOpenAI(body []byte, n int) ([][]float32, error) {
	var r struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("not an embeddings reply: %w", err)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("%d embeddings for %d texts", len(r.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("embedding index %d is out of range or repeated", d.Index)
		}
		out[d.Index] = d.Embedding
	}
	return out, sameLength(out)
}

func decodeOllama(body []byte, n int) ([][]float32, error) {
	var r struct {
		Embeddings [][]float32 `json:"embeddings"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("not an embed reply: %w", err)
	}
	if len(r.Embeddings) != n {
		return nil, fmt.Errorf("%d embeddings for %d texts", len(r.Embeddings), n)
	}
	return r.Embeddings, sameLength(r.Embeddings)
}

func sameLength(vs [][]float32) error {
	for i, v := range vs {
		if len(v) == 0 {
			return fmt.Errorf("embedding %d is empty", i)
		}
		if len(v) != len(vs[0]) {
			return fmt.Errorf("embedding %d has %d dimensions, embedding 0 has %d", i, len(v), len(vs[0]))
		}
	}
	return nil
}
