// This file checks `agentfootprint lens`: the command demo and explain print writes the run's
// page, --record and --ablation read files, and --serve refuses addresses other hosts reach.

package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestLensStoredDemoRun(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	out, errText, code := runCLI(t, "", "demo", "--part", "1", "--store", db)
	if code != 0 {
		t.Fatalf("demo: exit %d: %s", code, errText)
	}
	m := regexp.MustCompile(`agentfootprint lens (run-[0-9a-f]{16}) --store (\S+)`).FindStringSubmatch(out)
	if m == nil || m[2] != db {
		t.Fatalf("demo printed no lens command:\n%s", out)
	}
	id := m[1]
	text, _, code := runCLI(t, "", "explain", id, "--store", db)
	if code != 0 || !strings.Contains(text, "agentfootprint lens "+id+" --store "+db+"   shows this run as a web page") {
		t.Errorf("explain does not name the lens command:\n%s", text)
	}
	page := filepath.Join(dir, "p1.html")
	out, errText, code = runCLI(t, "", "lens", id, "--store", db, "-o", page)
	if code != 0 || !strings.HasPrefix(out, "Wrote "+page+" (") {
		t.Fatalf("lens: exit %d: %s%s", code, out, errText)
	}
	html := lensReadFile(t, page)
	for _, want := range []string{`<h1>Run <code>` + id + `</code>`, `data-reason="coverage-gap"`, `data-reason="period-not-held"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}

	// The same run from a record file, with a real ablation report.
	rec, _, code := runCLI(t, "", "show", id, "--store", db, "--json")
	recPath := filepath.Join(dir, "record.json")
	lensWriteFile(t, recPath, rec)
	abl, errText, code2 := runCLI(t, "", "ablate", id, "--store", db, "--without", "tool:recent_deploys", "--json")
	if code != 0 || code2 != 0 {
		t.Fatalf("show/ablate: exit %d/%d: %s", code, code2, errText)
	}
	ablPath := filepath.Join(dir, "ablation.json")
	lensWriteFile(t, ablPath, abl)
	out, errText, code = runCLI(t, "", "lens", "--record", recPath, "--ablation", ablPath, "-o", "-")
	if code != 0 || !strings.Contains(out, "<h3>Ablation</h3>") || !strings.Contains(out, "<code>tool:recent_deploys</code>") {
		t.Errorf("lens --record --ablation: exit %d, %s; the ablation is not on the page", code, errText)
	}
	if text, _, _ := runCLI(t, "", "explain", recPath); !strings.Contains(text, "agentfootprint lens --record "+recPath) {
		t.Errorf("explain FILE does not name lens --record:\n%s", text)
	}
}

func TestLensRefusals(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	lensWriteFile(t, bad, `{"format":"agentfootprint-go.backtrack/1"}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"lens"}, "name one run id, or a record file with --record"},
		{[]string{"lens", "run-x", "--record", bad}, "name one run id, or a record file with --record"},
		{[]string{"lens", "--record", bad}, "is not \"agentfootprint-go.record/4\""},
		{[]string{"lens", "--record", bad, "--ablation", bad}, "--ablation " + bad},
		{[]string{"lens", "--serve", "run-x"}, "--serve takes no run"},
		{[]string{"lens", "--serve", "--addr", "0.0.0.0:7788"}, "reachable from other hosts"},
		{[]string{"lens", "--serve", "--addr", ":7788"}, "reachable from other hosts"},
		{[]string{"lens", "--serve", "--addr", "7788"}, "want host:port"},
	} {
		_, errText, code := runCLI(t, "", c.args...)
		if code != 2 || !strings.Contains(errText, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q", c.args, code, errText, c.want)
		}
	}
	for _, ok := range []string{"127.0.0.1:0", "localhost:7788", "[::1]:7788"} {
		if err := checkLensAddr(ok, false); err != nil {
			t.Errorf("checkLensAddr(%s) = %v", ok, err)
		}
	}
	if err := checkLensAddr("0.0.0.0:7788", true); err != nil {
		t.Errorf("checkLensAddr with --allow-remote = %v", err)
	}
}

// TestLensServe starts the viewer on a free loopback port, reads the list, and stops it by
// cancelling the command's context.
func TestLensServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "runs.db")
	if _, errText, code := runCLI(t, "", "demo", "--part", "2", "--store", db); code != 0 {
		t.Fatalf("demo: %s", errText)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCmd()
	pr, pw := io.Pipe()
	var errb bytes.Buffer
	root.SetOut(pw)
	root.SetErr(&errb)
	root.SetArgs([]string{"lens", "--serve", "--store", db, "--addr", "127.0.0.1:0"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx); pw.Close() }()
	line := make([]byte, 512)
	n, _ := pr.Read(line)
	go io.Copy(io.Discard, pr)
	m := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/lens/`).FindSubmatch(line[:n])
	if m == nil {
		cancel()
		t.Fatalf("serve printed %q, stderr %q", line[:n], errb.String())
	}
	client := &http.Client{Timeout: 10 * time.Second}
	res, err := client.Get("http://" + string(m[1]) + "/lens/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "clamped-lookback") && !strings.Contains(string(body), "<tr data-run=\"run-") {
		t.Errorf("GET /lens/: %d\n%s", res.StatusCode, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve ended with %v (stderr %q)", err, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop when its context ended")
	}
}

func lensReadFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func lensWriteFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
