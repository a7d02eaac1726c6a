// The stages of the agent chart other than tool dispatch: seed, context,
// call-llm, sf-route, wrap-up, prepare-final and break-final.

package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/internal/contextunits"
	"github.com/agentfootprint/agentfootprint-go/internal/retrievalcov"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Texts the framework writes into the conversation at wrap-up.
const (
	wrapUpToolText = "This call was not run: the step budget for this turn is spent."
	wrapUpUserText = "No tool can run any more in this turn. Answer now from what has been gathered so far, and say plainly what is still missing."
)

func (a *Agent) seedStage(ctx context.Context, s *flow.Scope) (any, error) {
	rs := runOf(ctx)
	user := llm.Message{Role: llm.RoleUser, Content: rs.message}
	hist := make([]llm.Message, 0, len(rs.prior)+1)
	hist = append(hist, rs.prior...)
	hist = append(hist, user)
	kUserMessage.Set(s, rs.message)
	kTurnNumber.Set(s, rs.turn)
	kMaxIterations.Set(s, a.cfg.maxIter)
	kHistory.Set(s, hist)
	rs.seedHistory = &hist[0]
	kIteration.Set(s, 1)
	kCatalog.Set(s, a.catalog(rs))
	kCoverage.Set(s, []coverage.DeclaredCoverage{})
	kFinalContent.Set(s, "")
	if err := a.seams.runSeed(ctx, s, rs.from); err != nil {
		return nil, err
	}
	rs.emit(s, event.AgentTurnStart, 0, func() any {
		return event.TurnStart{TurnNumber: rs.turn, MessageChars: textlen.UTF16(rs.message)}
	})
	return nil, nil
}

// inlineUnitBytes is the largest unit text the catalog holds inline; a
// longer one is a blob named by contentRef.
const inlineUnitBytes = 4096

// catalog is the BORN record: every unit, then every tool.
func (a *Agent) catalog(rs *runState) []inject.CatalogEntry {
	out := make([]inject.CatalogEntry, 0, len(a.cfg.units)+len(a.order))
	for _, u := range a.cfg.units {
		e := contextunits.CatalogEntry(u)
		if len(e.Content) > inlineUnitBytes {
			e.ContentRef = rs.blobRef([]byte(e.Content))
			e.Content = ""
		}
		out = append(out, e)
	}
	for i, name := range a.order {
		e := a.toolEntries[i]
		// A fresh site per record: a catalog entry is the record's own.
		e.DefinedAt = toolSite(a.tools[name])
		out = append(out, e)
	}
	return out
}

// toolEntries are the catalog entries of a's tools in order, without their
// definition sites (catalog adds those per record).
func toolEntries(a *Agent) []inject.CatalogEntry {
	out := make([]inject.CatalogEntry, 0, len(a.order))
	for _, name := range a.order {
		ref, _ := hashRef(a.tools[name].Declaration().InputSchema)
		out = append(out, inject.CatalogEntry{ID: "tool/" + name, Kind: "tool", SchemaHash: ref})
	}
	return out
}

func (a *Agent) contextStage(ctx context.Context, s *flow.Scope) (any, error) {
	rs := runOf(ctx)
	iter, _ := kIteration.Get(s)
	hist := kHistory.Get(s)
	env := contextunits.Env{Iteration: iter}
	if a.needsReturns() {
		results, _ := kToolResults.Get(s)
		for _, r := range results {
			if r.Iteration == iter-1 {
				env.Returns = append(env.Returns, inject.ToolReturn{ToolCallID: r.ToolCallID, ToolName: r.ToolName, Iteration: r.Iteration})
			}
		}
	}
	if a.hasSkills() {
		env.Activations = skillActivations(hist)
	}
	env.Context = ctx // bounds the queries of retrieval units
	entries := contextunits.Evaluate(a.cfg.units, s, env)
	if a.hasRetrieval() {
		// What a retrieval's corpus declared it covers is filed like a
		// tool's declaration, once per query, so it reaches the standing
		// and the limits block.
		if rows := retrievalcov.Rows(entries, iter, kCoverage.Get(s)); len(rows) > 0 {
			kCoverage.Append(s, rows...)
		}
	}
	cu := state.ContextUnits{Iteration: iter, Units: entries, History: a.historyWindow(iter, hist, rs)}
	if cu.Units == nil {
		cu.Units = []inject.Entry{}
	}
	kContextUnits.Set(s, cu)
	rs.emitGrouped(s, evContext, iter, func(g *iterEvents) { g.ctxEntries, g.ctxEvicted = entries, cu.History.Evicted })
	return nil, nil
}

