// The trace toolpack: tools a debugger model calls to read a
// finished run without being handed the whole record. Trace content is data
// for the debugger, never instructions.

package explain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"slices"
	"strings"
	"unicode/utf8"
)

// Toolpack caps: defaults and hard limits.
const (
	suspectsDefault, suspectsMax     = 6, 20
	hitsDefault, hitsMax             = 10, 25
	previewChars                     = 160
	sliceDepthDefault, sliceDepthMax = 6, 20
	sliceNodesDefault, sliceNodesMax = 25, 100
	valueCharsDefault, valueCharsMax = 2000, 8000
	enumLimit                        = 60 // step ids listed in schemas of small runs
	untrackedMark                    = "⚠"
	neverRecorded                    = "values a stage read from its environment (Scope.Env), values captured in closures, and redacted keys never enter the record"
)

// Toolpack returns the trace tools over an agent run record: run_overview,
// explain_answer, find_in_trace, trace_node, trace_slice, backtrack,
// who_wrote, get_value and inspect_tool_call.
func Toolpack(rec *record.Record) ([]*tool.Tool, error) {
	if rec == nil || rec.Log == nil {
		return nil, ErrNoRecord
	}
	return toolpack(rec.Log, rec)
}

// FlowToolpack returns the trace tools over a bare flow record (a chart run
// that is not an agent): every tool of Toolpack except explain_answer and
// inspect_tool_call.
func FlowToolpack(log *flow.Record) ([]*tool.Tool, error) {
	if log == nil {
		return nil, ErrNoRecord
	}
	return toolpack(log, nil)
}

// trace is the shared state of one toolpack.
type trace struct {
	log      *flow.Record
	rec      *record.Record
	redacted map[string]bool
}

func toolpack(log *flow.Record, rec *record.Record) ([]*tool.Tool, error) {
	tr := &trace{log: log, rec: rec, redacted: map[string]bool{}}
	var ids []string
	for _, c := range log.Commits {
		for _, k := range c.Redacted {
			tr.redacted[k] = true
		}
		ids = append(ids, c.RuntimeStageID)
	}
	idProp := map[string]any{"type": "string", "description": "a step id such as call-llm#3"}
	if len(ids) <= enumLimit {
		idProp["enum"] = ids
	}
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	num := func(desc string) map[string]any { return map[string]any{"type": "integer", "description": desc} }
	type def struct {
		name, desc string
		props      map[string]any
		required   []string
		fn         func(args map[string]any) (string, error)
		agentOnly  bool
	}
	defs := []def{
		{"run_overview", "Summarise the run: stages, loops, errors, flags and cost.", map[string]any{}, nil, tr.overview, false},
		{"explain_answer", "The backtrack chain of the final answer: the model call, what it read, and each suspect's landed, allowed and born hops.",
			map[string]any{"limit": num("suspects to return (default 6, at most 20)")}, nil, tr.explainAnswer, true},
		{"find_in_trace", "Find the steps and keys whose values contain the query.",
			map[string]any{"query": str("text to look for"), "limit": num("hits to return (default 10, at most 25)")}, []string{"query"}, tr.find, false},
		{"trace_node", "One step: what it wrote (previews and true sizes), what it read, and the decision that governed it.",
			map[string]any{"id": idProp}, []string{"id"}, tr.node, false},
		{"trace_slice", "The backward slice from a step as an indented tree; control edges show the rule.",
			map[string]any{"id": idProp, "key": str("only follow this key from the start step"), "depth": num("default 6, at most 20"), "nodes": num("default 25, at most 100")}, []string{"id"}, tr.slice, false},
		{"backtrack", "Why a key has its value: its last writer and, for a list element, the step that added it.",
			map[string]any{"key": str("state key"), "element": num("list element index"), "before": idProp}, []string{"key"}, tr.backtrack, false},
		{"who_wrote", "The last step that wrote a key (before a step, when given).",
			map[string]any{"key": str("state key"), "before": idProp}, []string{"key"}, tr.whoWrote, false},
		{"get_value", "A key's value as of a step, cut at the character cap.",
			map[string]any{"id": idProp, "key": str("state key"), "max": num("characters (default 2000, at most 8000)")}, []string{"id", "key"}, tr.getValue, false},
		{"inspect_tool_call", "One tool call: tool, arguments, result, status and the step that ran it.",
			map[string]any{"toolCallId": str("the call id")}, []string{"toolCallId"}, tr.inspectToolCall, true},
	}
	var out []*tool.Tool
	for _, d := range defs {
		if d.agentOnly && rec == nil {
			continue
		}
		schema := map[string]any{"type": "object", "properties": d.props}
		if len(d.required) > 0 {
			schema["required"] = d.required
		}
		raw, err := json.Marshal(schema)
		if err != nil {
			return nil, err
		}
		fn := d.fn
		t, err := tool.NewRaw(d.name, d.desc, raw, func(ctx context.Context, args json.RawMessage) (any, error) {
			var m map[string]any
			if err := json.Unmarshal(args, &m); err != nil {
				return nil, fmt.Errorf("arguments are not an object: %w", err)
			}
			return fn(m)
		})
		if err != nil {
			return nil, fmt.Errorf("explain: toolpack %s: %w", d.name, err)
		}
		out = append(out, t)
	}
	return out, nil
}

