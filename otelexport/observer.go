// This file holds the Observer: the live way in, which turns a run's event
// stream into spans as the events arrive.

package otelexport

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
)

// Observer turns the events of one agent's turns into spans. Attach it to
// the agent (obs.Attach(a.MustOn)) before Run and call End once Run returns.
// The listeners it attaches are safe to run from several goroutines (the
// agent emits parallel tool calls' events concurrently).
//
// A chat span ends when its model reply arrives. A tool's span ends when
// the run moves on to its next step (the next context evaluation, model
// call, pause or the turn's end), because the results layer files the
// period verdict that span carries just after the call returns. The root
// span ends in End, which adds the turn's span events with the keys each
// route decision read, taken from the record's commit log. All times are
// the events' own, so replaying a record gives the same spans.
//
// One Observer can serve every turn of an agent: End closes a turn, and a
// turn_start that arrives while a turn is open closes that one first
// (without the record's evidence). Detach before calling End: an event
// heard after End opens a new turn.
type Observer struct {
	x   *Exporter
	ctx context.Context

	mu   sync.Mutex
	turn *turn
	// replay is the record whose events ExportEvents replays: a turn the
	// next turn's start closes reads its route decisions' evidence from it,
	// as the last turn does in End. Nil for a live observer.
	replay *record.Record
}

// turn is the state of one open invoke_agent span.
type turn struct {
	span      trace.Span
	ctx       context.Context
	runID     string
	session   string
	agentID   string
	last      time.Time
	provider  string
	model     string
	number    int
	request   *event.LLMRequestPayload
	tools     map[string]*toolSpan
	order     []string
	events    []event.Event // the root span's events, added in End
	end       *event.TurnEnd
	endAt     time.Time
	endCommit string
	paused    bool
	fatal     *event.ErrorFatalPayload
	fatalStep string
}

// toolSpan is one open execute_tool span and what it learns before it ends.
type toolSpan struct {
	span      trace.Span
	done      bool // tools.result arrived
	ended     bool
	endAt     time.Time
	envelopes []string
	declared  bool // an af_coverage or af_absent envelope was recognised
	checked   int
	notCheck  int
	cannot    int
	verdict   string
	status    string
	failed    bool
}

// Observer returns a new Observer whose spans are children of ctx's span,
// when it carries one.
func (x *Exporter) Observer(ctx context.Context) *Observer {
	if ctx == nil {
		ctx = context.Background()
	}
	return &Observer{x: x, ctx: ctx}
}

// heard lists the events an Observer uses. llm.token is not among them:
// a listener for it makes the agent stream its model calls.
func heard() []event.Name {
	return []event.Name{
		event.AgentTurnStart, event.AgentTurnEnd, event.AgentIterationStart, event.AgentRouteDecided,
		event.AgentBudgetExhausted, event.LLMRequest, event.LLMResponse, event.ToolsStart, event.ToolsResult,
		event.ValidationArgsInvalid, event.ToolsResultRefused, event.ToolsAbsent, event.ToolsCoverageDeclared,
		event.ToolsSemanticsDeclared, event.FindingsPeriod, event.FindingsArgument, event.AnswerAssessed,
		event.PauseRequest, event.PauseResume, event.ErrorFatal, event.ContextEvaluated,
	}
}

