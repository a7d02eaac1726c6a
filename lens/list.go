// The run list: one line per stored run, newest first, with how it ended,
// its standing, the head of its answer and the tools it called.

package lens

import (
	"bytes"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/store"
	"html/template"
	"io"
	"slices"
	"time"
)

// runSummary is one line of the run list.
type runSummary struct {
	ID        string
	StartedAt time.Time
	Status    string
	Standing  string
	Answer    string // the head of the answer, on one line
	Tools     []string
	// Err says why the run's record could not be read, when it could not.
	Err string
}

// summarize makes the list line of a stored run from its header and record
// (rec may be nil when it could not be decoded; Err then says so).
func summarize(info store.RunInfo, rec *record.Record) runSummary {
	s := runSummary{ID: info.ID, StartedAt: info.StartedAt, Status: string(info.Status), Answer: oneLine(info.Answer, 120)}
	if rec == nil {
		return s
	}
	if a, ok := assessmentOf(rec); ok {
		s.Standing = a.Standing
	}
	for _, e := range rec.Events.All() {
		if e.Type != event.ToolsStart {
			continue
		}
		if p, ok := payloadAs[event.ToolsStartPayload](e); ok && !slices.Contains(s.Tools, p.ToolName) {
			s.Tools = append(s.Tools, p.ToolName)
		}
	}
	return s
}

// listPage is the view of the list.
type listPage struct {
	CSP   string
	CSS   template.CSS
	Where string
	Runs  []listLine
	Base  string
}

type listLine struct {
	runSummary
	Started         string
	StatusB, StandB badge
}

// renderList writes the run list page: runs in the order given (ListRuns
// returns newest first), each linking to base + its id.
func renderList(w io.Writer, where, base string, runs []runSummary) error {
	css, err := assets.ReadFile("assets/lens.css")
	if err != nil {
		return fmt.Errorf("lens: %w", err)
	}
	p := listPage{CSP: contentSecurityPolicy, CSS: template.CSS(css), Where: where, Base: base}
	for _, r := range runs {
		l := listLine{runSummary: r, Started: r.StartedAt.UTC().Format(time.DateTime), StatusB: statusBadge(r.Status)}
		if r.Standing != "" {
			l.StandB = standingBadge(r.Standing)
		}
		p.Runs = append(p.Runs, l)
	}
	t, err := parsed()
	if err != nil {
		return fmt.Errorf("lens: %w", err)
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "list.html", p); err != nil {
		return fmt.Errorf("lens: rendering the run list: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// oneLine puts s on one line and cuts it to n runes.
func oneLine(s string, n int) string {
	out := make([]rune, 0, n)
	space := false
	for _, r := range s {
		if r == '\n' || r == '\t' || r == '\r' || r == ' ' {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
		if len(out) >= n {
			return string(out) + "…"
		}
	}
	return string(out)
}
