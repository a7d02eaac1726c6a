// The time layer (WithTimeLayer) wired through the layer seams: the turn's clock
// decided once at seed and frozen across pauses (WithResumeTime, clock-on-resume),
// the clock, call-window and call rows on the findings ledger, the time
// handed to each tool, windows refused before dispatch (retention, direction,
// maximum range), the person's control window bound to a call, a drifted
// library fill redrawn, the period checks fed to sf-results, and the
// person's time lines under the limits.
// Unarmed, none of it runs: no key, row or byte.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	timelayer "github.com/agentfootprint/agentfootprint-go/internal/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/coverread"
	inputslayer "github.com/agentfootprint/agentfootprint-go/internal/honesty/inputs"
	limitsblock "github.com/agentfootprint/agentfootprint-go/internal/honesty/limits"
	"github.com/agentfootprint/agentfootprint-go/internal/honesty/results"
	"github.com/agentfootprint/agentfootprint-go/internal/periodspell"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// timeExtras are the person's time lines for the limits block: each
// declared period in the person's zone, the period check lines of this
// turn's rows, and the unknown-zone line.
func timeExtras(s *flow.Scope) limitsblock.Extras {
	ck, ok := kTurnClock.Get(s)
	if !ok {
		return limitsblock.Extras{}
	}
	p := ck.Presentation()
	x := limitsblock.Extras{PeriodLine: func(toolName string, d coverage.Period) string {
		dp := timelayer.DeclaredPeriod{Queried: timelayer.SpanText{From: d.Queried.From, To: d.Queried.To}, ReadAt: d.ReadAt}
		if !d.Held.Unknown {
			dp.Held = &timelayer.SpanText{From: d.Held.Span.From, To: d.Held.Span.To}
		}
		if line, err := timelayer.PeriodLine(toolName, dp, p); err == nil {
			return line
		}
		return coverread.PeriodLine(toolName, d)
	}}
	turn, _ := kTurnNumber.Get(s)
	for _, pr := range periodRowsOfTurn(kFindings.Get(s), turn) {
		if line, ok, err := timelayer.CheckLine(checkedOf(pr), p, timelayer.ForPerson); err == nil && ok {
			x.PeriodChecks = append(x.PeriodChecks, line)
		}
	}
	if ck.ZoneUnknown() {
		x.Clocks = append(x.Clocks, timelayer.UnknownZoneLine)
	}
	return x
}

// periodsOf maps each registered tool with a period to its declaration.
func periodsOf(c *config) map[string]tool.Period {
	out := map[string]tool.Period{}
	for _, t := range c.tools {
		if t == nil {
			continue
		}
		if p := t.Declaration().Period; p != nil {
			out[t.Name()] = *p
		}
	}
	return out
}

// periodTimes is the results layer's Deps.TimeInputs under WithTimeLayer: for
// each judged call of a tool with a period, what the record holds about it —
// the turn's clock, its call-window and call rows, the tool's declared
// retention and granularity. sf-results adds the verdict and the declared
// periods and files the checks on the period rows.
func periodTimes(periods map[string]tool.Period) func(flow.Reader, []results.RanCall, int) map[string]results.TimeInput {
	return func(parent flow.Reader, calls []results.RanCall, iteration int) map[string]results.TimeInput {
		ck, ok := kTurnClock.Get(parent)
		if !ok {
			return nil
		}
		turn, _ := kTurnNumber.Get(parent)
		rows := kFindings.Get(parent)
		out := map[string]results.TimeInput{}
		for _, c := range calls {
			p, ok := periods[c.ToolName]
			if !ok {
				continue
			}
			out[c.ToolCallID] = timeInputOf(ck, c.ToolCallID, turn, iteration, p, rows)
		}
		return out
	}
}

// timeInputOf gathers what the record holds about one judged call (the
// verdict and declared periods are the results layer's to add).
func timeInputOf(ck timelayer.Clock, id string, turn, iteration int, p tool.Period, rows []ledger.Row) results.TimeInput {
	in := results.TimeInput{Now: ck.Now()}
	in.Retention, _ = timelayer.DurationOf(p.Retention)
	in.Granularity, _ = timelayer.DurationOf(p.Granularity)
	for _, r := range rows {
		switch r.Kind() {
		case rowCallWindow:
			var w callWindowRow
			if decodeRow(r, &w) && w.ToolCallID == id && w.Turn == turn && w.Iteration == iteration {
				in.Asked = w.Asked
				in.Sent = w.How == howModel || w.How == howChosen || w.How == howFilled || w.How == howBound
				in.Person = w.Person
				in.SentRange = w.Sent
				in.RefusedBeyondRetention = w.Refused == refusedBeyondRetention
				in.PartlyBeyondRetention = w.PartlyBeyondRetention
			}
		case rowCall:
			var c callRow
			if decodeRow(r, &c) && c.ToolCallID == id && c.Turn == turn && c.Iteration == iteration {
				in.Drift = c.Drift
			}
		}
	}
	return in
}

