// This file holds the test harnesses the three clients run alike: a server
// that answers every request with one body, the span property over random
// requests, the replay of recorded traffic against golden files, and the
// stream-decoding benchmark loop.

package wiretest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"iter"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Client is what the harnesses call: a provider that also streams.
type Client interface {
	Complete(ctx context.Context, req *llm.Request) (*llm.Response, error)
	Stream(ctx context.Context, req *llm.Request) iter.Seq2[llm.StreamEvent, error]
}

// BodyServer answers every request with body under the given Content-Type;
// it closes with the test.
func BodyServer(t testing.TB, contentType, body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// SpansProperty encodes 200 random requests drawn from a generator seeded
// with (seed1, seed2) and checks each body is JSON and its spans keep the
// rules CheckSpans enforces.
func SpansProperty(t *testing.T, seed1, seed2 uint64, encode func(*llm.Request) ([]byte, []llm.Span, error)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed1, seed2))
	for range 200 {
		r := RandomRequest(rng)
		body, spans, err := encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(body) {
			t.Fatalf("invalid JSON %q", body)
		}
		CheckSpans(t, r, llm.Exchange{RequestBody: body, Spans: spans})
	}
}

// Replay is one client's replay of recorded traffic.
type Replay struct {
	// Files are fixture paths relative to the fixture directory.
	Files []string
	// Path is the URL path every request must reach.
	Path string
	// New builds the client for a base URL.
	New func(base string) Client
	// Request returns the request each call sends.
	Request func() *llm.Request
	// Streamed says whether the recorded exchange rec of file was streamed.
	Streamed func(file string, rec Recorded) bool
	// Update rewrites the golden files.
	Update bool
}

// Run replays each file through a replay server, one call per recorded
// exchange, checks every request body is JSON sent to r.Path, and compares
// the decoded outcomes (base URL written as {base}) with
// testdata/replay/<file name without extension>.json.
func (r Replay) Run(t *testing.T) {
	for _, f := range r.Files {
		t.Run(f, func(t *testing.T) {
			recs := Load(t, f)
			srv := Serve(t, recs)
			c := r.New(srv.URL)
			var got []Outcome
			for _, rec := range recs {
				if r.Streamed(f, rec) {
					got = append(got, Drain(t, c.Stream(context.Background(), r.Request())))
				} else {
					got = append(got, Summarize(c.Complete(context.Background(), r.Request())))
				}
			}
			for i, body := range srv.Requests {
				if !json.Valid(body) || srv.Paths[i] != r.Path {
					t.Errorf("request %d to %s: %s", i, srv.Paths[i], body)
				}
			}
			name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
			out := strings.ReplaceAll(string(JSON(got)), srv.URL, "{base}")
			Golden(t, "replay/"+name+".json", []byte(out), r.Update)
		})
	}
}

// StreamFlag reports whether a recorded request body asked for "stream":want.
func StreamFlag(rec Recorded, want bool) bool {
	if want {
		return bytes.Contains(rec.RequestBody, []byte(`"stream":true`))
	}
	return bytes.Contains(rec.RequestBody, []byte(`"stream":false`))
}

// BenchDecode measures decode over data, which must report 1,000 output
// tokens, and reports wall and CPU nanoseconds per chunk of the 1,000.
func BenchDecode(b *testing.B, data []byte, decode func(body io.Reader) (*llm.Response, error)) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := CPUTime()
	for b.Loop() {
		out, err := decode(bytes.NewReader(data))
		if err != nil || out.Usage.Output != 1000 {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/chunk")
	b.ReportMetric(float64((CPUTime()-cpu0).Nanoseconds())/float64(b.N)/1000, "cpu-ns/chunk")
}

// StreamGolden streams one call through a BodyServer answering body under
// contentType and compares the outcome (base URL written as {base}) with
// testdata/quirks/<name>.json.
func StreamGolden(t *testing.T, name, contentType, body string, newClient func(base string) Client, req *llm.Request, update bool) {
	t.Helper()
	srv := BodyServer(t, contentType, body)
	got := Drain(t, newClient(srv.URL).Stream(context.Background(), req))
	out := strings.ReplaceAll(string(JSON(got)), srv.URL, "{base}")
	Golden(t, filepath.Join("quirks", name+".json"), []byte(out), update)
}

// UserHi returns the one-turn request the client tests send: the user says
// "hi" as unit history/0 to model.
func UserHi(model string) *llm.Request {
	return &llm.Request{Model: model, Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi", Unit: "history/0"}}}
}
