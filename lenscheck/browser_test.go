// The lens in a real browser: one test per case of issue 17, each on a real
// record rendered to a file and opened in headless Chromium.

package lenscheck

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/lens"
	"github.com/agentfootprint/agentfootprint-go/lens/lenstest"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

var docs = flag.Bool("docs", false, "write the per-pane screenshots of docs/LENS.md (docs/lens-*.png)")

// chromium returns the path of an installed Chromium or Chrome, or "".
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts one headless Chromium for the test. Outside CI it skips when
// none is installed; in CI (CI=true) that is a failure.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromium()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but no chromium is installed; .ci/run installs Debian's chromium")
		}
		t.Skip("no chromium installed (apt-get install chromium fonts-dejavu-core); the browser tests run in CI")
	}
	// Chromium makes its single-instance socket in a directory of its own under $TMPDIR and
	// leaves it there when it is stopped, one per browser started; so it gets a $TMPDIR of
	// its own, removed after the browser (cleanups run last first).
	tmp, err := os.MkdirTemp("", "agentfootprint-chromium")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) }) // best effort: a crash handler may still be writing
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.WindowSize(1280, 800),
		chromedp.Env("TMPDIR="+tmp))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return bctx
}

// screens is where the screenshots of each case go.
func screens(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(os.TempDir(), "agentfootprint-lens")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// tab is one opened page and the requests it made.
type tab struct {
	ctx  context.Context
	url  string
	mu   sync.Mutex
	reqs []string
}

// requests returns the URLs the page asked for.
func (tb *tab) requests() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return slices.Clone(tb.reqs)
}

// open writes the page of rec to a file and opens it in a new tab at
// width×height, with network events recorded from before the navigation.
func open(t *testing.T, bctx context.Context, name string, rec *record.Record, width, height int64, scriptOff bool) *tab {
	t.Helper()
	page, err := lens.Page(rec)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), name+".html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	tb := &tab{url: (&url.URL{Scheme: "file", Path: file}).String()}
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			tb.mu.Lock()
			tb.reqs = append(tb.reqs, e.Request.URL)
			tb.mu.Unlock()
		}
	}))
	t.Cleanup(cancel)
	tb.ctx = ctx
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if scriptOff {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(tb.url), chromedp.WaitReady(chromedp.CSS("footer"))); err != nil {
		t.Fatal(err)
	}
	return tb
}