// argInt reads an integer argument with a default and a hard cap.
func argInt(m map[string]any, key string, def, hard int) int {
	v, ok := m[key].(float64)
	if !ok || v < 1 {
		return def
	}
	return min(int(v), hard)
}

func argStr(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// commitOf resolves a step id.
func (tr *trace) commitOf(id string) (int, error) {
	if i, ok := tr.log.Find(id); ok {
		return i, nil
	}
	return 0, fmt.Errorf("no step %q in this run", id)
}

// render encodes a value for display, cut at max characters.
func render(v any, max int) (string, int) {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("[unencodable: %v]", err), 0
	}
	s := string(b)
	n := utf8.RuneCountInString(s)
	if n <= max {
		return s, n
	}
	return string([]rune(s)[:max]) + fmt.Sprintf("… [truncated: %d of %d chars shown]", max, n), n
}

// stepLine is one step with its untracked mark.
func (tr *trace) stepLine(i int) string {
	c := tr.log.Commits[i]
	s := c.RuntimeStageID
	if len(c.Untracked) > 0 {
		s += " " + untrackedMark + " untracked: " + strings.Join(c.Untracked, ",")
	}
	return s
}

func (tr *trace) overview(map[string]any) (string, error) {
	var b strings.Builder
	stages := map[string]int{}
	var order []string
	var errs []string
	untracked := 0
	for _, c := range tr.log.Commits {
		if stages[c.StageID] == 0 {
			order = append(order, c.StageID)
		}
		stages[c.StageID]++
		if c.Error != "" {
			errs = append(errs, c.RuntimeStageID+": "+c.Error)
		}
		if len(c.Untracked) > 0 {
			untracked++
		}
	}
	fmt.Fprintf(&b, "run %s, chart %s, %d steps\n", tr.log.RunID, tr.log.ChartID, len(tr.log.Commits))
	for _, s := range order {
		fmt.Fprintf(&b, "  %s ×%d\n", s, stages[s])
	}
	if len(errs) > 0 {
		fmt.Fprintf(&b, "errors: %s\n", strings.Join(errs, "; "))
	}
	if untracked > 0 {
		fmt.Fprintf(&b, "%s %d steps read untracked inputs\n", untrackedMark, untracked)
	}
	if len(tr.redacted) > 0 {
		fmt.Fprintf(&b, "redacted keys: %d (values never shown)\n", len(tr.redacted))
	}
	if tr.rec != nil {
		last := len(tr.log.Commits) - 1
		in, _, _ := valueAt[int](tr.log, last, "totalInputTokens")
		out, _, _ := valueAt[int](tr.log, last, "totalOutputTokens")
		fmt.Fprintf(&b, "agent %s, model %s, complete %v, tokens in %d out %d\n", tr.rec.Manifest.AgentID, tr.rec.Manifest.Model, tr.rec.Manifest.Complete, in, out)
	}
	return b.String(), nil
}

func (tr *trace) explainAnswer(m map[string]any) (string, error) {
	ch, err := Backtrack(tr.rec, Target{})
	if err != nil {
		return "", err
	}
	limit := argInt(m, "limit", suspectsDefault, suspectsMax)
	note := ""
	if len(ch.Suspects) > limit {
		note = fmt.Sprintf(" [truncated: %d of %d suspects]", limit, len(ch.Suspects))
		ch.Suspects = ch.Suspects[:limit]
	}
	b, err := json.Marshal(ch)
	if err != nil {
		return "", err
	}
	return string(b) + note, nil
}

