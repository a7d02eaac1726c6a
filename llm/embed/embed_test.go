// The embedders against fakes on 127.0.0.1: request shape, reply decoding,
// error sentences, and refusal of malformed replies.

package embed_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/embed"
	"github.com/agentfootprint/agentfootprint-go/retrieval"
	"github.com/google/go-cmp/cmp"
)

func fake(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

type seen struct {
	path, auth string
	body       map[string]any
}

func recorder(t *testing.T, got *seen, reply string, status int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.path, got.auth = r.URL.Path, r.Header.Get("Authorization")
		json.Unmarshal(b, &got.body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, reply)
	}
}

func TestOpenAI(t *testing.T) {
	var got seen
	s := fake(t, recorder(t, &got, `{"object":"list","data":[{"index":1,"embedding":[0,1]},{"index":0,"embedding":[1,0.5]}],"model":"m"}`, 200))
	c, err := embed.OpenAI(embed.Options{BaseURL: s.URL + "/v1", APIKey: "sk-test", Model: "text-embedding-3-small"})
	if err != nil {
		t.Fatal(err)
	}
	vecs, err := c.Embed(context.Background(), []string{"first", "second"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]float32{{1, 0.5}, {0, 1}}, vecs); diff != "" {
		t.Errorf("vectors in text order (-want +got):\n%s", diff)
	}
	if got.path != "/v1/embeddings" || got.auth != "Bearer sk-test" || got.body["model"] != "text-embedding-3-small" {
		t.Errorf("request: %+v", got)
	}
	if diff := cmp.Diff([]any{"first", "second"}, got.body["input"]); diff != "" {
		t.Errorf("input (-want +got):\n%s", diff)
	}
}

func TestOllama(t *testing.T) {
	var got seen
	s := fake(t, recorder(t, &got, `{"model":"all-minilm","embeddings":[[0.1,0.2,0.3]]}`, 200))
	c, err := embed.Ollama(embed.Options{BaseURL: s.URL, Model: "all-minilm"})
	if err != nil {
		t.Fatal(err)
	}
	vecs, err := c.Embed(context.Background(), []string{"hello"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]float32{{0.1, 0.2, 0.3}}, vecs); diff != "" {
		t.Errorf("vectors (-want +got):\n%s", diff)
	}
	if got.path != "/api/embed" || got.auth != "" || got.body["model"] != "all-minilm" {
		t.Errorf("request: %+v", got)
	}
}

func TestFailures(t *testing.T) {
	ctx := context.Background()
	for name, tc := range map[string]struct {
		reply  string
		status int
		want   string
	}{
		"bad key":    {`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`, 401, "key"},
		"count":      {`{"data":[{"index":0,"embedding":[1]}]}`, 200, "1 embeddings for 2 texts"},
		"ragged":     {`{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[1,2]}]}`, 200, "embedding 1 has 2 dimensions"},
		"repeated":   {`{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}`, 200, "repeated"},
		"not json":   {`<html>`, 200, "not an embeddings reply"},
		"empty vecs": {`{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[]}]}`, 200, "empty"},
	} {
		var got seen
		s := fake(t, recorder(t, &got, tc.reply, tc.status))
		c, _ := embed.OpenAI(embed.Options{BaseURL: s.URL, APIKey: "sk-x", Model: "m", Retry: llm.RetryPolicy{Attempts: 1}})
		_, err := c.Embed(ctx, []string{"a", "b"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", name, err, tc.want)
		}
	}
	if _, err := embed.Ollama(embed.Options{}); err == nil || !strings.Contains(err.Error(), "Model") {
		t.Errorf("a missing model: err = %v", err)
	}
}

var _ retrieval.Embedder = (*embed.Client)(nil)