// eval runs a JavaScript expression in the tab and returns its value.
func eval[T any](t *testing.T, tb *tab, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// noNetwork checks the page asked for nothing but its own file.
func noNetwork(t *testing.T, tb *tab) {
	t.Helper()
	reqs := tb.requests()
	if !slices.Contains(reqs, tb.url) {
		t.Errorf("the network log did not see the page itself (%v): the check would be blind", reqs)
	}
	for _, u := range reqs {
		if u != tb.url {
			t.Errorf("the page requested %s", u)
		}
	}
}

// shoot writes a screenshot of the viewport under the screens directory.
func shoot(t *testing.T, tb *tab, name string) {
	t.Helper()
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(screens(t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// timing logs when the page's DOM was ready and when its load event ended
// (headless Chromium reports no paint entries for a file page).
func timing(t *testing.T, tb *tab, name string) {
	t.Helper()
	dcl := eval[float64](t, tb, `performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd`)
	load := eval[float64](t, tb, `performance.getEntriesByType('navigation')[0].loadEventEnd`)
	t.Logf("%s: DOMContentLoaded %.0f ms, load event end %.0f ms after navigation start", name, dcl, load)
}

// noOverflow checks nothing is wider than the viewport (readable without
// sideways scrolling; wide tables scroll inside their own box).
func noOverflow(t *testing.T, tb *tab) {
	t.Helper()
	if w := eval[float64](t, tb, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("the page is %v px wider than the viewport", w)
	}
}

func TestDemoPart1(t *testing.T) {
	bctx := browser(t)
	rec, err := lenstest.DemoPart1(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ch, err := explain.Backtrack(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	tb := open(t, bctx, "demo-part1", rec, 1280, 800, false)
	timing(t, tb, "demo part 1")
	if got := eval[string](t, tb, `document.querySelector('#answer .standing .badge').innerText`); !strings.Contains(got, "not-sure") {
		t.Errorf("standing badge reads %q", got)
	}
	reasons := eval[[]string](t, tb, `[...document.querySelectorAll('#answer li[data-reason]')].map(e => e.dataset.reason)`)
	if !slices.Equal(reasons, []string{"coverage-gap", "period-not-held"}) {
		t.Errorf("reasons = %v", reasons)
	}
	badges := eval[map[string]string](t, tb, `Object.fromEntries([...document.querySelectorAll('.call[data-tool]')].map(c => [c.dataset.tool, (c.querySelector('.verdict .badge') || {innerText: ''}).innerText]))`)
	if want := map[string]string{"service_status": "", "recent_deploys": "", "search_logs": "✖ not-held"}; fmt.Sprint(badges) != fmt.Sprint(want) {
		t.Errorf("verdict badges = %q, want %q", badges, want)
	}
	first := ch.Suspects[0]
	site := fmt.Sprintf("%s:%d", first.Born.DefinedAt.File, first.Born.DefinedAt.Line)
	if got := eval[string](t, tb, `document.querySelector('#suspect-1').dataset.unit`); got != first.Unit {
		t.Errorf("first suspect %q, want %q", got, first.Unit)
	}
	if got := eval[string](t, tb, `document.querySelector('#suspect-1 .born .site').innerText`); got != site {
		t.Errorf("first suspect defined at %q, want %q", got, site)
	}
	if got := eval[string](t, tb, `document.querySelector('#span-`+strings.ReplaceAll(first.Unit, "/", "-")+`').className`); got != "span sus" {
		t.Errorf("the rewind does not highlight the first suspect's span (class %q)", got)
	}
	if *docs {
		paneShots(t, tb)
	}
	// Stage ids are hidden until asked for, with a key or the toggle.
	if got := eval[string](t, tb, `getComputedStyle(document.querySelector('.sid')).display`); got != "none" {
		t.Errorf("stage ids shown by default (display %s)", got)
	}
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent("s")); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, tb, `getComputedStyle(document.querySelector('span.sid')).display`); got != "inline" {
		t.Errorf("the s key did not show the stage ids (display %s)", got)
	}
	// j moves to the first step.
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent("j")); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, tb, `document.querySelector('details.step.current').id`); got != "step-1" {
		t.Errorf("j focused %q, want step-1", got)
	}
	noNetwork(t, tb)
	noOverflow(t, tb)
	shoot(t, tb, "demo-part1-1280")

	phone := open(t, bctx, "demo-part1-phone", rec, 390, 844, false)
	noOverflow(t, phone)
	shoot(t, phone, "demo-part1-phone")

	// With scripting off everything but search and collapse works: the
	// content is there, folded parts open natively, search stays hidden.
	off := open(t, bctx, "demo-part1-noscript", rec, 1280, 800, true)
	if got := eval[bool](t, off, `document.getElementById('search').hidden`); !got {
		t.Error("the search form shows with scripting off")
	}
	if got := eval[string](t, off, `document.querySelector('#answer .standing').innerText`); !strings.Contains(got, "not-sure") {
		t.Errorf("standing with scripting off: %q", got)
	}
	if err := chromedp.Do(off.ctx, chromedp.Click(chromedp.CSS(".call[data-tool=search_logs] details.served summary"))); err != nil {
		t.Fatal(err)
	}
	if !eval[bool](t, off, `document.querySelector('.call[data-tool=search_logs] details.served').open`) {
		t.Error("a folded result does not open with scripting off")
	}
	noNetwork(t, off)
	shoot(t, off, "demo-part1-noscript")
}

func TestDemoPart2(t *testing.T) {
	bctx := browser(t)
	rec, err := lenstest.DemoPart2(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tb := open(t, bctx, "demo-part2", rec, 1280, 800, false)
	limits := eval[string](t, tb, `document.querySelector('#answer pre.limits').innerText`)
	var line string
	for _, l := range strings.Split(limits, "\n") {
		if strings.Contains(l, "read less than was asked") {
			line = l
		}
	}
	if !strings.Contains(line, "America/Los_Angeles (UTC-07:00)") {
		t.Errorf("the differs line %q is not in the person's zone; limits:\n%s", line, limits)
	}
	noNetwork(t, tb)
	shoot(t, tb, "demo-part2")
}

func TestPausedRun(t *testing.T) {
	bctx := browser(t)
	rec, err := lenstest.Paused(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tb := open(t, bctx, "paused", rec, 1280, 800, false)
	if got := eval[string](t, tb, `document.querySelector('#answer .paused').innerText`); !strings.Contains(got, "waits for a person on ask_approval") {
		t.Errorf("paused block reads %q", got)
	}
	if got := eval[string](t, tb, `document.querySelector('h1 .badge').innerText`); got != "⏸ paused" {
		t.Errorf("status badge %q", got)
	}
	noNetwork(t, tb)
	shoot(t, tb, "paused")
}

func TestFailedRun(t *testing.T) {
	bctx := browser(t)
	rec, err := lenstest.Failed(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tb := open(t, bctx, "failed", rec, 1280, 800, false)
	if got := eval[string](t, tb, `document.querySelector('#answer .error-text').innerText`); !strings.Contains(got, lenstest.FailureMessage) {
		t.Errorf("error sentence %q lacks %q", got, lenstest.FailureMessage)
	}
	noNetwork(t, tb)
	shoot(t, tb, "failed")
}

func TestLongRun(t *testing.T) {
	bctx := browser(t)
	rec, err := lenstest.Long(context.Background(), 200)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	tb := open(t, bctx, "long", rec, 1280, 800, false)
	t.Logf("200 iterations: opened in %v (render, write, navigate, DOM ready)", time.Since(start).Round(time.Millisecond))
	timing(t, tb, "200 iterations")
	if n := eval[int](t, tb, `document.querySelectorAll('details.step[open]').length`); n != 1 {
		t.Errorf("%d steps open, want only the answering one", n)
	}
	// Search finds the last tool call's argument, opening its folded step.
	// "/" moves the focus to the search box. (CDP delivers the key's text
	// even when the page cancels the keydown, so the box is cleared before
	// typing, which a keyboard does not need.)
	if err := chromedp.Do(tb.ctx, chromedp.KeyEvent("/")); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, tb, `document.activeElement.id`); got != "q" {
		t.Errorf("/ focused %q, want the search box", got)
	}
	if err := chromedp.Do(tb.ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById('q').value = ''`), chromedp.KeyEvent(lenstest.LongNeedle)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](`document.getElementById('hits').textContent.includes(' of ')`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("search showed no match: %v (hits %q)", err, eval[string](t, tb, `document.getElementById('hits').textContent`))
	}
	hit := eval[map[string]any](t, tb, `(() => { const m = document.querySelector('mark.hit.cur'); const s = m.closest('details.step');
		return {step: s.id, open: s.open, inCall: document.querySelectorAll('#step-200-call-1 mark.hit').length}; })()`)
	if hit["step"] != "step-200" || hit["open"] != true || hit["inCall"].(float64) < 1 {
		t.Errorf("the first match is %v, want it in the open step-200, whose tool call matches too", hit)
	}
	noNetwork(t, tb)
	shoot(t, tb, "long-search")
}

// paneShots writes one screenshot per pane to docs/ (and one of the rewind,
// which sits low in the backtrack pane), each the viewport scrolled to it,
// and checks each stays under 200 KB.
func paneShots(t *testing.T, tb *tab) {
	t.Helper()
	for _, pane := range []string{"answer", "story", "ground", "backtrack", "rewind", "units"} {
		// The rewind is dense text, which compresses badly: a shorter view
		// keeps its PNG under the cap.
		height := int64(800)
		if pane == "rewind" {
			height = 600
		}
		if err := chromedp.Do(tb.ctx, chromedp.EmulateViewport(1280, height),
			chromedp.Evaluate[chromedp.Void](`document.getElementById('`+pane+`').scrollIntoView({block: 'start'})`), chromedp.Sleep(100*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if len(png) > 200<<10 {
			t.Errorf("the %s screenshot is %d KB, over 200 KB", pane, len(png)>>10)
		}
		path := filepath.Join("..", "docs", "lens-"+pane+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("docs screenshot %s: %d KB", path, len(png)>>10)
	}
	if err := chromedp.Do(tb.ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}
}
