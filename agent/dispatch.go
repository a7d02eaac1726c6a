// Tool dispatch: the tool-calls stage runs one batch sequentially in the
// model's order, reads every result through the coverage channel, serves the
// model what it may read, and pauses when a tool asks a person
// (a check-in before it runs, or the tool's own tool.Pause).

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/internal/toolcall"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

// PauseInfo is the pause data of a run paused at the tool stage: which call
// asked, and what it asked (the tool's tool.Pause data, the check-in, or the
// inputs layer's question).
type PauseInfo struct {
	// Kind is PauseTool for a tool's tool.Pause, PauseCheckIn for a declared
	// check-in waiting for the person's consent, PauseArguments for the
	// inputs layer's question about a batch's arguments.
	Kind       string `json:"kind"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	Data       any    `json:"data"`
}

// Pause kinds (PauseArguments is with the inputs layer, inputs_ask.go).
const (
	PauseTool    = "tool"
	PauseCheckIn = "check-in"
)

// CheckInRequest is the pause data of a check-in: the call waiting for
// consent. Resume it with JSON true (or "yes") to run the call; any other
// answer declines it.
type CheckInRequest struct {
	ToolName string          `json:"toolName"`
	Args     json.RawMessage `json:"args"`
}

// batch is one dispatch in progress.
type batch struct {
	a     *Agent
	rs    *runState
	s     *flow.Scope
	iter  int
	turn  int
	calls []llm.ToolCall
	// recorded are the calls as committed (read-only), index by index
	// with calls.
	recorded []llm.ToolCall
	msgs     []llm.Message
	results  []state.ToolResult
	rows     []coverage.DeclaredCoverage
	// one holds calls when the model made a single call (the usual case).
	one [1]llm.ToolCall
	// ended is when the batch's last settled call ended, on the system
	// clock (hasEnded): iteration_end's time.
	ended    instant
	hasEnded bool
}

// outcome is what dispatching one call produced.
type outcome struct {
	served string
	status tool.Status
	isErr  bool
	// raw is the tool's own output, kept as a blob when hasRaw is set.
	raw    string
	hasRaw bool
	pause  *toolcall.Pause
	// checkIn marks a pause asking for consent before execute.
	checkIn bool
	// failed marks a call whose tool returned an error (not a refusal).
	failed bool
}

// callMode says how a call is dispatched: in a resumed batch (a second pause
// is refused), and, for the call whose check-in was answered, the consent.
type callMode struct {
	resumed bool
	consent *bool
}

func (a *Agent) newBatch(ctx context.Context, s *flow.Scope) *batch {
	rs := runOf(ctx)
	b := &rs.batch
	if rs.hold != nil {
		b = new(batch)
	}
	*b = batch{a: a, rs: rs, s: s}
	b.iter, _ = kIteration.Get(s)
	b.turn, _ = kTurnNumber.Get(s)
	calls, _ := kLatestToolCalls.Get(s)
	b.recorded = calls
	// Copy the calls as plain data: what the tools see cannot reach state.
	// The arguments' copies come from the run's chunk (capacity-clipped).
	if len(calls) == 1 {
		// The message and result one call makes go into the record (the
		// history tail, toolResults), so they come from the run's chunks,
		// not from the batch the next iteration reuses.
		b.calls = b.one[:]
		b.msgs = rs.toolMsgs.take(1, rs.iterRoom(), 64)[:0]
		b.results = rs.toolResults.take(1, rs.iterRoom(), 64)[:0]
	} else {
		b.calls = make([]llm.ToolCall, len(calls))
	}
	for i, c := range calls {
		c.Args = b.rs.argBytes.copyOf(c.Args, 512, 4<<10)
		b.calls[i] = c
	}
	return b
}

func (a *Agent) toolCallsExecute(ctx context.Context, s *flow.Scope) (*flow.Pause, error) {
	b := a.newBatch(ctx, s)
	if ask := a.seams.ask; ask != nil {
		if p := ask.batchAsk(ctx, s, b); p != nil {
			return p, nil
		}
	}
	return b.run(ctx, 0, false)
}

func (a *Agent) toolCallsResume(ctx context.Context, s *flow.Scope, input json.RawMessage) error {
	a.seams.runResumed(ctx, s)
	b := a.newBatch(ctx, s)
	if ask := a.seams.ask; ask != nil {
		handled, err := ask.batchAnswer(ctx, s, b, input)
		if handled {
			if err != nil {
				return err
			}
			_, err = b.run(ctx, 0, true)
			return err
		}
	}
	id, _ := kPausedID.Get(s)
	name, _ := kPausedName.Get(s)
	startMs, _ := kPausedStartMs.Get(s)
	prev, _ := kToolResults.Get(s)
	b.results = append([]state.ToolResult{}, prev...)
	idx := -1
	for i, c := range b.calls {
		if c.ID == id && c.Name == name && i >= len(b.results) {
			idx = i
			break
		}
	}
	if idx < 0 {
		return fmt.Errorf("agent: resume: the paused call %q (%s) is not in the pending batch", id, name)
	}
	b.rs.emit(s, event.PauseResume, b.iter, func() any {
		return event.PauseResumePayload{PausedDurationMs: a.cfg.now().UnixMilli() - startMs}
	})
	if err := b.answer(ctx, b.calls[idx], input); err != nil {
		return err
	}
	s.Delete(kPausedID.KeyName())
	s.Delete(kPausedName.KeyName())
	s.Delete(kPausedArgs.KeyName())
	s.Delete(kPausedStartMs.KeyName())
	_, err := b.run(ctx, idx+1, true)
	return err
}

// answer finishes the paused call with the person's input: the consent of a
// check-in (the call then runs or is declined), or the call's result.
func (b *batch) answer(ctx context.Context, c llm.ToolCall, input json.RawMessage) error {
	if t, ok := b.a.tools[c.Name]; ok && (t.Declaration().CheckIn != nil) {
		if need, err := toolrun.NeedsCheckIn(t.Declaration(), c.Args); err == nil && need {
			yes := consented(input)
			b.finish(c, b.dispatch(ctx, c, callMode{resumed: true, consent: &yes}))
			return nil
		}
	}
	var v any = input
	var str string
	if json.Unmarshal(input, &str) == nil {
		v = str
	}
	text, err := toolrun.Text(v)
	if err != nil {
		return fmt.Errorf("agent: resume input: %w", err)
	}
	b.rs.emit(b.s, event.ToolsResult, b.iter, func() any {
		return event.ToolsResultPayload{ToolCallID: c.ID, Result: text}
	})
	b.finish(c, outcome{served: text, raw: text, hasRaw: true})
	return nil
}

// consented reads a check-in answer: JSON true or the string "yes" (any case).
func consented(input json.RawMessage) bool {
	var v any
	if json.Unmarshal(input, &v) != nil {
		return false
	}
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return strings.EqualFold(strings.TrimSpace(x), "yes")
	}
	return false
}

// run dispatches calls[from:] in order. resumed forbids a second pause: a call
// that asks again is refused by name and the model may propose it again.
func (b *batch) run(ctx context.Context, from int, resumed bool) (*flow.Pause, error) {
	if limit := b.a.cfg.parallel.limit; limit > 1 && len(b.calls)-from > 1 {
		return b.runParallel(ctx, from, resumed, limit)
	}
	for i := from; i < len(b.calls); i++ {
		if err := ctx.Err(); err != nil {
			b.commit(false)
			return nil, err
		}
		c := b.calls[i]
		mode := callMode{resumed: resumed}
		start := b.announce(i)
		o := b.settle(c, b.runCall(ctx, c, mode), mode, start)
		if o.pause != nil {
			return b.pauseAt(c, o), nil
		}
		b.finish(c, o)
	}
	b.commit(true)
	return nil, nil
}

// pauseAt commits the calls finished so far and the paused* keys.
func (b *batch) pauseAt(c llm.ToolCall, o outcome) *flow.Pause {
	b.commit(false)
	kPausedID.Set(b.s, c.ID)
	kPausedName.Set(b.s, c.Name)
	kPausedArgs.Set(b.s, c)
	kPausedStartMs.Set(b.s, b.a.cfg.now().UnixMilli())
	kind := PauseTool
	if o.checkIn {
		kind = PauseCheckIn
	}
	b.rs.emit(b.s, event.PauseRequest, b.iter, func() any {
		return event.PauseRequestPayload{Reason: kind, ToolCallID: c.ID, ToolName: c.Name}
	})
	return &flow.Pause{Data: PauseInfo{Kind: kind, ToolCallID: c.ID, ToolName: c.Name, Data: o.pause.Data}}
}

// commit writes what the batch produced; done also closes the iteration.
func (b *batch) commit(done bool) {
	if len(b.msgs) > 0 {
		kHistory.Append(b.s, b.msgs...)
		b.msgs = nil
	}
	// The batch's list itself, capacity-clipped: a later call of the batch
	// appends past what this commit holds and writes nothing before it.
	if b.results == nil {
		kToolResults.Set(b.s, []state.ToolResult{})
	} else {
		kToolResults.Set(b.s, b.results[:len(b.results):len(b.results)])
	}
	if n := len(b.results); n > 0 {
		kLastToolResult.Set(b.s, b.results[n-1])
	}
	if len(b.rows) > 0 {
		kCoverage.Append(b.s, b.rows...)
		b.rows = nil
	}
	if done {
		b.a.seams.runBatchDone(b.s, b.iter)
		end := func(g *iterEvents) { g.iterEnd = event.IterationEnd{IterIndex: b.iter, ToolCallCount: len(b.calls)} }
		if b.hasEnded {
			b.rs.emitGroupedAt(b.s, evIterEnd, b.iter, b.ended, end)
		} else {
			b.rs.emitGrouped(b.s, evIterEnd, b.iter, end)
		}
		kIteration.Set(b.s, b.iter+1)
	}
}

// finish records one call's result: the tool message, the toolResults entry,
// the raw output blob and the tools.result event.
func (b *batch) finish(c llm.ToolCall, o outcome) {
	b.msgs = append(b.msgs, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, ToolName: c.Name, Content: o.served, IsError: o.isErr})
	r := state.ToolResult{ToolCallID: c.ID, ToolName: c.Name, Iteration: b.iter, Status: o.status, Error: o.isErr, ServedChars: textlen.UTF16(o.served)}
	if o.hasRaw {
		r.OutputRef = b.rs.blobRefText(o.raw)
	}
	b.results = append(b.results, r)
}

// announce emits tools.start for call i of the batch and returns the instant
// the call starts at. On the system clock that is the event's own reading;
// on a clock of the caller's it is read after the event's, as before, since
// each reading of such a clock may move it (stampAt).
func (b *batch) announce(i int) instant {
	rs := b.rs
	if !rs.wants(event.ToolsStart) {
		return rs.instant()
	}
	at := rs.instant()
	b.announceAt(i, &at)
	if rs.a.cfg.ownClock {
		at = rs.instant()
	}
	return at
}

// announceAt emits tools.start for call i of the batch, at *at, or at a
// reading of its own when at is nil. Its arguments are the recorded call's,
// which nothing writes once committed, rather than the copy the tool is
// handed.
func (b *batch) announceAt(i int, at *instant) {
	if !b.rs.wants(event.ToolsStart) {
		return
	}
	c := b.calls[i]
	var args json.RawMessage
	if i < len(b.recorded) && len(b.recorded[i].Args) > 0 {
		args = b.recorded[i].Args
	}
	var wall, offset int64
	if at != nil {
		wall, offset = at.wall, at.offset
	} else {
		wall, offset = b.rs.stamp()
	}
	b.rs.keepGrouped(b.s, evToolsStart, b.iter, wall, offset, func(g *iterEvents) {
		g.toolsStart = event.ToolsStartPayload{ToolName: c.Name, ToolCallID: c.ID, Args: args}
		if len(b.calls) > 1 {
			g.toolsStart.ParallelCount = len(b.calls)
		}
	})
}

// dispatch takes one announced call through its steps in order: run it
// (resolve, fill, validate, check in, time, execute, read the result, the
// tool's ceiling), then settle what it served.
func (b *batch) dispatch(ctx context.Context, c llm.ToolCall, mode callMode) outcome {
	start := b.rs.instant()
	return b.settle(c, b.runCall(ctx, c, mode), mode, start)
}

// settle is a call's last step. A resumed batch cannot pause again: the call
// is refused by name and the model may propose it again. Then the operator's
// cap on what any call serves is applied and tools.result announces the
// result. A pause passes through untouched.
func (b *batch) settle(c llm.ToolCall, o outcome, mode callMode, start instant) outcome {
	a, s := b.a, b.s
	if o.pause != nil && mode.resumed {
		o = outcome{served: fmt.Sprintf("The tool %q asked to pause again while the run was resuming from a pause; it was not run. Propose the call again if it is still needed.", c.Name), isErr: true}
		if more := a.seams.pauseRefused(s, c); more != "" {
			o.served += " " + more
		}
	}
	if o.pause != nil {
		return o
	}
	o.served, _ = truncateServed(o.served, a.cfg.maxResultChars)
	rs := b.rs
	if rs.wants(event.ToolsResult) {
		// On the system clock one reading is the event's time and the
		// call's end (and, for the batch's last call, iteration_end's
		// time); a clock of the caller's is read for the time, then for the
		// end, as before (stampAt).
		end := rs.instant()
		wall, offset := end.wall, end.offset
		if a.cfg.ownClock {
			end = rs.instant()
		} else {
			b.ended, b.hasEnded = end, true
		}
		rs.keepGrouped(s, evToolsResult, b.iter, wall, offset, func(g *iterEvents) {
			g.toolsResult = event.ToolsResultPayload{ToolCallID: c.ID, Result: o.served, Error: o.isErr, DurationMs: end.sub(start).Milliseconds(), Status: string(o.status)}
		})
	}
	return o
}

// runCall is the call's steps up to its served result: prepareCall, then
// executeCall with the layers' note read after execute.
func (b *batch) runCall(ctx context.Context, c llm.ToolCall, mode callMode) outcome {
	p, early, done := b.prepareCall(c, mode)
	if done {
		return early
	}
	return b.executeCall(ctx, c, p, func() string { return b.a.seams.resultNote(b.s, c) })
}

// preparedCall is a call that passed steps 1 to 5 and is ready to execute.
type preparedCall struct {
	d    tool.Declaration // fetched once per call
	args json.RawMessage
	ct   *tool.CallTime
}

// prepareCall takes a call through the steps that read or write the run's
// state (resolve, fill, validate, check-in, clock). done reports an outcome
// already settled (a refusal, or a check-in pause) that must not execute.
func (b *batch) prepareCall(c llm.ToolCall, mode callMode) (p preparedCall, o outcome, done bool) {
	a, s := b.a, b.s
	// Step 1: resolve the tool by name.
	t, ok := a.tools[c.Name]
	if !ok {
		return p, outcome{served: a.unknownTool(c.Name), isErr: true}, true
	}
	args := c.Args
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	// Step 2: the inputs layer (armed only) fills missing arguments on a
	// fresh args object, or refuses the call.
	filled, refusal := a.seams.fillArgs(s, c, t, args)
	if refusal != "" {
		return p, outcome{served: refusal, status: tool.StatusInvalid, isErr: true}, true
	}
	args = filled

	// Step 3: argument validation.
	d := t.Declaration()
	if rej := toolrun.Validate(d, args, c.ArgsError); rej != nil {
		enforced := d.Validation == tool.ModeEnforce || d.Validation == ""
		b.rs.emit(s, event.ValidationArgsInvalid, b.iter, func() any {
			p := event.ArgsInvalid{ToolName: c.Name, ToolCallID: c.ID, Iteration: b.iter, Issues: []event.IssueBrief{}, Enforced: enforced}
			for _, is := range rej.Issues {
				p.Issues = append(p.Issues, event.IssueBrief{Path: is.Path, Keyword: is.Keyword})
			}
			return p
		})
		if enforced {
			return p, outcome{served: rej.Text(), status: tool.StatusInvalid, isErr: true}, true
		}
	}
	// Step 4: a declared check-in pauses for consent before execute.
	if d.CheckIn != nil {
		if mode.consent != nil {
			if !*mode.consent {
				return p, outcome{served: fmt.Sprintf("The person did not consent to this call of %q; it was not run.", c.Name), isErr: true}, true
			}
		} else {
			need, err := toolrun.NeedsCheckIn(d, args)
			if err != nil {
				return p, outcome{served: fmt.Sprintf("The check-in of tool %q failed, so the call was not run: %s", c.Name, err), isErr: true}, true
			}
			if need {
				return p, outcome{checkIn: true, pause: &toolcall.Pause{Data: CheckInRequest{ToolName: c.Name, Args: append(json.RawMessage(nil), args...)}}}, true
			}
		}
	}
	// Step 5: under WithTimeLayer (armed only), the call's clock row and time.
	var ct *tool.CallTime
	if a.seams.callTime != nil {
		ct, args = a.seams.callTime.callTime(s, c, args)
	}
	return preparedCall{d: d, args: args, ct: ct}, outcome{}, false
}

// executeCall runs a prepared call (step 6) and reads its result (steps 7
// and 8). It touches the run's state only through note, which returns the
// layers' note on the call's values.
func (b *batch) executeCall(ctx context.Context, c llm.ToolCall, p preparedCall, note func() string) outcome {
	s, d, args := b.s, &p.d, p.args
	// Step 6: execute.
	// The reporter holds what it needs, not the batch, which the run's
	// next iteration reuses.
	rs, iter := b.rs, b.iter
	call := tool.Call{ID: c.ID, Name: c.Name, Iteration: iter, Turn: b.turn, Time: p.ct, Progress: func(payload any) {
		rs.emit(s, event.ToolsProgress, iter, func() any {
			return event.ToolsProgressPayload{ToolCallID: c.ID, ToolName: c.Name, Iteration: iter, Payload: payload}
		})
	}}
	out, err := toolrun.Execute(toolrun.WithCall(ctx, call), *d, args)
	if data, paused := toolrun.PauseData(err); paused {
		return outcome{pause: &toolcall.Pause{Data: data}}
	}
	text := note()
	if err != nil {
		if ref, ok := declarationRefusal(err); ok {
			b.a.warn.refusedDeclaration(c.Name, err)
			return outcome{served: ref + text, status: tool.StatusInvalid, isErr: true, raw: ref, hasRaw: true}
		}
		msg := fmt.Sprintf("The tool %q failed: %s", c.Name, err.Error())
		return outcome{served: msg + text, isErr: true, raw: err.Error(), hasRaw: true, failed: true}
	}
	o := b.boundary(c, d, out)
	o.served += text
	return o
}

// boundary reads what the result declares (once), applies the tool's
// ceiling to what the model would read, and returns what it is served.
func (b *batch) boundary(c llm.ToolCall, d *tool.Declaration, out toolrun.Output) outcome {
	s := b.s
	o := outcome{status: out.Status}
	rawText, err := toolrun.Text(out.Value)
	if err != nil {
		return outcome{served: fmt.Sprintf("The result of tool %q could not be encoded: %s", c.Name, err), isErr: true}
	}
	o.raw, o.hasRaw = rawText, true

	// Read the result once: what it declares (status, rows, described
	// values, with their events) and what the model is served.
	rd := boundary.Read(out.Value, c.Name, b.a.warn.coverage)
	if rd.Semantics != nil {
		b.rs.emit(s, event.ToolsSemanticsDeclared, b.iter, func() any {
			return event.SemanticsDeclared{ToolName: c.Name, ToolCallID: c.ID, Iteration: b.iter, Semantics: rd.Semantics}
		})
	}
	if rd.Record {
		b.a.warn.unjudged(b.a.cfg.has(layerResults), c.Name, rd)
		if rd.Absent && o.status == "" {
			o.status = tool.StatusAbsent
		}
		for _, f := range rd.Declared {
			row := f.Row(c.Name, c.ID, b.iter)
			b.rows = append(b.rows, row)
			if f.Kind == boundary.KindAbsence {
				b.rs.emit(s, event.ToolsAbsent, b.iter, func() any { return absentPayload(row, f) })
			} else {
				b.rs.emit(s, event.ToolsCoverageDeclared, b.iter, func() any { return row })
			}
		}
	}
	// What the model is served (the declarations in words) comes before the
	// ceiling, because the ceiling measures what the model would read.
	served := rawText
	if rd.Changed {
		if served, err = toolrun.Text(rd.Served); err != nil {
			return outcome{served: fmt.Sprintf("The result of tool %q could not be encoded: %s", c.Name, err), isErr: true, raw: o.raw, hasRaw: true}
		}
	}
	// The tool's own ceiling.
	if d.ResultCeiling > 0 {
		if refusal, size, over := toolrun.CheckCeiling(*d, served); over {
			declared := o.status
			b.rs.emit(s, event.ToolsResultRefused, b.iter, func() any {
				return event.ResultRefused{ToolName: c.Name, ToolCallID: c.ID, Iteration: b.iter, SizeChars: size, MaxChars: d.ResultCeiling, NarrowBy: d.NarrowBy, DeclaredStatus: string(declared)}
			})
			o.served, o.status = refusal, tool.StatusInvalid
			return o
		}
	}
	o.served = served
	return o
}

// absentPayload is the absence row's fields plus the suggestions and
// provenance only the event carries.
func absentPayload(row coverage.DeclaredCoverage, f boundary.Facts) json.RawMessage {
	base, err := json.Marshal(row)
	if err != nil {
		return nil
	}
	var extra []string
	add := func(key string, v any) {
		if b, err := json.Marshal(v); err == nil {
			kb, _ := json.Marshal(key)
			extra = append(extra, string(kb)+":"+string(b))
		}
	}
	if f.TryInstead != "" {
		add("tryInstead", f.TryInstead)
	}
	if f.TryInsteadTool != nil {
		add("tryInsteadTool", f.TryInsteadTool)
	}
	if f.Provenance != nil {
		add("provenance", f.Provenance)
	}
	if len(extra) == 0 {
		return base
	}
	return json.RawMessage(string(base[:len(base)-1]) + "," + strings.Join(extra, ",") + "}")
}

// unknownTool is the result served for a call to a tool that is not offered.
func (a *Agent) unknownTool(name string) string {
	if len(a.order) == 0 {
		return fmt.Sprintf("There is no tool named %q: no tools are offered in this conversation.", name)
	}
	return fmt.Sprintf("There is no tool named %q. The tools offered are: %s.", name, strings.Join(a.order, ", "))
}
