// This file holds Check: the expectations a scenario file pins, compared with a run.

package scenario

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Mismatch is one expectation that did not hold, or one tool call the scenario had no
// canned result for. Path names the field of the file (`expect.toolCalls[1]`).
type Mismatch struct {
	Path    string `json:"path"`
	Problem string `json:"problem"`
}

// String renders the mismatch as "path: problem".
func (m Mismatch) String() string { return m.Path + ": " + m.Problem }

// Check compares the run with the file's expect section and returns every mismatch, in the
// order the section lists its keys, after the calls that found no canned result. An empty
// result means every expectation held; a file without expect checks only the canned results.
func (r *Report) Check() []Mismatch {
	out := append([]Mismatch(nil), r.Problems...)
	e := r.expect
	if e == nil {
		return out
	}
	add := func(path, format string, args ...any) {
		out = append(out, Mismatch{Path: path, Problem: fmt.Sprintf(format, args...)})
	}
	if e.answer != nil && r.Answer != *e.answer {
		add("expect.answer", "want %q, got %q", *e.answer, r.Answer)
	}
	for i, s := range e.answerContains {
		if !strings.Contains(r.Answer, s) {
			add(index("expect.answerContains", i), "the answer does not contain %q", s)
		}
	}
	if e.toolCalls != nil {
		for i, w := range e.toolCalls {
			p := index("expect.toolCalls", i)
			if i >= len(r.ToolCalls) {
				add(p, "want a call of %s as call %d; the agent dispatched %d in all", w.name, i+1, len(r.ToolCalls))
				continue
			}
			got := r.ToolCalls[i]
			if got.Name != w.name {
				add(p, "want a call of %s, got %s", w.name, got.Name)
				continue
			}
			if w.args != nil {
				want, _ := rawJSON(w.args)
				if !jsonEqual(want, got.Args) {
					add(join(p, "args"), "want %s, got %s", want, compact(got.Args))
				}
			}
		}
		if extra := len(r.ToolCalls) - len(e.toolCalls); extra > 0 {
			var names []string
			for _, c := range r.ToolCalls[len(e.toolCalls):] {
				names = append(names, c.Name)
			}
			add("expect.toolCalls", "want %d calls; the agent dispatched %d more: %s", len(e.toolCalls), extra, strings.Join(names, ", "))
		}
	}
	if e.checkStatuses {
		got := make([]string, len(r.ToolCalls))
		for i, c := range r.ToolCalls {
			got[i] = string(c.Status)
		}
		if len(got) != len(e.statuses) {
			add("expect.statuses", "want %d statuses %s, got %d %s", len(e.statuses), words(e.statuses), len(got), words(got))
		} else {
			for i := range got {
				if got[i] != e.statuses[i] {
					add(index("expect.statuses", i), "want %q, got %q (call %s of %s)", e.statuses[i], got[i], r.ToolCalls[i].ID, r.ToolCalls[i].Name)
				}
			}
		}
	}
	if e.iterations > 0 && r.Iterations != e.iterations {
		add("expect.iterations", "want %d, got %d", e.iterations, r.Iterations)
	}
	if e.standing != "" || e.reasons != nil {
		var got string
		gotReasons := []string{}
		if r.Standing != nil {
			got = r.Standing.Standing
			for _, rs := range r.Standing.Reasons {
				gotReasons = append(gotReasons, rs.Reason)
			}
		}
		switch {
		case r.Standing == nil:
			add("expect.standing", "the run has no standing: arm the results layer with \"agent\": {\"resultsLayer\": true}")
		default:
			if e.standing != "" && got != e.standing {
				add("expect.standing", "want %q, got %q", e.standing, got)
			}
			if e.reasons != nil && words(e.reasons) != words(gotReasons) {
				add("expect.reasons", "want %s, got %s", words(e.reasons), words(gotReasons))
			}
		}
	}
	return out
}

func words(ss []string) string {
	b, _ := json.Marshal(ss)
	return string(b)
}
