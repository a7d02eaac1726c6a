// The story: one step per model call, built by walking the commit log once.

package lens

import (
	"encoding/json"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"strconv"
	"strings"
)

// foldChars is the served-result length above which a result is folded.
const foldChars = 600

// previewRunes is how much of a folded text its summary shows.
const previewRunes = 48

// step is one model call and what followed it.
type step struct {
	N         int    // 1-based position in the story
	Anchor    string // "step-N"
	Iteration int
	Stage     string // the call's runtime stage id
	Context   string // the context stage it read, when any
	WrapUp    bool
	Said      string
	Calls     []toolCall
	Request   string // "909 bytes, sha256 e40008cc…"
	Error     string // the call failed
	Route     *route
	Final     bool // this call's reply became the answer
	Open      bool // shown unfolded
	Paused    *pauseView
	Stages    string // the stage ids of the step, for "stage ids" on demand
}

// toolCall is one call the model asked for, with what it was served.
type toolCall struct {
	ID, Name, Args string
	ArgsError      string
	Served         string
	HasResult      bool
	Fold           bool
	Preview        string
	Chars          int
	Status         string
	IsError        bool
	Verdict        string // the period verdict, when the results layer judged one
	ToolStage      string
	Anchor         string
}

// route is the decision taken after a call, with the rule that chose it.
type route struct {
	Stage, Branch, Rule string
}

// pauseView is the question a paused run waits on.
type pauseView struct {
	Tool, CallID, Args, Reason string
}

// storyOf walks the log once and returns the person's message and the steps.
func storyOf(rec *record.Record) (string, []step) {
	log := rec.Log
	if log == nil {
		return "", nil
	}
	decided := map[string]route{}
	for _, c := range log.Commits {
		if c.Control != nil {
			if _, ok := decided[c.Control.Decider]; !ok {
				decided[c.Control.Decider] = route{Stage: c.Control.Decider, Branch: c.Control.Branch, Rule: c.Control.Rule}
			}
		}
	}
	var question, lastContext string
	var steps []step
	cur := func() *step {
		if len(steps) == 0 {
			return nil
		}
		return &steps[len(steps)-1]
	}
	byCall := map[string]*toolCall{}
	for _, c := range log.Commits {
		if c.CommitDetail == nil {
			continue
		}
		switch stageOf(c.RuntimeStageID) {
		case stageSeed:
			if m, _, ok := opValue[string](c, keyUserMessage); ok {
				question = m
			}
		case stageContext:
			lastContext = c.RuntimeStageID
		case stageCallLLM, stageWrapUp:
			if c.StageID == stageWrapUp && !writes(c, keyLatestContent) && c.Error == "" {
				continue
			}
			s := step{N: len(steps) + 1, Stage: c.RuntimeStageID, Context: lastContext, WrapUp: c.StageID == stageWrapUp, Error: c.Error}
			s.Anchor = "step-" + strconv.Itoa(s.N)
			s.Said, _, _ = opValue[string](c, keyLatestContent)
			if req, _, ok := opValue[state.LLMRequest](c, keyLLMRequest); ok {
				s.Iteration = req.Iteration
				s.Request = fmt.Sprintf("%d bytes, sha256 %s", req.Request.Bytes, short(req.Request.Sha256))
			}
			calls, _, _ := opValue[[]llm.ToolCall](c, keyToolCalls)
			for i, tc := range calls {
				v := toolCall{ID: tc.ID, Name: tc.Name, Args: compactJSON(tc.Args), Anchor: s.Anchor + "-call-" + strconv.Itoa(i+1)}
				v.ArgsError = tc.ArgsError
				s.Calls = append(s.Calls, v)
			}
			steps = append(steps, s)
			for i := range cur().Calls {
				byCall[cur().Calls[i].ID] = &cur().Calls[i]
			}
		case stageToolCalls:
			s := cur()
			if s == nil {
				continue
			}
			if msgs, _, ok := opValue[[]llm.Message](c, keyHistory); ok {
				for _, m := range msgs {
					if tc := byCall[m.ToolCallID]; tc != nil && m.Role == llm.RoleTool {
						tc.Served, tc.HasResult, tc.IsError, tc.ToolStage = m.Content, true, m.IsError, c.RuntimeStageID
						tc.Chars = len([]rune(m.Content))
						if tc.Chars > foldChars {
							tc.Fold, tc.Preview = true, preview(m.Content, previewRunes)
						}
					}
				}
			}
			if results, _, ok := opValue[[]state.ToolResult](c, keyToolResults); ok {
				for _, r := range results {
					if tc := byCall[r.ToolCallID]; tc != nil {
						tc.Status = string(r.Status)
						tc.IsError = tc.IsError || r.Error
					}
				}
			}
			if id, _, ok := opValue[string](c, keyPausedID); ok && id != "" {
				p := &pauseView{CallID: id}
				p.Tool, _, _ = opValue[string](c, keyPausedName)
				if a, _, ok := opValue[llm.ToolCall](c, keyPausedArgs); ok {
					p.Args = compactJSON(a.Args)
				}
				s.Paused = p
			}
		case stagePrepareFinal:
			if s := cur(); s != nil && writes(c, keyFinalContent) {
				s.Final = true
			}
		}
		if s := cur(); s != nil && s.Route == nil {
			if r, ok := decided[c.RuntimeStageID]; ok {
				s.Route = &r
			}
		}
	}
	for _, e := range rec.Events.All() {
		if e.Type != event.PauseRequest {
			continue
		}
		if p, ok := payloadAs[event.PauseRequestPayload](e); ok {
			for i := range steps {
				if steps[i].Paused != nil && steps[i].Paused.CallID == p.ToolCallID {
					steps[i].Paused.Reason = p.Reason
				}
			}
		}
	}
	attachVerdicts(log, byCall)
	for i := range steps {
		steps[i].Stages = stagesLine(&steps[i])
	}
	return question, steps
}

// attachVerdicts puts each period row's verdict on the call it judged.
func attachVerdicts(log *flow.Record, byCall map[string]*toolCall) {
	rows, _ := finalValue[[]map[string]any](log, keyLedger)
	for _, r := range rows {
		if str(r["kind"]) != "period" {
			continue
		}
		if tc := byCall[str(r["toolCallId"])]; tc != nil {
			tc.Verdict = str(r["verdict"])
		}
	}
}

// stagesLine names the stages of a step in order, with the request's size
// and hash.
func stagesLine(s *step) string {
	var parts []string
	if s.Context != "" {
		parts = append(parts, s.Context)
	}
	call := s.Stage
	if s.Request != "" {
		call += " (request " + s.Request + ")"
	}
	parts = append(parts, call)
	if s.Route != nil {
		parts = append(parts, s.Route.Stage)
	}
	seen := map[string]bool{}
	for _, c := range s.Calls {
		if c.ToolStage != "" && !seen[c.ToolStage] {
			seen[c.ToolStage] = true
			parts = append(parts, c.ToolStage)
		}
	}
	return "stages: " + strings.Join(parts, " → ")
}

// compactJSON prints raw JSON on one line, or as it is when it does not parse.
func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// str is v as a string when it is one.
func str(v any) string {
	s, _ := v.(string)
	return s
}

// preview cuts s to n runes.
func preview(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// short abbreviates a hash for display.
func short(h string) string {
	if len(h) > 7 && h[:7] == "sha256:" {
		h = h[7:]
	}
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