// decodeRow reads a ledger row kept as JSON into v.
func decodeRow(r ledger.Row, v any) bool {
	b, err := json.Marshal(r)
	return err == nil && json.Unmarshal(b, v) == nil
}

// kTurnClock holds the turn's clock: decided at seed, read by every later
// stage, restored with the state on resume.
var kTurnClock = flow.Key[timelayer.Clock]("turnClock")

// Row kinds the time layer files (wire facts).
const (
	rowClock      = "clock"
	rowCall       = "call"
	rowCallWindow = "call-window"
)

// Reasons a call is refused before dispatch (call-window.refused).
const refusedBeyondRetention = "beyond-retention"

// WithTimeLayer arms the time layer. zone is the fallback zone for runs whose
// Input.Time names none: "UTC" or an IANA Area/Location name such as
// "America/New_York". An empty zone names none: a run without a zone of its
// own is then spelled in UTC and every time line says the zone is unknown.
// New refuses a zone tz.Parse refuses (abbreviations such as "PST",
// bare offsets, "Local"), naming it.
//
// Each turn records one clock (now: Input.Time.Now, else the turn's start;
// zone: the run's, else this one, else unknown), frozen for the turn and
// across pauses; every tool call is handed it as tool.Call.Time.
func WithTimeLayer(zone string) Option {
	return func(c *config) {
		t := &timeLayer{}
		if zone != "" {
			z, err := tz.Parse(zone)
			if err != nil {
				c.errs = append(c.errs, fmt.Errorf("agent: WithTimeLayer(%q): %w (name a zone such as \"America/New_York\" or \"UTC\")", zone, err))
				return
			}
			t.zone = z
		}
		c.addLayer(t)
	}
}

// timeLayer decides the turn's clock, files the clock, call-window and call
// rows, hands each call its time and feeds the period checks.
type timeLayer struct {
	zone    tz.Zone // the builder's zone; zero when none was named
	now     func() time.Time
	periods map[string]tool.Period // the registered tools' declared periods
}

func (*timeLayer) name() string       { return layerTime }
func (*timeLayer) requires() []string { return []string{layerResults} }
func (*timeLayer) after() []string    { return []string{layerInputs} }

func (t *timeLayer) arm(c *config) error {
	t.now = c.now
	t.periods = periodsOf(c)
	return nil
}

func (*timeLayer) keys() []flow.KeyDecl { return []flow.KeyDecl{kTurnClock, kTimeLine} }

// shapeRequest appends the time line to the request.
func (*timeLayer) shapeRequest(s *flow.Scope, req *llm.Request) { appendTimeLine(s, req) }

func (*timeLayer) resumed(ctx context.Context, s *flow.Scope) { clockOnResume(ctx, s) }

// seedRun decides the turn's clock from the run's Input.Time and files its
// row.
func (t *timeLayer) seedRun(ctx context.Context, s *flow.Scope) error {
	var given clock.Given
	if rs := runOf(ctx); rs != nil && rs.given != nil {
		given = *rs.given
	}
	ck, err := timelayer.Start(t.zone, given, t.now)
	if err != nil {
		return fmt.Errorf("agent: Input.Time: %w", err)
	}
	kTurnClock.Set(s, ck)
	turn, _ := kTurnNumber.Get(s)
	row, err := clockRow(ck, turn)
	if err != nil {
		return err
	}
	kFindings.Append(s, row)
	return nil
}

// fillArgs files the call-window row of a call whose tool declares a
// period, refusing a window the tool cannot read.
func (t *timeLayer) fillArgs(s *flow.Scope, call llm.ToolCall, _ *tool.Tool, args json.RawMessage) (json.RawMessage, string) {
	p, ok := t.periods[call.Name]
	if !ok {
		return args, ""
	}
	return args, fileCallWindow(s, call, p, args)
}

// ResumeOption adjusts one Resume.
type ResumeOption func(*resumeConfig)

type resumeConfig struct {
	time     *clock.Given
	identity Identity // the conversation's, set by Resume
}

// WithResumeTime passes the resumed run's clock input (time layer). The paused
// turn keeps the clock it was decided on — its values were read against it
// — and a Time that differs from it is recorded as a clock-on-resume row
// {passed, kept}. Refused, like Input.Time, on an agent without WithTimeLayer or
// with a zone or window the clock package refuses.
func WithResumeTime(g clock.Given) ResumeOption {
	return func(r *resumeConfig) { r.time = &g }
}