func (a *Agent) needsReturns() bool {
	for _, u := range a.cfg.units {
		if u.Definition().Trigger == inject.TriggerOnToolReturn {
			return true
		}
	}
	return false
}

// emptyReply is the cause of a run whose model answered with neither text
// nor a tool call; it is ErrEmptyReply, naming the call (step is the model
// call's runtime stage id, call-llm#n).
type emptyReply struct {
	step      string
	iteration int
	provider  string
}

// Error names the call and says what was missing.
func (e *emptyReply) Error() string {
	return fmt.Sprintf("%s (iteration %d): %s replied with no text and no tool call", e.step, e.iteration, e.provider)
}

// Is makes errors.Is(err, ErrEmptyReply) hold.
func (*emptyReply) Is(target error) bool { return target == ErrEmptyReply }

// providerFailure carries a provider error out of call-llm with what a
// conversation checkpoint needs.
type providerFailure struct {
	err error
}

func (p *providerFailure) Error() string { return "the model call failed: " + p.err.Error() }
func (p *providerFailure) Unwrap() error { return p.err }

func (a *Agent) buildRequest(s *flow.Scope, rs *runState, cu state.ContextUnits, hist []llm.Message, wrapped bool) *llm.Request {
	// A provider must not keep or modify a request (llm.Provider), and the
	// call-llm stage reads only its counts and names once the call returns,
	// so the calls of a turn, made one after another, share one request
	// and one message buffer.
	scr := rs.scratch()
	box := &scr.box
	req := &box.req
	*req = llm.Request{Model: a.cfg.model, Temperature: a.cfg.temperature, MaxTokens: a.cfg.maxTokens}
	var buf [8]placedUnit
	sys := placedUnits(buf[:0], a.cfg.units, cu.Units, inject.SlotSystem)
	switch {
	case len(sys) == 1:
		req.System = box.sys[:0]
	case len(sys) > 1:
		req.System = make([]llm.Segment, 0, len(sys))
	}
	for _, p := range sys {
		req.System = append(req.System, llm.Segment{Unit: p.u.ID(), Text: p.u.Definition().Text})
	}
	req.Messages = scr.msgs[:0]
	if need := len(hist) + 1; cap(req.Messages) < need {
		// A turn's history grows by two messages a tool call: room for a
		// few calls more than this one needs.
		req.Messages = make([]llm.Message, 0, max(2*need, 2*cap(req.Messages)))
	}
	for _, i := range cu.History.Sent {
		if i < 0 || i >= len(hist) {
			continue
		}
		m := hist[i]
		m.Unit = rs.historyUnit(i)
		req.Messages = append(req.Messages, m)
	}
	for _, p := range placedUnits(buf[:0], a.cfg.units, cu.Units, inject.SlotMessages) {
		d := p.u.Definition()
		req.Messages = append(req.Messages, llm.Message{Role: d.Role, Content: d.Text, Unit: p.u.ID()})
	}
	for i, name := range a.order {
		if !a.offered(name, cu) {
			continue
		}
		t := a.tools[name]
		d := t.Declaration()
		if req.Tools == nil {
			if len(a.order)-i == 1 {
				req.Tools = box.tool[:0]
			} else {
				req.Tools = make([]llm.ToolSchema, 0, len(a.order)-i)
			}
		}
		req.Tools = append(req.Tools, llm.ToolSchema{Name: name, Description: d.Description, InputSchema: d.InputSchema})
	}
	if wrapped && len(req.Tools) > 0 {
		// The wrap-up call: the tools stay declared, because a history
		// holding tool calls and results must come with the tools that made
		// them (Anthropic refuses it otherwise), and none may be called.
		req.ToolChoice = llm.ToolChoice{Mode: llm.ToolChoiceNone}
	}
	a.seams.shapeRequest(s, req)
	scr.msgs = req.Messages[:0]
	req.SpanBuffer = scr.spanBuffer(rs.prevSpans, len(req.System)+len(req.Messages)+len(req.Tools))
	return req
}

// requestBox is a model call's request with room for one system segment and
// one tool declaration, the shape of most requests: one allocation for the
// three, reused from one turn to the next (runScratch).
type requestBox struct {
	req  llm.Request
	sys  [1]llm.Segment
	tool [1]llm.ToolSchema
}

// placedUnit is a unit placed in a slot and its position there.
type placedUnit struct {
	u   *inject.Unit
	pos int
}