func (tr *trace) find(m map[string]any) (string, error) {
	q := strings.ToLower(argStr(m, "query"))
	if q == "" {
		return "", errors.New("query is empty")
	}
	limit := argInt(m, "limit", hitsDefault, hitsMax)
	var hits []string
	total := 0
	for i, c := range tr.log.Commits {
		if strings.Contains(strings.ToLower(c.RuntimeStageID), q) {
			total++
			if len(hits) < limit {
				hits = append(hits, tr.stepLine(i)+" (step id)")
			}
		}
		for _, op := range c.Ops {
			if tr.redacted[op.Key] {
				continue
			}
			v, _ := render(op.Value, 1<<20)
			keyHit := strings.Contains(strings.ToLower(op.Key), q)
			if !keyHit && !strings.Contains(strings.ToLower(v), q) {
				continue
			}
			total++
			if len(hits) < limit {
				hits = append(hits, fmt.Sprintf("%s wrote %s (%s)", tr.stepLine(i), op.Key, op.Verb))
			}
		}
	}
	if total == 0 {
		return fmt.Sprintf("no step or value matches %q; note that %s", q, neverRecorded), nil
	}
	out := strings.Join(hits, "\n")
	if total > len(hits) {
		out += fmt.Sprintf("\n[truncated: %d of %d hits]", len(hits), total)
	}
	return out, nil
}

func (tr *trace) node(m map[string]any) (string, error) {
	i, err := tr.commitOf(argStr(m, "id"))
	if err != nil {
		return "", err
	}
	c := tr.log.Commits[i]
	var b strings.Builder
	fmt.Fprintf(&b, "%s (commit %d, stage %s)\n", tr.stepLine(i), i, c.StageID)
	for _, op := range c.Ops {
		if tr.redacted[op.Key] || slices.Contains(c.Redacted, op.Key) {
			fmt.Fprintf(&b, "  wrote %s (%s): [redacted]\n", op.Key, op.Verb)
			continue
		}
		v, n := render(op.Value, previewChars)
		fmt.Fprintf(&b, "  wrote %s (%s, %d chars): %s\n", op.Key, op.Verb, n, v)
	}
	for _, k := range uniq(c.Reads) {
		if w, ok := flow.LastWriter(tr.log, k, i); ok {
			fmt.Fprintf(&b, "  read %s ← %s\n", k, tr.log.Commits[w].RuntimeStageID)
		} else {
			fmt.Fprintf(&b, "  read %s (never written before)\n", k)
		}
	}
	if ctl := c.Control; ctl != nil {
		fmt.Fprintf(&b, "  governed by %s: branch %s, rule %q\n", ctl.Decider, ctl.Branch, ctl.Rule)
	}
	if c.Error != "" {
		fmt.Fprintf(&b, "  error: %s\n", c.Error)
	}
	return b.String(), nil
}

func (tr *trace) slice(m map[string]any) (string, error) {
	i, err := tr.commitOf(argStr(m, "id"))
	if err != nil {
		return "", err
	}
	opt := flow.SliceOptions{MaxDepth: argInt(m, "depth", sliceDepthDefault, sliceDepthMax), MaxNodes: argInt(m, "nodes", sliceNodesDefault, sliceNodesMax)}
	if k := argStr(m, "key"); k != "" {
		opt.Keys = []string{k}
	}
	sl, err := flow.Slice(tr.log, i, opt)
	if err != nil {
		return "", err
	}
	children := map[string][]flow.SliceEdge{}
	for _, e := range sl.Edges {
		children[e.From] = append(children[e.From], e)
	}
	var b strings.Builder
	seen := map[string]bool{}
	var walk func(id string, depth int)
	walk = func(id string, depth int) {
		for _, e := range children[id] {
			label := "[" + e.Key + "]"
			if e.Kind == flow.EdgeControl {
				label = "[control: " + e.Rule + "]"
			}
			mark := ""
			if j, ok := tr.log.Find(e.To); ok && len(tr.log.Commits[j].Untracked) > 0 {
				mark = " " + untrackedMark
			}
			fmt.Fprintf(&b, "%s%s %s%s\n", strings.Repeat("  ", depth), label, e.To, mark)
			if !seen[e.To] {
				seen[e.To] = true
				walk(e.To, depth+1)
			}
		}
	}
	b.WriteString(tr.stepLine(i) + "\n")
	seen[tr.log.Commits[i].RuntimeStageID] = true
	walk(tr.log.Commits[i].RuntimeStageID, 1)
	if slices.Contains(sl.Flags, flow.FlagTruncated) {
		fmt.Fprintf(&b, "[truncated: %d nodes, depth ≤ %d]\n", len(sl.Nodes), opt.MaxDepth)
	}
	if slices.Contains(sl.Flags, flow.FlagUntracked) {
		fmt.Fprintf(&b, "%s some steps read untracked inputs: the slice may be incomplete\n", untrackedMark)
	}
	return b.String(), nil
}

