// The backtrack chain: ANSWER → READ → LANDED → ALLOWED →
// BORN, computed from the record only.

package explain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"slices"
	"strconv"
	"strings"
)

// backtrackFormat is the format id of a Chain's JSON encoding.
const backtrackFormat = "agentfootprint-go.backtrack/1"

// Chain flags (wire words).
const (
	flagUntracked           = "untracked"
	flagRequestHashOnly     = "request-hash-only"
	flagContentHashMismatch = "content-hash-mismatch"
	flagPlacedWithoutSpan   = "unit-placed-without-span"
)

// Target says where a backtrack starts. The zero Target starts at the final
// answer; Step names a model call ("call-llm#12") instead.
type Target struct {
	Step string
}

// Chain is the answer to "why this output": the model call that produced it,
// what that call read, and every content-bearing suspect with the hops that
// brought it there. Suspects are ordered by the lexical rank (Rank).
type Chain struct {
	// Format is "agentfootprint-go.backtrack/1".
	Format   string    `json:"format"`
	Answer   AnswerHop `json:"answer"`
	Read     []ReadHop `json:"read"`
	Suspects []Suspect `json:"suspects"`
	// Flags qualify the chain: "untracked" (the model call read a value the
	// record does not trace), "request-hash-only" (the record keeps only the
	// request's hash, so no text can be checked against it),
	// "content-hash-mismatch" (a suspect's text in the request does not hash to
	// its catalog entry) and "unit-placed-without-span" (a framework bug if ever
	// seen).
	Flags []string `json:"flags"`
}

// AnswerHop is the ANSWER hop: the model call whose reply is the answer, the
// key that carried it and the step that made it final (Via, empty when the
// target was a model call).
type AnswerHop struct {
	Step   string `json:"step"`
	Commit int    `json:"commit"`
	Key    string `json:"key"`
	Text   string `json:"text"`
	Via    string `json:"via,omitempty"`
	// ViaCommit is the commit of Via.
	ViaCommit int `json:"viaCommit,omitempty"`
}

// ReadHop is one key the answering call read, with its last writer. For the
// history list, Births names the step that put each element there.
type ReadHop struct {
	Key    string  `json:"key"`
	Writer string  `json:"writer"`
	Commit int     `json:"commit"`
	Births []Birth `json:"births,omitempty"`
}

// Birth is the step whose commit put one list element in place.
type Birth struct {
	Element int    `json:"element"`
	Step    string `json:"step"`
	Commit  int    `json:"commit"`
}

// Suspect is one content-bearing piece of the answering request: a context
// unit, or a history message (a tool result), with its three hops.
type Suspect struct {
	// Unit is the piece's id in the request: a context unit's id, or
	// "history/<i>" for message i of the conversation the call was sent.
	Unit string `json:"unit"`
	// Name is the suspect name ablation takes (see ParseSuspect): the spec
	// that removes this piece from a rerun, such as "unit:vip-override" or
	// "tool:search_logs".
	Name string `json:"name"`
	// Score is the suspect's influence score (Rank), the order of Suspects.
	Score   float64    `json:"score"`
	Landed  LandedHop  `json:"landed"`
	Allowed AllowedHop `json:"allowed"`
	Born    BornHop    `json:"born"`

	text   string // what the model read of it, for ranking
	placed int    // first commit that placed it
}

// LandedHop is where a suspect entered the request: the step and commit that
// wrote it, a JSON pointer into that key's value as of the commit, its slot
// and position, and its byte span in the exact request.
type LandedHop struct {
	Step     string   `json:"step"`
	Commit   int      `json:"commit"`
	Key      string   `json:"key"`
	Pointer  string   `json:"pointer"`
	Slot     string   `json:"slot"`
	Position int      `json:"position"`
	Span     *SpanRef `json:"span,omitempty"`
}

// SpanRef is a byte range [Start, End) of the request whose SHA-256 is
// RequestSha256.
type SpanRef struct {
	RequestSha256 string `json:"requestSha256"`
	Start         int    `json:"start"`
	End           int    `json:"end"`
}