// placedUnits appends to dst the units entries placed in slot, in placement
// order — what contextunits.Placed answers, for the agent's units (each listed
// once), into a buffer the caller keeps on its stack.
func placedUnits(dst []placedUnit, units []*inject.Unit, entries []inject.Entry, slot inject.Slot) []placedUnit {
	for i, e := range entries {
		if e.Placed == nil || e.Placed.Slot != slot || i >= len(units) {
			continue
		}
		p := placedUnit{u: units[i], pos: e.Placed.Position}
		// Insertion keeps equal positions in entry order, as a stable
		// sort does; a slot holds a handful of units.
		j := len(dst)
		dst = append(dst, p)
		for j > 0 && dst[j-1].pos > p.pos {
			dst[j] = dst[j-1]
			j--
		}
		dst[j] = p
	}
	return dst
}

func (a *Agent) callLLMStage(ctx context.Context, s *flow.Scope) (any, error) {
	rs := runOf(ctx)
	iter, _ := kIteration.Get(s)
	cu, _ := kContextUnits.Get(s)
	hist := kHistory.Get(s)
	wrapped, _ := kWrapUpAsked.Get(s)
	rs.emitGrouped(s, evIterStart, iter, nil)
	req := a.buildRequest(s, rs, cu, hist, wrapped)

	started := rs.instant()
	resp, err := a.complete(ctx, s, rs, iter, req)
	if err == nil && resp == nil {
		err = &llm.Error{Provider: a.provider.Name(), Kind: llm.KindUnknown,
			Message: "the provider returned neither a reply nor an error; this is a bug in the provider"}
	}
	if err != nil {
		rs.failure = &failurePoint{Iteration: iter, Phase: "llm", Stage: stageCallLLM}
		rs.failHistory = hist
		if ctx.Err() != nil {
			// Cancellation is the caller's, not the provider's failure.
			if errors.Is(err, ctx.Err()) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %w", ctx.Err(), err)
		}
		rs.emit(s, event.ErrorFatal, iter, func() any {
			return event.ErrorFatalPayload{Error: err.Error(), Stage: stageCallLLM, Scope: "run"}
		})
		return nil, &providerFailure{err: err}
	}
	ended := rs.instant()
	dur := ended.sub(started)
	model := req.Model
	if resp.Model != "" {
		model = resp.Model // what the provider says answered
	}
	capt := rs.capture(iter, model, &resp.Exchange)
	rs.emitGroupedAt(s, evRequest, iter, ended, func(g *iterEvents) {
		g.request = event.LLMRequestPayload{
			Iteration: iter, Provider: a.provider.Name(), Model: req.Model,
			SystemPromptChars: systemChars(req.System),
			MessagesCount:     len(req.Messages), ToolsCount: len(req.Tools), Tools: rs.toolNames(req.Tools),
			RequestSha256: capt.Request.Sha256, RequestBytes: capt.Request.Bytes, Temperature: req.Temperature,
		}
	})

	if strings.TrimSpace(resp.Content) == "" && len(resp.ToolCalls) == 0 {
		// Nothing to answer with and nothing to run: the exchange is kept, the
		// history is not given an empty turn, and the run ends naming the call.
		kLLMRequest.Set(s, capt)
		empty := &emptyReply{step: s.Info().RuntimeStageID, iteration: iter, provider: a.provider.Name()}
		rs.failure = &failurePoint{Iteration: iter, Phase: "llm", Stage: stageCallLLM}
		rs.failHistory = hist
		rs.emit(s, event.ErrorFatal, iter, func() any {
			return event.ErrorFatalPayload{Error: empty.Error(), Stage: stageCallLLM, Scope: "run"}
		})
		return nil, &providerFailure{err: empty}
	}
	var calls []llm.ToolCall
	var msg []llm.Message
	if len(resp.ToolCalls) <= 1 {
		// The usual reply (an answer or one call): its history message
		// and its call list in one allocation.
		t := new(assistantTurn)
		calls = append(t.call[:0], resp.ToolCalls...)
		calls = calls[:len(calls):len(calls)]
		msg = t.msg[:]
	} else {
		calls = append([]llm.ToolCall{}, resp.ToolCalls...)
		msg = make([]llm.Message, 1)
	}
	msg[0] = llm.Message{Role: llm.RoleAssistant, Content: resp.Content, ToolCalls: calls}
	kHistory.Append(s, msg...)
	kLatestContent.Set(s, resp.Content)
	kLatestToolCalls.Set(s, calls)
	kLLMRequest.Set(s, capt)
	in, _ := kTotalIn.Get(s)
	out, _ := kTotalOut.Get(s)
	kTotalIn.Set(s, in+resp.Usage.Input)
	kTotalOut.Set(s, out+resp.Usage.Output)
	if !resp.Usage.Reported {
		n, _ := kUsageUnreported.Get(s)
		kUsageUnreported.Set(s, n+1)
	}
	rs.emitGroupedAt(s, evResponse, iter, ended, func(g *iterEvents) {
		u := event.Usage{Input: resp.Usage.Input, Output: resp.Usage.Output, Reported: resp.Usage.Reported}
		if resp.Usage.CacheRead > 0 {
			u.CacheRead = new(resp.Usage.CacheRead)
		}
		if resp.Usage.CacheWrite > 0 {
			u.CacheWrite = new(resp.Usage.CacheWrite)
		}
		if resp.Usage.Reasoning > 0 {
			u.Reasoning = new(resp.Usage.Reasoning)
		}
		g.response = event.LLMResponsePayload{
			Iteration: iter, Content: resp.Content, ToolCallCount: len(calls), Usage: u,
			StopReason: string(resp.StopReason), DurationMs: dur.Milliseconds(), ResponseSha256: capt.Response.Sha256,
			ResponseID: resp.ProviderRef, ResponseModel: resp.Model,
		}
	})
	return nil, nil
}

