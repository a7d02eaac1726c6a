// Building and writing the page: the view of a whole run, the options, and
// Render.

package lens

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"html/template"
	"io"
	"strings"
	"sync"
)

//go:embed assets/page.html assets/list.html assets/lens.css assets/lens.js
var assets embed.FS

// ErrNoRecord refuses a nil record or one without a commit log.
var ErrNoRecord = errors.New("lens: the record is nil or has no commit log")

// contentSecurityPolicy is the policy every lens page carries (as a meta tag,
// and as a header when NewHandler's handler serves it): inline style and script only, no
// fetch of any kind, so a page opened from disk contacts nothing.
const contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

// openSteps is the longest story shown unfolded; a longer one folds every
// step but the one that answered (or the last).
const openSteps = 8

// Option configures Render.
type Option func(*options)

type options struct {
	ablation *explain.Report
	listURL  string
}

// WithAblation adds an ablation report (explain.Probe's, or DecodeAblation of
// `agentfootprint ablate --json`) to the backtrack pane: its verdict shows on
// each suspect it probed.
func WithAblation(rep *explain.Report) Option { return func(o *options) { o.ablation = rep } }

// withListLink adds a link back to a run list at url (NewHandler's pages carry it).
func withListLink(url string) Option { return func(o *options) { o.listURL = url } }

// page is the whole view of one run.
type page struct {
	CSP        string
	CSS        template.CSS
	JS         template.JS
	ListURL    string
	RunID      string
	Manifest   record.Manifest
	Status     badge
	Question   string
	Answer     answerView
	Steps      []step
	Folded     bool
	Calls      int
	Ledger     []ledgerRow
	Coverage   []coverageRow
	Back       backtrackView
	Units      []unitView
	Tools      []toolDef
	Retrievals []retrievalView
	Dropped    int
}

// build reads everything the page shows from rec.
func build(rec *record.Record, o options) (*page, error) {
	if rec == nil || rec.Log == nil {
		return nil, ErrNoRecord
	}
	css, err := assets.ReadFile("assets/lens.css")
	if err != nil {
		return nil, fmt.Errorf("lens: %w", err)
	}
	js, err := assets.ReadFile("assets/lens.js")
	if err != nil {
		return nil, fmt.Errorf("lens: %w", err)
	}
	status := statusOf(rec)
	p := &page{CSP: contentSecurityPolicy, CSS: template.CSS(css), JS: template.JS(js), ListURL: o.listURL,
		RunID: rec.Manifest.RunID, Manifest: rec.Manifest, Status: statusBadge(status), Dropped: rec.DroppedEvents}
	if p.RunID == "" {
		p.RunID = rec.Log.RunID
	}
	p.Question, p.Steps = storyOf(rec)
	storyAnchors := map[string]string{}
	last := -1
	for i := range p.Steps {
		s := &p.Steps[i]
		storyAnchors[s.Stage] = s.Anchor
		for _, c := range s.Calls {
			storyAnchors[c.ID] = c.Anchor
		}
		p.Calls += len(s.Calls)
		if s.Final {
			last = i
		}
	}
	if last < 0 {
		last = len(p.Steps) - 1
	}
	p.Folded = len(p.Steps) > openSteps
	for i := range p.Steps {
		p.Steps[i].Open = !p.Folded || i == last
	}
	// History elements are named history/<i> in the backtrack; map the tool
	// messages to their calls so a suspect links to its step.
	if hist, ok := finalValue[[]struct {
		ToolCallID string `json:"toolCallId"`
	}](rec.Log, keyHistory); ok {
		for i, m := range hist {
			if a, ok := storyAnchors[m.ToolCallID]; ok && m.ToolCallID != "" {
				storyAnchors[keyHistory+"/"+fmt.Sprint(i)] = a
			}
		}
	}
	p.Answer = answerOf(rec, status, p.Steps)
	p.Ledger, p.Coverage = groundOf(rec, storyAnchors)
	p.Units, p.Tools, p.Retrievals = unitsOf(rec)
	unitAnchors := map[string]string{}
	for _, u := range p.Units {
		unitAnchors[u.ID] = u.Anchor
	}
	p.Back = backtrackOf(rec, p.Steps, storyAnchors, unitAnchors, o.ablation)
	return p, nil
}

// parsed is the embedded templates, parsed once.
var parsed = sync.OnceValues(templates)

// templates parses the embedded templates.
func templates() (*template.Template, error) {
	t := template.New("lens").Funcs(template.FuncMap{
		"text":    textHTML,
		"verdict": verdictBadge,
		"join":    strings.Join,
		"inc":     func(n int) int { return n + 1 },
	})
	return t.ParseFS(assets, "assets/page.html", "assets/list.html")
}

// Render writes the page of rec to w: one self-contained HTML document. It
// refuses a nil record or one without a commit log; a record whose parts
// cannot be read (no answer, no request bytes) still renders, saying what is
// missing.
func Render(w io.Writer, rec *record.Record, opts ...Option) error {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	p, err := build(rec, o)
	if err != nil {
		return err
	}
	t, err := parsed()
	if err != nil {
		return fmt.Errorf("lens: %w", err)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "page.html", p); err != nil {
		return fmt.Errorf("lens: rendering run %s: %w", p.RunID, err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// Page returns the page of rec as bytes (see Render).
func Page(rec *record.Record, opts ...Option) ([]byte, error) {
	var buf bytes.Buffer
	if err := Render(&buf, rec, opts...); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