// AllowedHop is why a suspect was let in: a unit's recorded trigger
// evidence, or for a tool result the model call that asked for the tool and
// the dispatch outcome.
type AllowedHop struct {
	Step     string           `json:"step"`
	Commit   int              `json:"commit"`
	Key      string           `json:"key"`
	Pointer  string           `json:"pointer"`
	Trigger  *inject.Evidence `json:"trigger,omitempty"`
	ToolCall *ToolCallRef     `json:"toolCall,omitempty"`
}

// ToolCallRef is a tool call as the record keeps it: what the model asked
// for and how the dispatch went.
type ToolCallRef struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args,omitempty"`
	Status string          `json:"status,omitempty"`
	Error  bool            `json:"error,omitempty"`
	Output string          `json:"output,omitempty"`
}

// BornHop is who authored a suspect: the catalog entry written once per run,
// its kind, content hash and definition site.
type BornHop struct {
	Step        string     `json:"step"`
	Commit      int        `json:"commit"`
	Key         string     `json:"key"`
	Pointer     string     `json:"pointer"`
	Kind        string     `json:"kind"`
	ContentHash string     `json:"contentHash,omitempty"`
	DefinedAt   *tool.Site `json:"definedAt,omitempty"`
}

// Backtrack computes the chain for target from rec alone. It refuses a
// record without a log, a target that is not a model call, and a run that
// produced no final answer when no step is given.
func Backtrack(rec *record.Record, target Target) (*Chain, error) {
	if rec == nil || rec.Log == nil {
		return nil, ErrNoRecord
	}
	log := rec.Log
	ch := &Chain{Format: backtrackFormat, Read: []ReadHop{}, Suspects: []Suspect{}, Flags: []string{}}
	flags := map[string]bool{}

	callIdx, err := answerCall(log, target, &ch.Answer)
	if err != nil {
		return nil, err
	}
	call, err := readCall(log, callIdx)
	if err != nil {
		return nil, err
	}
	c := log.Commits[callIdx]
	if len(c.Untracked) > 0 {
		flags[flagUntracked] = true
	}

	// READ: every key the call read, with its last writer.
	seen := map[string]bool{}
	for _, k := range c.Reads {
		if seen[k] {
			continue
		}
		seen[k] = true
		w, ok := flow.LastWriter(log, k, callIdx)
		if !ok {
			continue
		}
		hop := ReadHop{Key: k, Writer: runID(log, w), Commit: w}
		if k == keyHistory {
			for i := range call.history {
				if b, ok, err := call.birth(log, i); err == nil && ok {
					hop.Births = append(hop.Births, Birth{Element: i, Step: runID(log, b), Commit: b})
				}
			}
		}
		ch.Read = append(ch.Read, hop)
	}

	sus, err := suspectsOf(rec, call, flags)
	if err != nil {
		return nil, err
	}
	ranked := rankSuspects(log, sus, targetText(ch.Answer.Text, call), callIdx, RankOptions{})
	prior := priorLen(log)
	for _, r := range ranked {
		s := sus[r.index]
		s.Score = r.Score
		s.Name = suspectName(s, prior)
		ch.Suspects = append(ch.Suspects, s)
	}
	for f := range flags {
		ch.Flags = append(ch.Flags, f)
	}
	slices.Sort(ch.Flags)
	return ch, nil
}