// assistantTurn holds the history message of a reply with at most one tool
// call, and that call.
type assistantTurn struct {
	msg  [1]llm.Message
	call [1]llm.ToolCall
}

// complete calls the provider, streaming when it can and someone listens for
// tokens.
func (a *Agent) complete(ctx context.Context, s *flow.Scope, rs *runState, iter int, req *llm.Request) (*llm.Response, error) {
	st, ok := a.provider.(llm.Streamer)
	if !ok || !a.d.HasListeners(event.LLMToken) {
		return a.provider.Complete(ctx, req)
	}
	return a.stream(ctx, s, rs, iter, req, st)
}

// stream calls the provider's stream, emitting each text chunk as a token
// event (apart from complete: returning from inside the range moves the
// results to the heap, which the usual, unstreamed call need not pay).
func (a *Agent) stream(ctx context.Context, s *flow.Scope, rs *runState, iter int, req *llm.Request, st llm.Streamer) (*llm.Response, error) {
	for ev, err := range st.Stream(ctx, req) {
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case llm.EventText:
			text := ev.Text
			rs.emit(s, event.LLMToken, iter, func() any { return event.LLMTokenPayload{Iteration: iter, Content: text} })
		case llm.EventDone:
			if ev.Response == nil {
				return nil, fmt.Errorf("%s: the stream's done event carried no response", a.provider.Name())
			}
			return ev.Response, nil
		}
	}
	return nil, llm.ErrNoDone
}

// routeRules are sf-route's rules, made once per agent (they read only the
// scope they are given and the agent's settings).
func (a *Agent) routeRules() []flow.Rule {
	// Each rule reads every key it depends on before deciding, so its
	// evidence lists the same keys whatever the outcome.
	rules := []flow.Rule{{
		Label: labelToolCalls, Branch: branchToolCalls,
		When: func(r flow.Reader) bool {
			calls, _ := kLatestToolCalls.Get(r)
			it, _ := kIteration.Get(r)
			max, _ := kMaxIterations.Get(r)
			return len(calls) > 0 && it < max
		},
	}, {
		Label: labelWrapUp, Branch: branchWrapUp,
		When: func(r flow.Reader) bool {
			calls, _ := kLatestToolCalls.Get(r)
			asked, _ := kWrapUpAsked.Get(r)
			return len(calls) > 0 && !asked && a.cfg.wrapUp
		},
	}}
	return append(rules, a.outputRules()...) // a typed answer's correction (output.go)
}

// routeStage decides with rules, the agent's routeRules.
func (a *Agent) routeStage(ctx context.Context, s *flow.Scope, rules []flow.Rule) (*flow.Decision, error) {
	rs := runOf(ctx)
	d := flow.Decide(s, rules, branchFinal)
	chosen := branchFinal
	if len(d.Chosen) > 0 {
		chosen = d.Chosen[0]
	}
	label := ""
	for _, r := range d.Rules {
		if r.Matched {
			label = r.Label
			break
		}
	}
	iter, _ := kIteration.Get(s)
	calls, _ := kLatestToolCalls.Get(s)
	asked, _ := kWrapUpAsked.Get(s)
	rs.emitGrouped(s, evRoute, iter, func(g *iterEvents) { g.route = event.RouteDecided{Chosen: chosen, Label: label} })
	if len(calls) > 0 && !asked && (chosen == branchWrapUp || chosen == branchFinal) {
		max, _ := kMaxIterations.Get(s)
		wrapped := chosen == branchWrapUp
		action := event.ActionCutShort
		if wrapped {
			action = event.ActionWrappedUp
		}
		kStoppedEarly.Set(s, event.StoppedEarly{Reason: "max-iterations", Iteration: iter, PendingToolCalls: len(calls), WrappedUp: &wrapped})
		rs.emit(s, event.AgentBudgetExhausted, iter, func() any {
			return event.BudgetExhausted{Reason: "max-iterations", Iteration: iter, Limit: max, PendingToolCalls: len(calls), Action: action}
		})
	}
	return d, nil
}