// beforeOf reads the optional before argument (default: after the last step).
func (tr *trace) beforeOf(m map[string]any) (int, error) {
	if id := argStr(m, "before"); id != "" {
		return tr.commitOf(id)
	}
	return len(tr.log.Commits), nil
}

func (tr *trace) whoWrote(m map[string]any) (string, error) {
	key := argStr(m, "key")
	before, err := tr.beforeOf(m)
	if err != nil {
		return "", err
	}
	w, ok := flow.LastWriter(tr.log, key, before)
	if !ok {
		return fmt.Sprintf("nothing wrote %q before that point; note that %s", key, neverRecorded), nil
	}
	return fmt.Sprintf("%s (commit %d)", tr.stepLine(w), w), nil
}

func (tr *trace) backtrack(m map[string]any) (string, error) {
	out, err := tr.whoWrote(m)
	if err != nil {
		return "", err
	}
	el, ok := m["element"].(float64)
	if !ok {
		return "last writer: " + out, nil
	}
	before, _ := tr.beforeOf(m)
	b, found, err := flow.ElementBirth(tr.log, argStr(m, "key"), int(el), before-1)
	if err != nil {
		return "", err
	}
	if !found {
		return fmt.Sprintf("last writer: %s; element %d is not in the list there", out, int(el)), nil
	}
	return fmt.Sprintf("last writer: %s; element %d was added by %s (commit %d)", out, int(el), tr.stepLine(b), b), nil
}

func (tr *trace) getValue(m map[string]any) (string, error) {
	i, err := tr.commitOf(argStr(m, "id"))
	if err != nil {
		return "", err
	}
	key := argStr(m, "key")
	if tr.redacted[key] {
		return fmt.Sprintf("%s is redacted in this record: its value is never shown", key), nil
	}
	v, ok, err := flow.ValueAt(tr.log, i, key)
	if err != nil {
		var re *flow.RedactedError
		if errors.As(err, &re) {
			return fmt.Sprintf("%s is redacted in this record: its value is never shown", key), nil
		}
		return "", err
	}
	if !ok {
		return fmt.Sprintf("%s is absent after %s", key, tr.log.Commits[i].RuntimeStageID), nil
	}
	s, _ := render(v, argInt(m, "max", valueCharsDefault, valueCharsMax))
	return s, nil
}

func (tr *trace) inspectToolCall(m map[string]any) (string, error) {
	id := argStr(m, "toolCallId")
	for _, ci := range commitsOf(tr.log, stageToolCalls) {
		results, _, err := valueAt[[]state.ToolResult](tr.log, ci, keyToolResults)
		if err != nil {
			continue
		}
		for _, r := range results {
			if r.ToolCallID != id {
				continue
			}
			out := map[string]any{"toolCallId": id, "tool": r.ToolName, "iteration": r.Iteration, "step": tr.log.Commits[ci].RuntimeStageID,
				"status": string(r.Status), "error": r.Error, "servedChars": r.ServedChars}
			if calls, _, err := valueAt[[]llm.ToolCall](tr.log, ci, keyToolCalls); err == nil {
				for _, c := range calls {
					if c.ID == id {
						out["args"] = c
					}
				}
			}
			if r.OutputRef != "" {
				if b, ok := tr.rec.Blob(r.OutputRef); ok {
					out["result"] = cut(string(b), valueCharsDefault)
				}
			}
			b, err := json.Marshal(out)
			return string(b), err
		}
	}
	return "", fmt.Errorf("no tool call %q in this run", id)
}

// cut shortens s to max characters and says so.
func cut(s string, max int) string {
	n := utf8.RuneCountInString(s)
	if n <= max {
		return s
	}
	return string([]rune(s)[:max]) + fmt.Sprintf("… [truncated: %d of %d chars shown]", max, n)
}

func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