// rowClockOnResume is the kind of the row a resume with another Time files.
const rowClockOnResume = "clock-on-resume"

// clockOnResume files the clock-on-resume row when the resume passed a Time
// that differs from the frozen clock.
func clockOnResume(ctx context.Context, s *flow.Scope) {
	rs := runOf(ctx)
	ck, ok := kTurnClock.Get(s)
	if rs == nil || rs.given == nil || !ok {
		return
	}
	diff, changed := ck.Resumed(*rs.given)
	if !changed {
		return
	}
	row := struct {
		Kind      string `json:"kind"`
		Turn      int    `json:"turn"`
		Iteration int    `json:"iteration"`
		timelayer.OnResume
	}{Kind: rowClockOnResume, OnResume: diff}
	row.Turn, _ = kTurnNumber.Get(s)
	row.Iteration, _ = kIteration.Get(s)
	if r, err := rawRow(row); err == nil {
		kFindings.Append(s, r)
	}
}

// checkTimeInput refuses Input.Time on an agent without WithTimeLayer, and a
// given zone or window clock refuses, before the turn starts.
func (a *Agent) checkTimeInput(g *clock.Given) error {
	if g == nil {
		return nil
	}
	if !a.cfg.has(layerTime) {
		return fmt.Errorf("agent: Input.Time was passed, but the agent was built without WithTimeLayer; add agent.WithTimeLayer(zone) to use it")
	}
	if err := g.Check(); err != nil {
		return fmt.Errorf("agent: Input.Time: %w", err)
	}
	return nil
}

// callTime files the call's row (with its drift at dispatch) and returns the
// clock handed to the tool; a drifted library fill is redrawn.
func (t *timeLayer) callTime(s *flow.Scope, call llm.ToolCall, args json.RawMessage) (*tool.CallTime, json.RawMessage) {
	ck, ok := kTurnClock.Get(s)
	if !ok {
		return nil, args
	}
	at := t.now().UTC().Truncate(time.Millisecond)
	row := callRow{Kind: rowCall, ToolCallID: call.ID, ToolName: call.Name, DispatchedAt: timelayer.UTCString(at)}
	row.Turn, _ = kTurnNumber.Get(s)
	row.Iteration, _ = kIteration.Get(s)
	if p, ok := t.periods[call.Name]; ok {
		lookback := sentLookback(s, call.ID)
		if lookback != nil {
			step, _ := timelayer.DurationOf(p.Granularity)
			iso := slices.Contains(append([]tool.PeriodSpelling{p.Spelling}, p.Accepts...), tool.SpellingISORange)
			library := lookback.How == howFilled || lookback.How == howBound
			if d, drifted := timelayer.DriftAtDispatch(timelayer.Dispatch{Now: ck.Now(), DispatchedAt: at, Step: step, LibraryFill: library, AcceptsISORange: iso}); drifted {
				row.Drift = &d
				if d.Outcome == timelayer.Redrawn {
					// The library's own fill is sent as the asked range,
					// so the late dispatch reads the time asked.
					if v, err := timelayer.ISORange(*lookback.Asked); err == nil {
						if redrawn, err := inputslayer.Apply(args, []inputslayer.Fill{{Argument: p.Argument, Value: v}}); err == nil {
							args = redrawn
						}
					}
				}
			}
		}
	}
	if r, err := rawRow(row); err == nil {
		kFindings.Append(s, r)
	}
	tt := ck.ForTool(at)
	return &tool.CallTime{Zone: tt.Zone, ZoneUnknown: tt.ZoneUnknown, Now: tt.Now, DispatchedAt: tt.DispatchedAt}, args
}

// sentLookback returns the call's call-window row when the call sent a look-back
// (model, model-chosen, filled or bound, in a look-back form): the calls
// whose drift at dispatch means something.
func sentLookback(s *flow.Scope, id string) *callWindowRow {
	row, ok := callWindowOf(s, id)
	if !ok || row.Asked == nil || (row.Form != string(tool.SpellingLookback) && row.Form != string(tool.SpellingSignedLookback)) {
		return nil
	}
	switch row.How {
	case howModel, howChosen, howFilled, howBound:
		return &row
	}
	return nil
}

// Who chose a call's window (call-window.how).
const (
	howModel     = "model"
	howChosen    = "model-chosen"
	howBound     = "bound"
	howFilled    = "filled"
	howNotFilled = "not-filled"
	howUnread    = "unread"
	howRefused   = "refused"
)