// answerCall resolves the ANSWER hop and returns the call-llm commit.
func answerCall(log *flow.Record, target Target, hop *AnswerHop) (int, error) {
	if target.Step != "" {
		i, err := findStep(log, target.Step)
		if err != nil {
			return 0, err
		}
		if log.Commits[i].StageID != stageCallLLM {
			return 0, fmt.Errorf("explain: step %q is not a model call (want %s#n)", target.Step, stageCallLLM)
		}
		text, _, err := valueAt[string](log, i, keyLatestContent)
		if err != nil {
			return 0, err
		}
		*hop = AnswerHop{Step: target.Step, Commit: i, Key: keyLatestContent, Text: text}
		return i, nil
	}
	final := -1
	for i := len(log.Commits) - 1; i >= 0; i-- {
		if writes(log.Commits[i], keyFinalContent) && log.Commits[i].StageID == stagePrepareFinal {
			final = i
			break
		}
	}
	if final < 0 {
		return 0, errors.New("explain: the run has no final answer (paused or failed); name a model call with Target.Step")
	}
	w, ok := flow.LastWriter(log, keyLatestContent, final)
	if !ok {
		return 0, fmt.Errorf("explain: nothing wrote %s before %s", keyLatestContent, runID(log, final))
	}
	text, _, err := valueAt[string](log, final, keyFinalContent)
	if err != nil {
		return 0, err
	}
	*hop = AnswerHop{Step: runID(log, w), Commit: w, Key: keyLatestContent, Text: text, Via: runID(log, final), ViaCommit: final}
	return w, nil
}

// suspectsOf builds the LANDED, ALLOWED and BORN hops of every placed unit
// and every tool result the call sent, in request order.
func suspectsOf(rec *record.Record, call *callInfo, flags map[string]bool) ([]Suspect, error) {
	log := rec.Log
	cat, catCommit, err := catalog(log)
	if err != nil {
		return nil, err
	}
	catIdx := map[string]int{}
	for i, e := range cat {
		catIdx[e.ID] = i
	}
	body, haveBody := requestBody(rec, call.req)
	if !haveBody {
		flags[flagRequestHashOnly] = true
	}
	spanRef := func(unit string) *SpanRef {
		s, ok := call.span(unit)
		if !ok {
			return nil
		}
		return &SpanRef{RequestSha256: call.req.Request.Sha256, Start: s.Start, End: s.End}
	}
	var out []Suspect
	if call.context >= 0 {
		ctxStep := runID(log, call.context)
		for k, e := range call.units.Units {
			if e.Placed == nil {
				continue
			}
			trig := e.Trigger
			s := Suspect{
				Unit: e.ID,
				Landed: LandedHop{Step: ctxStep, Commit: call.context, Key: keyContextUnits,
					Pointer: "/units/" + strconv.Itoa(k), Slot: string(e.Placed.Slot), Position: e.Placed.Position,
					Span: spanRef(e.ID)},
				Allowed: AllowedHop{Step: ctxStep, Commit: call.context, Key: keyContextUnits,
					Pointer: "/units/" + strconv.Itoa(k) + "/trigger", Trigger: &trig},
				placed: firstPlacement(log, e.ID, call.commit),
			}
			if ci, ok := catIdx[e.ID]; ok {
				ce := cat[ci]
				s.Born = BornHop{Step: runID(log, catCommit), Commit: catCommit, Key: keyCatalog,
					Pointer: "/" + strconv.Itoa(ci), Kind: ce.Kind, ContentHash: ce.ContentHash, DefinedAt: ce.DefinedAt}
				s.text, _ = unitText(rec, ce)
			}
			if s.Landed.Span == nil {
				flags[flagPlacedWithoutSpan] = true
			} else if haveBody {
				if text, ok := unescapeSpan(body, s.Landed.Span.Start, s.Landed.Span.End); !ok || contentHash(text) != s.Born.ContentHash {
					flags[flagContentHashMismatch] = true
				} else {
					s.text = text
				}
			}
			out = append(out, s)
		}
	}
	// Tool results the call sent.
	for pos, hi := range call.units.History.Sent {
		if hi < 0 || hi >= len(call.history) || call.history[hi].Role != llm.RoleTool {
			continue
		}
		s, err := toolSuspect(rec, call, hi, pos, cat, catIdx, catCommit)
		if err != nil {
			return nil, err
		}
		s.Landed.Span = spanRef(s.Unit)
		out = append(out, s)
	}
	return out, nil
}