func (a *Agent) wrapUpStage(ctx context.Context, s *flow.Scope) (any, error) {
	rs := runOf(ctx)
	iter, _ := kIteration.Get(s)
	calls, _ := kLatestToolCalls.Get(s)
	msgs := make([]llm.Message, 0, len(calls)+1)
	for _, c := range calls {
		msgs = append(msgs, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, ToolName: c.Name, Content: wrapUpToolText, IsError: true})
	}
	msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: wrapUpUserText})
	kHistory.Append(s, msgs...)
	kWrapUpAsked.Set(s, true)
	rs.emitGrouped(s, evIterEnd, iter, func(g *iterEvents) { g.iterEnd = event.IterationEnd{IterIndex: iter, ToolCallCount: len(calls)} })
	kIteration.Set(s, iter+1)
	return nil, nil
}

func (a *Agent) prepareFinalStage(ctx context.Context, s *flow.Scope) (any, error) {
	rs := runOf(ctx)
	content, _ := kLatestContent.Get(s)
	iter, _ := kIteration.Get(s)
	user, _ := kUserMessage.Get(s)
	hist := kHistory.Get(s)
	in, _ := kTotalIn.Get(s)
	out, _ := kTotalOut.Get(s)
	se, stopped := kStoppedEarly.Get(s)
	var notes finalNotes
	if len(a.seams.final) > 0 {
		var err error
		if content, notes, rs.standing, err = a.seams.prepareFinal(s, content); err != nil {
			return nil, err
		}
	}
	kFinalContent.Set(s, content)
	final := llm.Message{Role: llm.RoleAssistant, Content: content}
	if n := len(hist); n > 0 && hist[n-1].Role == llm.RoleAssistant {
		final = hist[n-1]
	}
	kNewMessages.Set(s, []llm.Message{{Role: llm.RoleUser, Content: user}, final})
	rs.finalHistory = hist
	rs.lastIter = iter
	rs.emit(s, event.AgentIterationEnd, iter, func() any { return event.IterationEnd{IterIndex: iter} })
	rs.emit(s, event.AgentTurnEnd, iter, func() any {
		p := event.TurnEnd{
			FinalContent: content, TotalInputTokens: in, TotalOutputTokens: out,
			IterationCount: iter, DurationMs: a.elapsedMs(rs.start),
		}
		if stopped {
			p.StoppedEarly = &se
		}
		// A nil note stays out of the any-typed fields, so an unarmed
		// turn_end encodes byte for byte as before.
		if notes.Assessment != nil {
			p.AnswerAssessment = notes.Assessment
		}
		if notes.AnswerCoverage != nil {
			p.AnswerCoverage = notes.AnswerCoverage
		}
		return p
	})
	return content, nil
}

func (a *Agent) breakFinalStage(ctx context.Context, s *flow.Scope) (any, error) {
	content, _ := kFinalContent.Get(s)
	s.Break("final")
	return content, nil
}

// elapsedMs is the time since t in milliseconds on the agent's clock.
func (a *Agent) elapsedMs(t time.Time) int64 { return a.since(t).Milliseconds() }

// since is the time since t on the agent's clock. On the system clock it is
// one monotonic reading (t came from that clock), not a full clock read.
func (a *Agent) since(t time.Time) time.Duration {
	if a.cfg.ownClock {
		return a.cfg.now().Sub(t)
	}
	return time.Since(t)
}

// systemChars is the length in UTF-16 units of the system text the segments
// make (llm.SystemText), counted without joining them.
func systemChars(segs []llm.Segment) int {
	n, parts := 0, 0
	for _, s := range segs {
		if s.Text == "" {
			continue
		}
		if parts > 0 {
			n += len(llm.SystemJoiner) // ASCII: one unit a byte
		}
		n += textlen.UTF16(s.Text)
		parts++
	}
	return n
}