// callWindowRow is the call-window row: who chose the window of one call to
// a tool with a period, and the range it asks for at the turn's now.
type callWindowRow struct {
	Kind                  string       `json:"kind"`
	Turn                  int          `json:"turn"`
	Iteration             int          `json:"iteration"`
	ToolCallID            string       `json:"toolCallId"`
	ToolName              string       `json:"toolName"`
	How                   string       `json:"how"`
	Argument              string       `json:"argument"`
	Form                  string       `json:"form,omitempty"`
	Asked                 *clock.Range `json:"asked,omitempty"`
	Person                *clock.Range `json:"person,omitempty"`
	Sent                  *clock.Range `json:"sent,omitempty"`
	Refused               string       `json:"refused,omitempty"`
	PartlyBeyondRetention bool         `json:"partlyBeyondRetention,omitempty"`
}

// callRow is the call row: when the call was dispatched and its drift.
type callRow struct {
	Kind         string           `json:"kind"`
	Turn         int              `json:"turn"`
	Iteration    int              `json:"iteration"`
	ToolCallID   string           `json:"toolCallId"`
	ToolName     string           `json:"toolName"`
	DispatchedAt string           `json:"dispatchedAt"`
	Drift        *timelayer.Drift `json:"drift,omitempty"`
}

// fileCallWindow files the call-window row of a call to a period tool and
// returns the refusal to serve when its window lies wholly before what the
// tool's source keeps ("" to run it).
func fileCallWindow(s *flow.Scope, call llm.ToolCall, p tool.Period, args json.RawMessage) string {
	ck, ok := kTurnClock.Get(s)
	if !ok {
		return ""
	}
	if prev, filed := callWindowOf(s, call.ID); filed && prev.Iteration == iterationOf(s) {
		// A call resumed after its check-in keeps the row filed before the
		// pause (and its refusal, if any).
		if prev.Refused != "" && prev.Asked != nil {
			if _, sentence := refusedWindow(*prev.Asked, ck.Now(), p); sentence != "" {
				return fmt.Sprintf("The %s call was not run: %s.", call.Name, sentence)
			}
		}
		return ""
	}
	row := callWindowRow{Kind: rowCallWindow, ToolCallID: call.ID, ToolName: call.Name, Argument: p.Argument}
	row.Turn, _ = kTurnNumber.Get(s)
	row.Iteration, _ = kIteration.Get(s)
	m := map[string]json.RawMessage{}
	_ = json.Unmarshal(args, &m)
	var value string
	switch {
	case inputslayer.IsMissing(m, p.Argument):
		row.How = howNotFilled
	case json.Unmarshal(m[p.Argument], &value) != nil:
		row.How = howUnread
	default:
		row.How = howModel
		switch fillSource(s, call.ID, p.Argument) {
		case "":
		case inputslayer.SourceApp:
			row.How = howBound
		default:
			row.How = howFilled
		}
		form := string(p.Spelling)
		for _, sp := range append([]tool.PeriodSpelling{p.Spelling}, p.Accepts...) {
			if periodspell.ParsesUnder(value, string(sp), p.Units) {
				form = string(sp)
				break
			}
		}
		r, err := timelayer.Meaning(form, value, ck.Now())
		if err != nil {
			row.How = howUnread
			break
		}
		row.Form, row.Asked = form, &r
		if w, ok := ck.Window(); ok && row.How == howBound && !(r.From.Equal(w.From) && r.To.Equal(w.To)) {
			// The tool's spelling cannot hold the person's window: the
			// smallest covering look-back was sent, and the window is what
			// was asked.
			sent := r
			row.Asked, row.Sent = &w, &sent
		}
		if w, ok := ck.Window(); ok && row.How == howModel && !(r.From.Equal(w.From) && r.To.Equal(w.To)) {
			// The person set a window in the app and the model sent another:
			// what the call reads is compared with the person's window.
			row.How, row.Person = howChosen, &w
		}
	}
	refusal := ""
	if row.Asked != nil {
		if why, sentence := refusedWindow(*row.Asked, ck.Now(), p); why != "" {
			row.How, row.Refused = howRefused, why
			refusal = fmt.Sprintf("The %s call was not run: %s.", call.Name, sentence)
		} else if keep, err := timelayer.DurationOf(p.Retention); err == nil && row.Asked.From.Before(ck.Now().Add(-keep)) {
			row.PartlyBeyondRetention = true
		}
	}
	if r, err := rawRow(row); err == nil {
		kFindings.Append(s, r)
	}
	return refusal
}

func iterationOf(s *flow.Scope) int {
	it, _ := kIteration.Get(s)
	return it
}

