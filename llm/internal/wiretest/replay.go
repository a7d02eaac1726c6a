// This file serves recorded replies from an httptest server and finds the
// shared fixture folder.

package wiretest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// FixtureDir returns ../shared/fixtures/wire relative to the directory that
// holds the main go.mod, or skips the test with a message when absent.
func FixtureDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test; cannot locate ../shared/fixtures/wire")
		}
		dir = parent
	}
	fx := filepath.Join(dir, "..", "shared", "fixtures", "wire")
	if _, err := os.Stat(fx); err != nil {
		t.Skipf("recorded wire fixtures not found at %s (they live beside the repository in shared/); skipping replay", fx)
	}
	return fx
}

// Load reads one fixture file (relative to FixtureDir), parsing it by
// extension: .httprr, .yaml, or .sse (served as one 200 text/event-stream).
func Load(t testing.TB, rel string) []Recorded {
	t.Helper()
	path := filepath.Join(FixtureDir(t), rel)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("fixture %s not present: %v", rel, err)
	}
	var recs []Recorded
	switch filepath.Ext(rel) {
	case ".httprr":
		recs, err = ParseHTTPRR(data)
	case ".yaml":
		recs, err = ParseCassette(data)
	case ".sse":
		recs = []Recorded{{Method: http.MethodPost, Status: 200,
			Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: data}}
	default:
		t.Fatalf("unknown fixture type %s", rel)
	}
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return recs
}

// Server replays recordings in order: the n-th request gets the n-th
// recorded reply. Requests holds the bodies it received.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	recs     []Recorded
	next     int
	Requests [][]byte
	Paths    []string
	Headers  []http.Header
}

// Serve starts a replay server for recs; it closes with the test.
func Serve(t testing.TB, recs []Recorded) *Server {
	s := &Server{recs: recs}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.Close)
	return s
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.Requests = append(s.Requests, body)
	s.Paths = append(s.Paths, r.URL.Path)
	s.Headers = append(s.Headers, r.Header.Clone())
	if s.next >= len(s.recs) {
		s.mu.Unlock()
		http.Error(w, "replay: no more recorded replies", http.StatusTeapot)
		return
	}
	rec := s.recs[s.next]
	s.next++
	s.mu.Unlock()
	for k, vs := range rec.Header {
		switch http.CanonicalHeaderKey(k) {
		case "Content-Length", "Transfer-Encoding", "Content-Encoding":
			continue
		}
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(rec.Body)))
	w.WriteHeader(rec.Status)
	_, _ = w.Write(rec.Body)
}