// Attach subscribes the observer to each event it uses through on (an agent's
// MustOn method, or any func of that shape) and returns the func that
// unsubscribes them all. llm.token is not among them: a listener for it
// makes the agent stream its model calls.
func (o *Observer) Attach(on func(pattern string, fn event.Listener) (unsubscribe func())) (detach func()) {
	names := heard()
	stops := make([]func(), 0, len(names))
	for _, n := range names {
		stops = append(stops, on(string(n), o.listen))
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// listen takes one event. It has the signature of event.Listener.
func (o *Observer) listen(e event.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	at := time.UnixMilli(e.Meta.WallClockMs)
	if e.Type == event.AgentTurnStart && o.turn != nil {
		o.finish(o.replay, nil)
	}
	t := o.turn
	if t == nil {
		t = o.open(e, at)
	}
	if at.After(t.last) {
		t.last = at
	}
	switch e.Type {
	case event.AgentTurnStart:
		if p, ok := decode[event.TurnStart](e.Payload); ok {
			t.number = p.TurnNumber
		}
	case event.AgentTurnEnd:
		o.flushTools(t)
		if p, ok := decode[event.TurnEnd](e.Payload); ok {
			t.end, t.endAt, t.endCommit = &p, at, e.Meta.RuntimeStageID
		}
	case event.LLMRequest:
		o.flushTools(t)
		if p, ok := decode[event.LLMRequestPayload](e.Payload); ok {
			t.request = &p
			if t.provider == "" {
				t.provider, t.model = p.Provider, p.Model
			}
		}
	case event.LLMResponse:
		o.flushTools(t)
		if p, ok := decode[event.LLMResponsePayload](e.Payload); ok {
			o.chat(t, e, at, p)
		}
	case event.ToolsStart:
		if p, ok := decode[event.ToolsStartPayload](e.Payload); ok {
			o.startTool(t, e, at, p)
		}
	case event.ToolsResult:
		if p, ok := decode[event.ToolsResultPayload](e.Payload); ok {
			o.toolResult(t, at, p)
		}
	case event.ToolsCoverageDeclared, event.ToolsAbsent, event.ToolsSemanticsDeclared,
		event.ValidationArgsInvalid, event.ToolsResultRefused:
		o.toolEvent(t, e, at)
	case event.FindingsPeriod:
		if p, ok := decode[event.FindingsPeriodPayload](e.Payload); ok {
			if ts := t.tools[p.ToolCallID]; ts != nil && !ts.ended {
				ts.verdict = p.Verdict
			}
		}
		t.events = append(t.events, e)
	case event.AgentIterationStart, event.ContextEvaluated:
		o.flushTools(t)
		if e.Type == event.ContextEvaluated {
			t.events = append(t.events, e)
		}
	case event.PauseRequest:
		o.flushTools(t)
		t.paused = true
		t.events = append(t.events, e)
	case event.PauseResume:
		t.paused = false
		t.events = append(t.events, e)
	case event.ErrorFatal:
		o.flushTools(t)
		if p, ok := decode[event.ErrorFatalPayload](e.Payload); ok && p.Stage != event.StageObserver {
			t.fatal, t.fatalStep = &p, e.Meta.RuntimeStageID
		}
		t.events = append(t.events, e)
	case event.AgentRouteDecided, event.AgentBudgetExhausted, event.FindingsArgument, event.AnswerAssessed:
		t.events = append(t.events, e)
	}
}

// End closes the open turn, if any: it ends the tool spans still open, adds
// the root span's events (route decisions with the keys they read, when
// rec's commit log holds them) and ends the root span. runErr, when not
// nil, marks the turn failed. rec may be nil. End may be called again
// after another turn; with no turn open it does nothing.
func (o *Observer) End(rec *record.Record, runErr error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.turn != nil {
		o.finish(rec, runErr)
	}
}

// open starts the root span at the turn's first event.
func (o *Observer) open(e event.Event, at time.Time) *turn {
	id := "agent"
	if n := len(e.Meta.CompositionPath); n > 0 && e.Meta.CompositionPath[0] != "" {
		id = e.Meta.CompositionPath[0]
	}
	ctx, span := o.x.tracer.Start(o.ctx, operationInvokeAgent+" "+id,
		trace.WithTimestamp(at), trace.WithSpanKind(trace.SpanKindInternal))
	t := &turn{span: span, ctx: ctx, runID: e.Meta.RunID, session: e.Meta.SessionID, agentID: id,
		last: at, tools: map[string]*toolSpan{}}
	o.turn = t
	return t
}

// chat emits one model call's span, from its request and reply.
func (o *Observer) chat(t *turn, e event.Event, at time.Time, p event.LLMResponsePayload) {
	req := t.request
	t.request = nil
	provider, model := t.provider, t.model
	if req != nil {
		provider, model = req.Provider, req.Model
	}
	attrs := []attribute.KeyValue{
		keyOperationName.String(operationChat),
		keyProviderName.String(provider),
		keyRequestModel.String(model),
		keyRunID.String(e.Meta.RunID),
		keyCommitID.String(e.Meta.RuntimeStageID),
		keyIteration.Int(p.Iteration),
		keyUsageReported.Bool(p.Usage.Reported),
	}
	if p.StopReason != "" {
		attrs = append(attrs, keyResponseFinish.StringSlice([]string{finishReason(p.StopReason)}))
	}
	if p.Usage.Reported {
		attrs = append(attrs, keyUsageInput.Int(p.Usage.Input), keyUsageOutput.Int(p.Usage.Output))
	}
	if p.Usage.CacheRead != nil {
		attrs = append(attrs, keyUsageCacheRead.Int(*p.Usage.CacheRead))
	}
	if p.Usage.CacheWrite != nil {
		attrs = append(attrs, keyUsageCacheCreation.Int(*p.Usage.CacheWrite))
	}
	if p.Usage.Reasoning != nil {
		attrs = append(attrs, keyUsageReasoning.Int(*p.Usage.Reasoning))
	}
	if p.ResponseID != "" {
		attrs = append(attrs, keyResponseID.String(p.ResponseID))
	}
	if p.ResponseModel != "" {
		attrs = append(attrs, keyResponseModel.String(p.ResponseModel))
	}
	if req != nil {
		attrs = append(attrs, keyToolsOffered.Int(req.ToolsCount))
		if req.Temperature != nil {
			attrs = append(attrs, keyRequestTemperature.Float64(*req.Temperature))
		}
		if req.RequestSha256 != "" {
			attrs = append(attrs, keyRequestSha256.String(req.RequestSha256))
		}
	}
	if p.ResponseSha256 != "" {
		attrs = append(attrs, keyResponseSha256.String(p.ResponseSha256))
	}
	if o.x.content {
		attrs = append(attrs, keyOutputMessages.String(outputMessages(p.Content, finishReason(p.StopReason))))
	}
	start := at.Add(-time.Duration(p.DurationMs) * time.Millisecond)
	_, span := o.x.tracer.Start(t.ctx, operationChat+" "+model, trace.WithTimestamp(start),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	span.End(trace.WithTimestamp(at))
}

// startTool opens one tool call's span.
func (o *Observer) startTool(t *turn, e event.Event, at time.Time, p event.ToolsStartPayload) {
	attrs := []attribute.KeyValue{
		keyOperationName.String(operationExecuteTool),
		keyToolName.String(p.ToolName),
		keyToolCallID.String(p.ToolCallID),
		keyToolType.String(toolTypeFunction),
		keyRunID.String(e.Meta.RunID),
		keyCommitID.String(e.Meta.RuntimeStageID),
	}
	if e.Meta.IterIndex != nil {
		attrs = append(attrs, keyIteration.Int(*e.Meta.IterIndex))
	}
	if o.x.content && len(p.Args) > 0 {
		attrs = append(attrs, keyToolCallArguments.String(capContent(argsText(p.Args))))
	}
	_, span := o.x.tracer.Start(t.ctx, operationExecuteTool+" "+p.ToolName, trace.WithTimestamp(at),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	if old := t.tools[p.ToolCallID]; old != nil && !old.ended {
		o.endTool(old, at) // a call id seen twice: the first span ends here
	} else if old == nil {
		t.order = append(t.order, p.ToolCallID)
	}
	t.tools[p.ToolCallID] = &toolSpan{span: span}
}

// toolResult records how a call came back; its span ends at the next step.
func (o *Observer) toolResult(t *turn, at time.Time, p event.ToolsResultPayload) {
	ts := t.tools[p.ToolCallID]
	if ts == nil || ts.ended {
		return
	}
	ts.done, ts.endAt, ts.status = true, at, p.Status
	ts.failed = p.Error || p.Status == "failure" || p.Status == "denied" || p.Status == "invalid"
	if o.x.content {
		ts.span.SetAttributes(keyToolCallResult.String(capContent(p.Result)))
	}
}

// toolEvent adds a declaration or refusal to its call's span, or to the
// turn when the call has no open span.
func (o *Observer) toolEvent(t *turn, e event.Event, at time.Time) {
	ts := t.tools[callID(e)]
	if ts == nil || ts.ended {
		t.events = append(t.events, e)
		return
	}
	var attrs []attribute.KeyValue
	switch e.Type {
	case event.ToolsCoverageDeclared, event.ToolsAbsent:
		row, _ := rowOf(e.Payload)
		kind := envelopeCoverage
		if e.Type == event.ToolsAbsent {
			kind = envelopeAbsent
		}
		ts.addEnvelope(kind)
		ts.declared = true
		ts.checked += row.Checked
		ts.notCheck += row.NotChecked
		ts.cannot += row.CannotCover
		attrs = append(attrs, keyCoverageKind.String(row.Kind), keyChecked.Int(row.Checked),
			keyNotChecked.Int(row.NotChecked), keyCannotCover.Int(row.CannotCover))
		if row.LookedFor != "" && o.x.content {
			attrs = append(attrs, keyLookedFor.String(capContent(row.LookedFor)))
		}
	case event.ToolsSemanticsDeclared:
		ts.addEnvelope(envelopeSemantics)
	case event.ValidationArgsInvalid:
		p, _ := decode[event.ArgsInvalid](e.Payload)
		issues := make([]string, 0, len(p.Issues))
		for _, is := range p.Issues {
			issues = append(issues, is.Path+" "+is.Keyword)
		}
		attrs = append(attrs, keyIssues.StringSlice(issues), keyEnforced.Bool(p.Enforced))
	case event.ToolsResultRefused:
		p, _ := decode[event.ResultRefused](e.Payload)
		attrs = append(attrs, keySizeChars.Int(p.SizeChars), keyMaxChars.Int(p.MaxChars))
	}
	attrs = append(attrs, keyCommitID.String(e.Meta.RuntimeStageID))
	ts.span.AddEvent(string(e.Type), trace.WithTimestamp(at), trace.WithAttributes(attrs...))
}

func (ts *toolSpan) addEnvelope(kind string) {
	for _, k := range ts.envelopes {
		if k == kind {
			return
		}
	}
	ts.envelopes = append(ts.envelopes, kind)
}

// flushTools ends the spans of the calls that have returned.
func (o *Observer) flushTools(t *turn) {
	for _, id := range t.order {
		if ts := t.tools[id]; ts.done && !ts.ended {
			o.endTool(ts, ts.endAt)
		}
	}
}

// endTool sets what the call's span learned and ends it at end.
func (o *Observer) endTool(ts *toolSpan, end time.Time) {
	ts.ended = true
	var attrs []attribute.KeyValue
	if len(ts.envelopes) > 0 {
		attrs = append(attrs, keyEnvelopes.StringSlice(ts.envelopes))
	}
	if ts.declared {
		// Counts only where the tool declared coverage: no declaration is
		// not "checked nothing".
		attrs = append(attrs, keyChecked.Int(ts.checked), keyNotChecked.Int(ts.notCheck), keyCannotCover.Int(ts.cannot))
	}
	if ts.verdict != "" {
		attrs = append(attrs, keyPeriodVerdict.String(ts.verdict))
	}
	if ts.status != "" {
		attrs = append(attrs, keyToolStatus.String(ts.status))
	}
	switch {
	case !ts.done:
		attrs = append(attrs, keyToolStatus.String("not-returned"))
	case ts.failed:
		attrs = append(attrs, keyErrorType.String(errorTypeToolFailed))
		desc := ts.status
		if desc == "" {
			desc = "the tool reported an error"
		}
		ts.span.SetStatus(codes.Error, desc)
	}
	ts.span.SetAttributes(attrs...)
	ts.span.End(trace.WithTimestamp(end))
}

// finish ends what is open of the turn and the root span.
func (o *Observer) finish(rec *record.Record, runErr error) {
	t := o.turn
	o.turn = nil
	o.flushTools(t)
	for _, id := range t.order {
		if ts := t.tools[id]; !ts.ended {
			o.endTool(ts, t.last)
		}
	}
	commits := decisionsOf(rec)
	for _, e := range t.events {
		o.rootEvent(t, e, commits)
	}
	attrs := []attribute.KeyValue{
		keyOperationName.String(operationInvokeAgent),
		keyAgentID.String(t.agentID),
		keyAgentName.String(t.agentID),
		keyRunID.String(t.runID),
		keyTurnNumber.Int(t.number),
	}
	conv := t.session
	if conv == "" {
		conv = t.runID
	}
	attrs = append(attrs, keyConversationID.String(conv))
	if t.provider != "" {
		attrs = append(attrs, keyProviderName.String(t.provider), keyRequestModel.String(t.model))
	}
	if rec != nil {
		// The agent's settings reach only the record's manifest, not the
		// events: they go on the turn, which the conventions allow.
		if o := rec.Manifest.Options; o.MaxTokens > 0 {
			attrs = append(attrs, keyRequestMaxTokens.Int(o.MaxTokens))
		}
		if t := rec.Manifest.Options.Temperature; t != nil {
			attrs = append(attrs, keyRequestTemperature.Float64(*t))
		}
		if rec.DroppedEvents > 0 {
			attrs = append(attrs, keyEventsDropped.Int(rec.DroppedEvents))
		}
	}
	outcome := outcomeIncomplete
	end := t.last
	switch {
	case runErr != nil || t.fatal != nil:
		outcome = outcomeFailed
	case t.end != nil:
		outcome, end = outcomeAnswered, t.endAt
	case t.paused:
		outcome = outcomePaused
	}
	if p := t.end; p != nil {
		attrs = append(attrs, keyCommitID.String(t.endCommit), keyUsageInput.Int(p.TotalInputTokens), keyUsageOutput.Int(p.TotalOutputTokens),
			keyIterations.Int(p.IterationCount))
		if p.StoppedEarly != nil {
			attrs = append(attrs, keyStoppedEarly.String(p.StoppedEarly.Reason))
		}
		if a, ok := decode[assessment](p.AnswerAssessment); ok && a.Standing != "" {
			attrs = append(attrs, keyStanding.String(a.Standing), keyReasons.StringSlice(a.reasonKinds()),
				keyAssessment.String(a.Assessment))
		}
		if o.x.content {
			attrs = append(attrs, keyOutputMessages.String(outputMessages(p.FinalContent, "stop")))
		}
	}
	attrs = append(attrs, keyTurnOutcome.String(outcome))
	switch outcome {
	case outcomeFailed:
		attrs = append(attrs, keyErrorType.String(errorTypeRunFailed))
		msg := ""
		if runErr != nil {
			msg = runErr.Error()
		} else {
			msg = t.fatal.Error
		}
		t.span.SetStatus(codes.Error, msg)
	}
	t.span.SetAttributes(attrs...)
	t.span.End(trace.WithTimestamp(end))
}

// rootEvent adds one turn-level event to the root span.
func (o *Observer) rootEvent(t *turn, e event.Event, commits decisions) {
	attrs := []attribute.KeyValue{keyCommitID.String(e.Meta.RuntimeStageID)}
	if e.Meta.IterIndex != nil {
		attrs = append(attrs, keyIteration.Int(*e.Meta.IterIndex))
	}
	switch e.Type {
	case event.AgentRouteDecided:
		p, _ := decode[event.RouteDecided](e.Payload)
		rule := p.Label
		if rule == "" {
			rule = "default"
		}
		attrs = append(attrs, keyRouteChosen.String(p.Chosen), keyRouteRule.String(rule))
		if keys, ok := evidenceKeys(commits.of(e.Meta.RunID, e.Meta.RuntimeStageID)); ok {
			attrs = append(attrs, keyRouteEvidence.StringSlice(keys))
		}
	case event.AgentBudgetExhausted:
		p, _ := decode[event.BudgetExhausted](e.Payload)
		attrs = append(attrs, keyBudgetLimit.Int(p.Limit), keyBudgetAction.String(p.Action), keyPending.Int(p.PendingToolCalls))
	case event.PauseRequest:
		p, _ := decode[event.PauseRequestPayload](e.Payload)
		attrs = append(attrs, keyPauseReason.String(p.Reason), keyToolCallID.String(p.ToolCallID), keyToolName.String(p.ToolName))
	case event.PauseResume:
		p, _ := decode[event.PauseResumePayload](e.Payload)
		attrs = append(attrs, keyPausedMs.Int64(p.PausedDurationMs))
	case event.ContextEvaluated:
		p, _ := decode[event.ContextEvaluatedPayload](e.Payload)
		ids := make([]string, 0, len(p.Active))
		triggers := make([]string, 0, len(p.Active))
		for _, u := range p.Active {
			ids = append(ids, u.ID)
			triggers = append(triggers, u.Trigger)
		}
		dropped := make([]string, 0, len(p.Dropped))
		for _, u := range p.Dropped {
			dropped = append(dropped, u.ID)
		}
		attrs = append(attrs, keyUnitsActive.StringSlice(ids), keyUnitsTriggers.StringSlice(triggers),
			keyUnitsInactive.Int(p.InactiveCount), keyUnitsDropped.StringSlice(dropped))
	case event.FindingsPeriod:
		p, _ := decode[event.FindingsPeriodPayload](e.Payload)
		attrs = append(attrs, keyLedgerKind.String("period"), keyToolCallID.String(p.ToolCallID), keyToolName.String(p.ToolName),
			keyVerdict.String(p.Verdict))
		if len(p.TimeChecks) > 0 {
			attrs = append(attrs, keyTimeChecks.StringSlice(p.TimeChecks))
		}
	case event.FindingsArgument:
		p, _ := decode[event.FindingsArgumentPayload](e.Payload)
		attrs = append(attrs, keyLedgerKind.String("argument"), keyToolCallID.String(p.ToolCallID), keyToolName.String(p.ToolName),
			keyArgument.String(p.Argument), keyArgumentRule.String(p.Rule))
		if p.Source != "" {
			attrs = append(attrs, keyArgumentSource.String(p.Source))
		}
	case event.AnswerAssessed:
		p, _ := decode[event.AnswerAssessedPayload](e.Payload)
		attrs = append(attrs, keyStanding.String(p.Standing), keyReasons.StringSlice(p.Reasons), keyAssessment.String(p.Assessment))
	case event.ErrorFatal:
		p, _ := decode[event.ErrorFatalPayload](e.Payload)
		attrs = append(attrs, keyErrorStage.String(p.Stage), keyErrorMessage.String(p.Error))
	default:
		// A tool declaration whose call had no open span.
		if id := callID(e); id != "" {
			attrs = append(attrs, keyToolCallID.String(id))
		}
	}
	t.span.AddEvent(string(e.Type), trace.WithTimestamp(time.UnixMilli(e.Meta.WallClockMs)), trace.WithAttributes(attrs...))
}

// decisions holds the decision commits of a record's log and of its subflow
// logs. Runtime stage ids repeat from one log to the next (every inner agent
// of a composition has its sf-route#3), so a commit is found by its log's
// run id and its runtime stage id; by the stage id alone only when one log
// has it (the legs of a resumed run share one log under several run ids).
type decisions struct {
	byRun   map[[2]string]*flow.Commit
	byStage map[string]*flow.Commit // nil value: the stage id is in several logs
}

// decisionsOf collects the decision commits of rec (nil: none).
func decisionsOf(rec *record.Record) decisions {
	d := decisions{byRun: map[[2]string]*flow.Commit{}, byStage: map[string]*flow.Commit{}}
	if rec == nil || rec.Log == nil {
		return d
	}
	var walk func(r *flow.Record, depth int)
	walk = func(r *flow.Record, depth int) {
		if r == nil || depth > 16 {
			return
		}
		for _, c := range r.Commits {
			if c == nil || c.CommitDetail == nil || c.Decision == nil {
				continue
			}
			d.byRun[[2]string{r.RunID, c.RuntimeStageID}] = c
			if _, seen := d.byStage[c.RuntimeStageID]; seen {
				d.byStage[c.RuntimeStageID] = nil
			} else {
				d.byStage[c.RuntimeStageID] = c
			}
		}
		for _, sub := range r.Subflows {
			walk(sub, depth+1)
		}
	}
	walk(rec.Log, 0)
	return d
}

// of is the decision commit stage made in the log of run runID.
func (d decisions) of(runID, stage string) *flow.Commit {
	if c, ok := d.byRun[[2]string{runID, stage}]; ok {
		return c
	}
	return d.byStage[stage]
}

// evidenceKeys returns the keys a decision read to choose: the matched
// rule's reads, or, for the default branch, every key the commit read.
func evidenceKeys(c *flow.Commit) ([]string, bool) {
	if c == nil {
		return nil, false
	}
	for _, r := range c.Decision.Rules {
		if r.Matched {
			return append([]string{}, r.Reads...), true
		}
	}
	return append([]string{}, c.Reads...), true
}

// finishReason maps the library's stop reasons to the words the GenAI
// conventions use; others pass through.
func finishReason(stop string) string {
	switch stop {
	case "tool_use":
		return "tool_call"
	case "max_tokens":
		return "length"
	}
	return stop
}

// contentLimit caps each content attribute, in bytes.
const contentLimit = 32 << 10

// capContent cuts s to contentLimit bytes on a UTF-8 boundary, saying so.
func capContent(s string) string {
	if len(s) <= contentLimit {
		return s
	}
	cut := contentLimit
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…[truncated]"
}

// outputMessages renders an assistant text as the conventions' output
// messages JSON: one message with one text part.
func outputMessages(text, finish string) string {
	type part struct {
		Type    string `json:"type"`
		Content string `json:"content"`
	}
	type message struct {
		Role         string `json:"role"`
		Parts        []part `json:"parts"`
		FinishReason string `json:"finish_reason,omitempty"`
	}
	b, _ := json.Marshal([]message{{Role: "assistant", Parts: []part{{Type: "text", Content: capContent(text)}}, FinishReason: finish}})
	return string(b)
}

// argsText is a tool call's arguments as a record holds them: compact, with
// <, > and & escaped (what encoding/json writes for a raw JSON value), keys
// in the model's order. A live turn and its record replayed then give the
// same attribute. Arguments that are not JSON are exported as they are.
func argsText(args json.RawMessage) string {
	var compact, out bytes.Buffer
	if json.Compact(&compact, args) != nil {
		return string(args)
	}
	json.HTMLEscape(&out, compact.Bytes())
	return out.String()
}
