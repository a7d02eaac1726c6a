// This file runs a scenario: it plays the person's turns against the scenario's agent and
// gathers what the run produced into a Report.

package scenario

import (
	"context"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// RunFile loads the scenario at path and runs it (see Load and Run).
func RunFile(ctx context.Context, path string, opts ...Option) (*Report, error) {
	f, err := Load(path)
	if err != nil {
		return nil, err
	}
	return Run(ctx, f, opts...)
}

// Run plays the scenario's turns in order on a fresh agent and scripted model, and returns
// the report. A turn the run cannot take (a user message while a tool waits for an answer,
// a resume with nothing paused) is refused as a *FieldError naming the turn. A run that
// fails (the script runs out, ctx is cancelled) returns the report of everything that ran
// so far together with a *RunError. Options swap in your own tools or another model, or
// add agent options, for this run only. Run never modifies f. The MCP servers the file
// names (its "mcp" list) are connected when the run starts, their tools offered beside the
// canned ones, and their sessions closed when it ends; one that cannot be reached refuses
// the run with a *FieldError naming its entry.
func Run(ctx context.Context, f *File, opts ...Option) (*Report, error) {
	if f == nil {
		return nil, errNilFile
	}
	rc, err := newRunConfig(opts)
	if err != nil {
		return nil, err
	}
	if f.composed != nil {
		return runComposed(ctx, f, rc)
	}
	if len(f.mcp) > 0 {
		closeMCP, err := f.connectMCP(ctx, rc)
		if err != nil {
			return nil, err
		}
		defer closeMCP()
	}
	rt := &runTools{next: map[string]int{}}
	a, err := f.newAgent(rt, rc)
	if err != nil {
		return nil, err
	}
	rep := &Report{Scenario: f.name, Description: f.description, Question: f.Question(), expect: f.expect}
	var (
		pausedQ *agent.PauseInfo
		seen    int           // history messages already reported
		last    *agent.Result // the last result of any turn
		leg     *agent.Result // a paused leg whose evidence a resume will carry on
		hist    []llm.Message // the conversation as of the last turn
	)
	conv := a.NewConversation()
	finish := func() *Report {
		if leg != nil {
			rep.addEvidence(leg.Record)
		}
		rep.Problems = append(rep.Problems, rt.problems...)
		rep.finishCalls()
		if last != nil {
			rep.Record = last.Record
			rep.Ledger = last.Record.Findings()
			if a := last.Assessment; !record.NotFolded(a) {
				rep.Standing = a
			}
		}
		rep.Transcript = hist
		return rep
	}
	for _, t := range f.turns {
		var res *agent.Result
		switch {
		case t.resume != nil:
			if pausedQ == nil {
				return finish(), fieldErr(join(t.path, "resume"), "nothing is paused: the turn before ended with an answer")
			}
			res, err = conv.Resume(ctx, t.resume)
		case pausedQ != nil:
			return finish(), fieldErr(join(t.path, "user"), "the run is paused: tool %s (call %s) waits for an answer; give {\"resume\": …} first", pausedQ.ToolName, pausedQ.ToolCallID)
		default:
			res, err = conv.Send(ctx, agent.Input{Message: t.user, Time: f.agent.time.given()})
		}
		if res != nil {
			last = res
			if h := res.History; h != nil {
				hist = h
			}
			// A resumed leg's record holds the paused leg's evidence too.
			leg = nil
			rep.addTurn(t, res, hist, &seen)
			if res.Paused && err == nil {
				leg = res
			} else {
				rep.addEvidence(res.Record)
			}
		}
		if err != nil {
			return finish(), &RunError{Turn: t.path, Err: err}
		}
		pausedQ = nil
		if res.Paused {
			pausedQ = res.PauseData
		}
	}
	return finish(), nil
}

// RunError is a run that failed part way: Turn names the turn (`turns[2]`), Err is the
// agent's error (a *agent.RunCheckpointError when the model call failed).
type RunError struct {
	Turn string
	Err  error
}

// Error names the turn and the failure.
func (e *RunError) Error() string {
	return fmt.Sprintf("scenario: %s: the run failed: %v", e.Turn, e.Err)
}

// Unwrap returns the agent's error.
func (e *RunError) Unwrap() error { return e.Err }

// addTurn folds one turn's result into the report: the turn, the answer and the tool
// messages the model was served in it.
func (rep *Report) addTurn(t turn, res *agent.Result, hist []llm.Message, seen *int) {
	tr := TurnReport{Answer: res.Answer, Paused: res.Paused, Iterations: res.Iterations, RunID: res.RunID}
	if t.resume != nil {
		tr.Resume = t.resume
	} else {
		tr.User = t.user
	}
	if res.PauseData != nil {
		p := *res.PauseData
		tr.Pause = &p
	}
	rep.Turns = append(rep.Turns, tr)
	rep.Answer, rep.Iterations = res.Answer, res.Iterations
	rep.Paused = tr.Pause
	if hist != nil {
		for _, m := range hist[min(*seen, len(hist)):] {
			if m.Role == llm.RoleTool {
				rep.ToolMessages = append(rep.ToolMessages, ToolMessage{ToolCallID: m.ToolCallID, ToolName: m.ToolName, Content: m.Content, IsError: m.IsError})
			}
		}
		*seen = len(hist)
	}
}

// addEvidence folds a result's record into the report: its events and its
// coverageDeclared rows.
func (rep *Report) addEvidence(rec *record.Record) {
	if rec == nil {
		return
	}
	rep.Events = append(rep.Events, rec.Events.Slice()...)
	if rec.Log != nil && len(rec.Log.Commits) > 0 {
		if v, ok, err := flow.ValueAt(rec.Log, len(rec.Log.Commits)-1, state.KeyCoverageDeclared.KeyName()); err == nil && ok {
			if rs, ok := v.([]coverage.DeclaredCoverage); ok {
				rep.CoverageDeclared = append(rep.CoverageDeclared, rs...)
			}
		}
	}
}

// finishCalls lists the tool calls from the tools.start and tools.result events.
func (rep *Report) finishCalls() {
	rep.ToolCalls = nil
	at := map[string]int{}
	for _, e := range rep.Events {
		switch p := e.Payload.(type) {
		case event.ToolsStartPayload:
			c := ToolCall{ID: p.ToolCallID, Name: p.ToolName, Args: p.Args}
			if e.Meta.IterIndex != nil {
				c.Iteration = *e.Meta.IterIndex
			}
			at[p.ToolCallID] = len(rep.ToolCalls)
			rep.ToolCalls = append(rep.ToolCalls, c)
		case event.ToolsResultPayload:
			if i, ok := at[p.ToolCallID]; ok {
				rep.ToolCalls[i].Status = tool.Status(p.Status)
				rep.ToolCalls[i].Error = p.Error
				rep.ToolCalls[i].Served = true
			}
		}
	}
}
