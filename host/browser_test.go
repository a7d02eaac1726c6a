// This file tests a real browser's EventSource against the events endpoint: the server
// drops the first connection after five events, Chromium reconnects on its own with
// Last-Event-ID, and the page receives every event of the log exactly once. It needs
// Chromium (skipped without it, failed without it under CI=true).

package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/host"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
)

func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium under CI=true: .ci/run must install it for the EventSource test")
	}
	t.Skip("no chromium on PATH: install it to run the EventSource reconnect test")
	return ""
}

// dropAfter ends a response after n frames, as a server whose connection broke.
type dropAfter struct {
	http.ResponseWriter
	n, frames int
}

var errDropped = errors.New("the test dropped the stream")

func (d *dropAfter) Write(b []byte) (int, error) {
	if strings.Contains(string(b), "\nevent: ") || strings.HasPrefix(string(b), "id: ") {
		if d.frames == d.n {
			return 0, errDropped
		}
		d.frames++
	}
	return d.ResponseWriter.Write(b)
}

func (d *dropAfter) Unwrap() http.ResponseWriter { return d.ResponseWriter }

const page = `<!doctype html><title>events</title><script>
window.got = [];
const es = new EventSource(%q);
for (const type of %s) {
  es.addEventListener(type, e => window.got.push(Number(e.lastEventId)));
}
</script>`

func TestEventSourceReconnects(t *testing.T) {
	exe := chromium(t)
	f := newHost(t, "")
	id := f.create(t)
	for _, msg := range []string{"a status", "b status"} {
		if code, b := do(t, "POST", f.url+"/v1/conversations/"+id+"/turns", `{"message":"`+msg+`"}`); code != 200 {
			t.Fatalf("turn: %d %s", code, b)
		}
	}
	_, b := do(t, "GET", f.url+"/v1/conversations/"+id, "")
	total := decode[host.ConversationState](t, b).LastEventID

	// One origin serves the page and proxies the API to the host, dropping the first
	// events connection after five events.
	types := []string{host.EventResult, host.EventTurnFailed}
	for _, n := range event.Names() {
		types = append(types, string(n))
	}
	typesJSON, _ := json.Marshal(types)
	var mu sync.Mutex
	var lastIDs []string
	eventsPath := "/v1/conversations/" + id + "/events"
	mux := http.NewServeMux()
	mux.HandleFunc("GET /page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, page, eventsPath, typesJSON)
	})
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == eventsPath {
			mu.Lock()
			lastIDs = append(lastIDs, r.Header.Get("Last-Event-ID"))
			first := len(lastIDs) == 1
			mu.Unlock()
			if first {
				w = &dropAfter{ResponseWriter: w, n: 5}
			}
		}
		f.h.ServeHTTP(w, r)
	}))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// Chromium leaves its single-instance socket directory under $TMPDIR when it is stopped:
	// it gets a $TMPDIR of its own, removed after the browser (deferred first, so run last).
	tmp, err := os.MkdirTemp("", "agentfootprint-chromium")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp) // best effort: a crash handler may still be writing
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless,
		chromedp.Env("TMPDIR="+tmp))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	err = chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/page"),
		chromedp.Poll[chromedp.Void](fmt.Sprintf("window.got.length >= %d", total), chromedp.WithPollingTimeout(30*time.Second)),
		chromedp.Sleep(300*time.Millisecond), // time for a duplicate to show up, if one would
	)
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int64]("window.got"))
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	var want []int64
	for i := int64(1); i <= total; i++ {
		want = append(want, i)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("event ids the page received (-want +got):\n%s", d)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(lastIDs) < 2 || lastIDs[0] != "" || lastIDs[1] != "5" {
		t.Errorf("Last-Event-ID of the connections: %q, want \"\" then \"5\"", lastIDs)
	}
}
