// Tests of the page's content and size, on real records from lenstest.

package lens_test

import (
	"context"
	"encoding/json"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/lens"
	"github.com/agentfootprint/agentfootprint-go/lens/lenstest"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// fixture runs a lenstest builder once per test binary.
func fixture(build func(context.Context) (*record.Record, error)) func(testing.TB) *record.Record {
	once := sync.OnceValues(func() (*record.Record, error) { return build(context.Background()) })
	return func(t testing.TB) *record.Record {
		t.Helper()
		rec, err := once()
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
}

var (
	part1  = fixture(lenstest.DemoPart1)
	part2  = fixture(lenstest.DemoPart2)
	paused = fixture(lenstest.Paused)
	failed = fixture(lenstest.Failed)
	long   = fixture(func(ctx context.Context) (*record.Record, error) { return lenstest.Long(ctx, 200) })
)

func page(t testing.TB, rec *record.Record, opts ...lens.Option) string {
	t.Helper()
	b, err := lens.Page(rec, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section returns the HTML of the pane with id.
func section(t testing.TB, html, id string) string {
	t.Helper()
	i := strings.Index(html, `<section id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no section %q", id)
	}
	j := strings.Index(html[i:], "</section>")
	return html[i : i+j]
}

func mustContain(t *testing.T, where, html string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(html, w) {
			t.Errorf("%s lacks %q", where, w)
		}
	}
}

func TestDemoPart1(t *testing.T) {
	rec := part1(t)
	html := page(t, rec)
	answer := section(t, html, "answer")
	mustContain(t, "the answer pane", answer,
		`<span class="shape" aria-hidden="true">▲</span> not-sure</span>`,
		`data-reason="coverage-gap"`, `data-reason="period-not-held"`,
		"A search asked for time its store does not hold at all.",
		"logs older than 30 days — the store keeps 30 days")
	mustContain(t, "the context units", section(t, html, "units"),
		"iterations 1–2: on-tool-return; no result from recent_deploys in the previous batch",
		"iteration 3: on-tool-return; recent_deploys returned (call_deploys, iteration 2); placed in the system slot at position 1",
		"iterations 1–2: rule “the question is about errors” matched true; read userMessage ← seed#0; placed in the system slot at position 1")
	text := answer[strings.Index(answer, `<div class="answer-text">`):strings.Index(answer, `<pre class="limits">`)]
	if strings.Contains(text, "What this answer rests on") || !strings.Contains(text, "Checkout has been degraded since 09:04 UTC") {
		t.Errorf("the answer text is not the model's reply alone: %q", text)
	}
	// The search_logs call carries the not-held badge; the other calls none.
	story := section(t, html, "story")
	calls := regexp.MustCompile(`(?s)<div class="call" id="[^"]+" data-tool="([a-z_]+)">(.*?)</div>`).FindAllStringSubmatch(story, -1)
	got := map[string]bool{}
	for _, c := range calls {
		got[c[1]] = strings.Contains(c[2], "✖</span> not-held")
	}
	if want := map[string]bool{"service_status": false, "recent_deploys": false, "search_logs": true}; !equalMaps(got, want) {
		t.Errorf("not-held badge by tool = %v, want %v", got, want)
	}
	// The coverage table gives search_logs' period its verdict, which the
	// declaration does not store: coverage works it out from the spans.
	covRows := regexp.MustCompile(`(?s)<tr><td>([a-z_]+)</td>(.*?)</tr>`).FindAllStringSubmatch(section(t, html, "ground"), -1)
	periodBadge := map[string]bool{}
	for _, r := range covRows {
		if strings.Contains(r[2], "queried ") {
			periodBadge[r[1]] = strings.Contains(r[2], "✖</span> not-held")
		}
	}
	if !periodBadge["search_logs"] {
		t.Errorf("the coverage table's period rows %v: want search_logs with the not-held badge", periodBadge)
	}
	// The backtrack's first suspect is the one explain ranks first, with its
	// definition site.
	ch, err := explain.Backtrack(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	first := ch.Suspects[0]
	back := section(t, html, "backtrack")
	card := back[strings.Index(back, `<li id="suspect-1"`):strings.Index(back, `<li id="suspect-2"`)]
	site := first.Born.DefinedAt
	mustContain(t, "the first suspect's card", card, `data-unit="`+first.Unit+`"`, "recent_deploys",
		`<code class="site">`+site.File+":"+itoa(site.Line)+`</code>`, "BORN", "ALLOWED", "LANDED", "READ", "ANSWER")
	if first.Unit != "history/4" || !strings.HasSuffix(site.File, "scenario/build.go") {
		t.Errorf("first suspect %s defined at %s: the demo changed, update this test", first.Unit, site.File)
	}
	// The rewind highlights the first suspect's exact bytes.
	body, _ := rec.Blob(requestBlob(t, rec, ch.Answer.Commit))
	span := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(string(body[first.Landed.Span.Start:first.Landed.Span.End]))
	mustContain(t, "the rewind", back, `<mark class="span sus" id="span-history-4" data-tag="#1 history/4"`, span)
}

func TestDemoPart2DiffersLine(t *testing.T) {
	answer := section(t, page(t, part2(t)), "answer")
	limits := answer[strings.Index(answer, `<pre class="limits">`):]
	mustContain(t, "the limits block", limits, "search_logs read less than was asked", "America/Los_Angeles (UTC-07:00)")
	mustContain(t, "the answer pane", answer, `data-reason="period-differs-from-asked"`)
}

func TestPausedRun(t *testing.T) {
	html := page(t, paused(t))
	mustContain(t, "the page", html, `⏸</span> paused</span>`, "<b>The run is paused:</b> it waits for a person on <code>ask_approval</code>",
		"call <code>call_approve</code>, reason tool",
		"The run has no final answer; the backtrack starts at its last model call that returned, call-llm#")
}

func TestFailedRun(t *testing.T) {
	html := page(t, failed(t))
	answer := section(t, html, "answer")
	mustContain(t, "the answer pane", answer, `<div class="error" role="alert">`, lenstest.FailureMessage, "<code>call-llm#")
	mustContain(t, "the story", section(t, html, "story"), "The model call failed:", `✖</span> failed</span>`)
}

func TestSelfContained(t *testing.T) {
	for name, rec := range map[string]*record.Record{"part1": part1(t), "paused": paused(t), "failed": failed(t)} {
		html := page(t, rec)
		mustContain(t, name, html, `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`)
		if m := regexp.MustCompile(`(?i)<(link|img|iframe|object|embed|source|audio|video)\b|\bsrc=|\burl\(|@import`).FindString(html); m != "" {
			t.Errorf("%s: the page would fetch something: %q", name, m)
		}
		if m := regexp.MustCompile(`href="(https?:)?//`).FindString(html); m != "" {
			t.Errorf("%s: the page links out: %q", name, m)
		}
	}
}

// TestTextIsEscaped: text the model or a tool wrote cannot become markup.
func TestTextIsEscaped(t *testing.T) {
	rec := part1(t)
	evil := `</pre><script>alert(1)</script><img src=x onerror=alert(2)>&amp;`
	c := findCommit(t, rec.Log, "call-llm")
	saved := c.Ops
	t.Cleanup(func() { c.Ops = saved })
	ops := append([]flow.Op(nil), saved...)
	for i, op := range ops {
		if op.Key == "llmLatestContent" {
			ops[i].Value = evil
		}
	}
	c.Ops = ops
	html := page(t, rec)
	if strings.Contains(html, "<script>alert") || strings.Contains(html, "<img src=x") {
		t.Fatal("model text reached the page as markup")
	}
	mustContain(t, "the story", html, "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&amp;amp;")
}

func TestLongRunSize(t *testing.T) {
	rec := long(t)
	html := page(t, rec)
	unique := uniqueContentBytes(t, rec)
	ratio := float64(len(html)) / float64(unique)
	t.Logf("200 iterations: page %d bytes, unique content %d bytes, ratio %.2f", len(html), unique, ratio)
	if ratio > 2 {
		t.Errorf("page is %.2f× the run's unique content, want at most 2×", ratio)
	}
	steps := regexp.MustCompile(`<details class="step" id="step-\d+"( open)?>`).FindAllStringSubmatch(html, -1)
	open := 0
	for _, s := range steps {
		if s[1] != "" {
			open++
		}
	}
	if len(steps) != 201 || open != 1 {
		t.Errorf("%d steps, %d open; want 201 with only the answering one open", len(steps), open)
	}
	mustContain(t, "the story", section(t, html, "story"), lenstest.LongNeedle, `<details class="step" id="step-201" open>`)
}

func TestAblationShown(t *testing.T) {
	rec := part1(t)
	rep := &explain.Report{Format: explain.AblationFormat, Samples: 3, Baseline: explain.BaselineReport{Samples: 3, DistinctSamples: 1},
		Suspects: []explain.SuspectReport{{ID: "recent_deploys", Kind: "tool", Verdict: explain.VerdictConfirmed, Flips: 3, Samples: 3, Claim: "removing tool recent_deploys flipped 3 of 3"}}}
	back := section(t, page(t, rec, lens.WithAblation(rep)), "backtrack")
	card := back[strings.Index(back, `<li id="suspect-1"`):strings.Index(back, `<li id="suspect-2"`)]
	mustContain(t, "the first suspect's card", card, "✔</span> confirmed</span>", "3/3 flipped", "removing tool recent_deploys flipped 3 of 3")
	mustContain(t, "the backtrack", back, "<h3>Ablation</h3>", "0 of 3 baseline reruns flipped")
}

func TestRefusesNoRecord(t *testing.T) {
	if _, err := lens.Page(nil); err != lens.ErrNoRecord {
		t.Errorf("Page(nil) = %v, want ErrNoRecord", err)
	}
	if _, err := lens.Page(&record.Record{}); err != lens.ErrNoRecord {
		t.Errorf("Page(no log) = %v, want ErrNoRecord", err)
	}
}

// uniqueContentBytes is the size of the run's content, each distinct text
// counted once: the person's message and every history message, the tool
// call arguments, the context unit texts, the answer, and the ledger and
// coverage rows as JSON. Request bodies are not content: they repeat it.
func uniqueContentBytes(t testing.TB, rec *record.Record) int {
	t.Helper()
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" {
			seen[s] = true
		}
	}
	last := len(rec.Log.Commits) - 1
	values, err := flow.Materialise(rec.Log, last)
	if err != nil {
		t.Fatal(err)
	}
	var hist []llm.Message
	convert(t, values["history"], &hist)
	for _, m := range hist {
		add(m.Content)
		for _, c := range m.ToolCalls {
			add(string(c.Args))
		}
	}
	var cat []struct{ Content string }
	convert(t, values["contextCatalog"], &cat)
	for _, e := range cat {
		add(e.Content)
	}
	for _, k := range []string{"finalContent", "userMessage"} {
		var s string
		convert(t, values[k], &s)
		add(s)
	}
	for _, k := range []string{"findingsLedger", "coverageDeclared"} {
		if v, ok := values[k]; ok {
			b, _ := json.Marshal(v)
			add(string(b))
		}
	}
	n := 0
	for s := range seen {
		n += len(s)
	}
	return n
}

func convert(t testing.TB, v, out any) {
	t.Helper()
	if v == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

func findCommit(t testing.TB, log *flow.Record, stage string) *flow.Commit {
	t.Helper()
	for i := len(log.Commits) - 1; i >= 0; i-- {
		if c := log.Commits[i]; c.CommitDetail != nil && c.StageID == stage {
			return c
		}
	}
	t.Fatalf("no %s commit", stage)
	return nil
}

func requestBlob(t testing.TB, rec *record.Record, commit int) string {
	t.Helper()
	var req state.LLMRequest
	for _, op := range rec.Log.Commits[commit].Ops {
		if op.Key == "llmRequest" {
			convert(t, op.Value, &req)
		}
	}
	if req.Request.Blob == "" {
		t.Fatal("the answering call kept no request bytes")
	}
	return req.Request.Blob
}

func equalMaps(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
