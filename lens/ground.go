// What the answer rests on: the findings ledger as a table, and the coverage
// rows each tool declared (checked, not checked, cannot cover, period).

package lens

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/coverage"
)

// ledgerRow is one findings ledger row in the table's columns; Detail holds
// the row's other fields as compact JSON.
type ledgerRow struct {
	Index                      int
	Kind, Tool, Call, Argument string
	Verdict                    badge
	Turn, Iteration            string
	Detail                     string
	CallAnchor                 string
}

// coverageRow is one tool result's declared ground.
type coverageRow struct {
	Tool, Call, Iteration       string
	Checked, NotChecked, Cannot []string
	Period                      string
	Verdict                     badge
	CallAnchor                  string
}

// ledgerColumns are the fields the table shows in their own columns.
var ledgerColumns = []string{"kind", "toolName", "toolCallId", "verdict", "argument", "turn", "iteration"}

// groundOf reads the ledger and the coverage rows as of the last commit.
// anchors maps a tool call id to its place in the story.
func groundOf(rec *record.Record, anchors map[string]string) ([]ledgerRow, []coverageRow) {
	var out []ledgerRow
	rows, _ := finalValue[[]map[string]any](rec.Log, keyLedger)
	for i, r := range rows {
		lr := ledgerRow{Index: i, Kind: str(r["kind"]), Tool: str(r["toolName"]), Call: str(r["toolCallId"]),
			Argument: str(r["argument"]), Turn: num(r["turn"]), Iteration: num(r["iteration"]), CallAnchor: anchors[str(r["toolCallId"])]}
		lr.Verdict = verdictBadge(str(r["verdict"]))
		rest := map[string]any{}
		for k, v := range r {
			if !slices.Contains(ledgerColumns, k) {
				rest[k] = v
			}
		}
		if len(rest) > 0 {
			if b, err := json.Marshal(rest); err == nil {
				lr.Detail = string(b)
			}
		}
		out = append(out, lr)
	}
	var cov []coverageRow
	decl, _ := finalValue[[]map[string]any](rec.Log, keyCoverage)
	for _, d := range decl {
		cr := coverageRow{Tool: str(d["toolName"]), Call: str(d["toolCallId"]), Iteration: num(d["iteration"]),
			Checked: items(d["checked"]), NotChecked: items(d["notChecked"]), Cannot: items(d["cannotCover"]),
			CallAnchor: anchors[str(d["toolCallId"])]}
		if p, ok := d["period"].(map[string]any); ok {
			cr.Period = periodText(p)
			cr.Verdict = verdictBadge(periodVerdict(p))
		}
		cov = append(cov, cr)
	}
	return out, cov
}

// periodVerdict is the verdict coverage gives the recorded period p (a
// declaration keeps the spans, not the verdict), "" when p does not read
// as a period.
func periodVerdict(p map[string]any) string {
	b, err := json.Marshal(p)
	if err != nil {
		return ""
	}
	var per coverage.Period
	if json.Unmarshal(b, &per) != nil {
		return ""
	}
	v, err := coverage.VerdictOf(per)
	if err != nil {
		return ""
	}
	return string(v)
}

// items prints a list of coverage items ({what, why}) one per line.
func items(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, it := range list {
		m, _ := it.(map[string]any)
		s := str(m["what"])
		if why := str(m["why"]); why != "" {
			s += " — " + why
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// periodText says a declared period in one line.
func periodText(p map[string]any) string {
	s := ""
	if q := span(p["queried"]); q != "" {
		s = "queried " + q
	}
	if h := span(p["held"]); h != "" {
		if s != "" {
			s += "; "
		}
		s += "the store holds " + h
	}
	if at := str(p["readAt"]); at != "" {
		s += "; read at " + at
	}
	return s
}

// span prints {from, to}.
func span(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s to %s", str(m["from"]), str(m["to"]))
}

// num prints a JSON number (float64 after decoding) as an integer when it is
// one.
func num(v any) string {
	switch n := v.(type) {
	case float64:
		if n == float64(int64(n)) {
			return strconv.FormatInt(int64(n), 10)
		}
		return strconv.FormatFloat(n, 'g', -1, 64)
	case string:
		return n
	}
	return ""
}