// toolSuspect builds the hops of the tool result at history index hi.
func toolSuspect(rec *record.Record, call *callInfo, hi, pos int, cat []inject.CatalogEntry, catIdx map[string]int, catCommit int) (Suspect, error) {
	log := rec.Log
	m := call.history[hi]
	s := Suspect{Unit: historyUnit(hi), text: m.Content}
	birth, ok, err := call.birth(log, hi)
	if err != nil {
		return s, err
	}
	if ok {
		s.placed = birth
		s.Landed = LandedHop{Step: runID(log, birth), Commit: birth, Key: keyHistory,
			Pointer: "/" + strconv.Itoa(hi), Slot: string(inject.SlotMessages), Position: pos}
	}
	ref := &ToolCallRef{ID: m.ToolCallID, Name: m.ToolName, Error: m.IsError}
	// The assistant message that asked for the call.
	for j := hi - 1; j >= 0; j-- {
		a := call.history[j]
		if a.Role != llm.RoleAssistant {
			continue
		}
		x := slices.IndexFunc(a.ToolCalls, func(tc llm.ToolCall) bool { return tc.ID == m.ToolCallID })
		if x < 0 {
			continue
		}
		ref.Args = a.ToolCalls[x].Args
		if b, ok, err := call.birth(log, j); err == nil && ok {
			s.Allowed = AllowedHop{Step: runID(log, b), Commit: b, Key: keyHistory,
				Pointer: "/" + strconv.Itoa(j) + "/toolCalls/" + strconv.Itoa(x)}
		}
		break
	}
	if ok {
		if results, _, err := valueAt[[]state.ToolResult](log, birth, keyToolResults); err == nil {
			for _, r := range results {
				if r.ToolCallID == m.ToolCallID {
					ref.Status, ref.Error, ref.Output = string(r.Status), r.Error, r.OutputRef
				}
			}
		}
	}
	s.Allowed.ToolCall = ref
	s.Born = BornHop{Step: runID(log, catCommit), Commit: catCommit, Key: keyCatalog, Kind: "tool", ContentHash: ref.Output}
	if ci, ok := catIdx["tool/"+m.ToolName]; ok {
		s.Born.Pointer = "/" + strconv.Itoa(ci)
		s.Born.DefinedAt = cat[ci].DefinedAt
	}
	return s, nil
}

// firstPlacement returns the first context commit before limit that placed
// unit.
func firstPlacement(log *flow.Record, unit string, limit int) int {
	for _, ci := range commitsOf(log, stageContext) {
		if ci >= limit {
			break
		}
		cu, ok, err := valueAt[state.ContextUnits](log, ci, keyContextUnits)
		if err != nil || !ok {
			continue
		}
		for _, e := range cu.Units {
			if e.ID == unit && e.Placed != nil {
				return ci
			}
		}
	}
	return limit
}

// requestBody returns the exact request bytes of a call when they were kept.
func requestBody(rec *record.Record, req state.LLMRequest) ([]byte, bool) {
	if req.Request.Blob == "" {
		return nil, false
	}
	b, ok := rec.Blob(req.Request.Blob)
	return b, ok
}

// unescapeSpan decodes the JSON string characters body[start:end].
func unescapeSpan(body []byte, start, end int) (string, bool) {
	if start < 0 || end > len(body) || start > end {
		return "", false
	}
	quoted := make([]byte, 0, end-start+2)
	quoted = append(quoted, '"')
	quoted = append(quoted, body[start:end]...)
	quoted = append(quoted, '"')
	var s string
	if json.Unmarshal(quoted, &s) != nil {
		return "", false
	}
	return s, true
}

// contentHash is "sha256:" and the hex SHA-256 of text.
func contentHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// targetText is what a suspect is compared with: the call's reply, and when
// the reply asked for tools, their names and arguments too.
func targetText(content string, call *callInfo) string {
	if len(call.calls) == 0 {
		return content
	}
	var b strings.Builder
	b.WriteString(content)
	for _, c := range call.calls {
		b.WriteString(" " + c.Name + " " + string(c.Args))
	}
	return b.String()
}