// Reasons a window is refused before dispatch (call-window.refused).
const (
	refusedTimeFuture = "time-future"
	refusedTimePast   = "time-past"
	refusedMaxRange   = "max-range"
)

// refusedWindow says why a tool's declared facts refuse an asked window
// before dispatch, and the clause the model reads (never the window itself):
// wholly older than the retention, reaching past the declared direction, or
// longer than the maximum range. "" runs the call.
func refusedWindow(asked clock.Range, now time.Time, p tool.Period) (why, sentence string) {
	if keep, err := timelayer.DurationOf(p.Retention); err == nil && !asked.To.After(now.Add(-keep)) {
		return refusedBeyondRetention, "the time it asked about is older than anything its source keeps, as the tool declares"
	}
	switch {
	case p.Direction == tool.DirectionPast && asked.To.After(now):
		return refusedTimeFuture, "it asked about time after this turn's time, and the tool reads only the past"
	case p.Direction == tool.DirectionFuture && asked.From.Before(now):
		return refusedTimePast, "it asked about time before this turn's time, and the tool reads only the future"
	}
	if max, err := timelayer.DurationOf(p.MaxRange); err == nil && asked.Duration() > max {
		return refusedMaxRange, "the window it asked about is longer than the longest the tool accepts"
	}
	return "", ""
}

// fillSource says who filled argument on this call ("" when the inputs
// layer filled nothing).
func fillSource(s *flow.Scope, id, argument string) string {
	rs, _ := kArgumentResolutions.Get(s)
	for _, r := range rs {
		if r.ToolCallID != id {
			continue
		}
		for _, f := range r.Fills {
			if f.Argument == argument {
				return f.Source
			}
		}
	}
	return ""
}

// bindWindow spells the person's control window for a tool's period
// argument: exactly as an iso-range when the tool accepts one, else as the
// smallest look-back in the tool's units that covers it (only a window that
// ends by now can be covered). false when it cannot be spelled.
func bindWindow(p tool.Period, w clock.Range, now time.Time) (any, bool) {
	accepts := append([]tool.PeriodSpelling{p.Spelling}, p.Accepts...)
	if slices.Contains(accepts, tool.SpellingISORange) {
		v, err := timelayer.ISORange(w)
		return v, err == nil
	}
	if w.To.After(now) || !w.From.Before(now) {
		return nil, false
	}
	units := p.Units
	if units == "" {
		units = periodspell.DefaultUnits
	}
	size := map[rune]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour}
	need := now.Sub(w.From)
	best, bestUnit, bestValue := time.Duration(0), time.Duration(0), ""
	for _, u := range units {
		unit, ok := size[u]
		if !ok {
			continue
		}
		n := (need + unit - 1) / unit
		// The shortest covering look-back; on a tie, the larger unit ("26h",
		// not "1560m").
		if d := n * unit; best == 0 || d < best || (d == best && unit > bestUnit) {
			best, bestUnit, bestValue = d, unit, fmt.Sprintf("%d%c", n, u)
		}
	}
	if bestValue == "" {
		return nil, false
	}
	for _, sp := range accepts {
		v := bestValue
		if sp == tool.SpellingSignedLookback {
			v = "-" + v
		}
		if periodspell.ParsesUnder(v, string(sp), p.Units) {
			return v, true
		}
	}
	return nil, false
}

// callWindowOf finds this turn's call-window row for a call.
func callWindowOf(s *flow.Scope, id string) (callWindowRow, bool) {
	rows := kFindings.Get(s)
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].Kind() != rowCallWindow {
			continue
		}
		b, err := json.Marshal(rows[i])
		if err != nil {
			continue
		}
		var w callWindowRow
		if json.Unmarshal(b, &w) == nil && w.ToolCallID == id {
			return w, true
		}
	}
	return callWindowRow{}, false
}

// clockRow is the turn's clock row: kind, turn, iteration, then the clock's
// own fields.
func clockRow(ck timelayer.Clock, turn int) (ledger.Row, error) {
	body, err := json.Marshal(ck)
	if err != nil {
		return ledger.Row{}, err
	}
	head := fmt.Sprintf(`{"kind":%q,"turn":%d,"iteration":1,`, rowClock, turn)
	var r ledger.Row
	err = json.Unmarshal(append([]byte(head), body[1:]...), &r)
	return r, err
}

// rawRow turns a time row into a ledger row kept as its JSON.
func rawRow(v any) (ledger.Row, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return ledger.Row{}, err
	}
	// b is one object json.Marshal just wrote: the row reads it directly,
	// without json.Unmarshal's second validating pass.
	var r ledger.Row
	err = r.UnmarshalJSON(b)
	return r, err
}
