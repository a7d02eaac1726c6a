// Tests of the lens handler over a real SQLite store.

package lens_test

import (
	"context"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/lens"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

func storeWith(t *testing.T, recs map[store.Status]*record.Record) store.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for status, rec := range recs {
		answer := ""
		if status == store.StatusComplete {
			answer = "Checkout has been degraded since 09:04 UTC."
		}
		run, err := store.RunFromRecord(rec, status, answer)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.PutRun(context.Background(), run); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func get(t *testing.T, h http.Handler, method, path string) (*http.Response, string) {
	t.Helper()
	rr := httptest.NewRecorder()
	h.ServeHTTP(rr, httptest.NewRequest(method, path, nil))
	res := rr.Result()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// wantCSP is the policy every page carries, header and meta tag alike: inline style and
// script only, nothing fetched.
const wantCSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

func TestHandler(t *testing.T) {
	p1, pa := part1(t), paused(t)
	st := storeWith(t, map[store.Status]*record.Record{store.StatusComplete: p1, store.StatusPaused: pa})
	h, err := lens.NewHandler(st, lens.WithStoreName("test store"))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(lens.Prefix, h)

	res, body := get(t, mux, "GET", "/lens/")
	if res.StatusCode != 200 || res.Header.Get("Content-Security-Policy") != wantCSP {
		t.Fatalf("list: %d %v", res.StatusCode, res.Header)
	}
	row := body[strings.Index(body, `<tr data-run="`+p1.Manifest.RunID+`"`):]
	row = row[:strings.Index(row, "</tr>")]
	mustContain(t, "the list row of part 1", row, `href="/lens/`+p1.Manifest.RunID+`"`, "✔</span> complete", "▲</span> not-sure",
		"Checkout has been degraded since 09:04 UTC.", "service_status, recent_deploys, search_logs")
	mustContain(t, "the list", body, `<tr data-run="`+pa.Manifest.RunID+`"`, "⏸</span> paused", "test store")
	// Newest first: the demo run started at the wall clock, the paused one
	// on its fixed 2026-09-26 clock.
	if strings.Index(body, p1.Manifest.RunID) > strings.Index(body, pa.Manifest.RunID) {
		t.Errorf("the list is not newest first")
	}

	res, body = get(t, mux, "GET", "/lens/"+p1.Manifest.RunID)
	if res.StatusCode != 200 || !strings.Contains(body, `data-reason="period-not-held"`) || !strings.Contains(body, `<a class="back" href="/lens/">`) {
		t.Errorf("run page: %d, %d bytes", res.StatusCode, len(body))
	}
	for _, c := range []struct {
		method, path string
		code         int
	}{
		{"GET", "/lens/run-unknown", 404},
		{"GET", "/lens/bad%20id", 400},
		{"GET", "/lens/:starts-with-a-colon", 400},
		{"GET", "/lens/" + strings.Repeat("r", 201), 400}, // one byte over the longest id
		{"GET", "/lens/" + strings.Repeat("r", 200), 404}, // the longest id: looked up, not refused
		{"GET", "/lens/run.1_a:b-C", 404},
		{"POST", "/lens/" + p1.Manifest.RunID, 405},
		{"DELETE", "/lens/", 405},
	} {
		if res, body := get(t, mux, c.method, c.path); res.StatusCode != c.code {
			t.Errorf("%s %s = %d (%s), want %d", c.method, c.path, res.StatusCode, body, c.code)
		}
	}
}

func TestNewHandlerRefuses(t *testing.T) {
	if _, err := lens.NewHandler(nil); err == nil {
		t.Error("NewHandler(nil) succeeded")
	}
	st := storeWith(t, nil)
	if _, err := lens.NewHandler(st, lens.WithListLimit(-1)); err == nil || !strings.Contains(err.Error(), "list limit -1") {
		t.Errorf("NewHandler(limit -1) = %v", err)
	}
}
