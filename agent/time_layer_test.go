package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
	timelayer "github.com/agentfootprint/agentfootprint-go/internal/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/google/go-cmp/cmp"
)

// wall is an injected wall clock the test moves by hand.
type wall struct {
	mu sync.Mutex
	t  time.Time
}

func (w *wall) now() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.t
}

func (w *wall) set(t time.Time) {
	w.mu.Lock()
	w.t = t
	w.mu.Unlock()
}

var turnNow = time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)

func TestTimeRefusesBadInput(t *testing.T) {
	p := scripted.New(scripted.Reply{Content: "hi"})
	for _, zone := range []string{"PST", "+05:30", "Local", "america/los_angeles", "EST"} {
		if _, err := agent.New(p, agent.WithTimeLayer(zone)); err == nil || !strings.Contains(err.Error(), zone) {
			t.Errorf("WithTimeLayer(%q): err %v, want a refusal naming it", zone, err)
		}
	}
	plain, err := agent.New(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = plain.Run(context.Background(), agent.Input{Message: "hi", Time: &clock.Given{Zone: "UTC"}})
	if err == nil || !strings.Contains(err.Error(), "WithTimeLayer") {
		t.Errorf("Input.Time without WithTimeLayer: err %v, want it to name WithTimeLayer", err)
	}
	timed, err := agent.New(p, agent.WithTimeLayer("UTC"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = timed.Run(context.Background(), agent.Input{Message: "hi", Time: &clock.Given{Zone: "Mars/Olympus"}})
	if err == nil || !strings.Contains(err.Error(), "Mars/Olympus") || !strings.Contains(err.Error(), "time.zone") {
		t.Errorf("unknown run zone: err %v", err)
	}
}

// No zone anywhere: the clock is spelled in UTC and says the zone is
// unknown, and the tool is told so.
func TestTimeZoneUnknown(t *testing.T) {
	sn := &seen{}
	w := &wall{t: turnNow}
	res, _ := runOnce(t, searchLogs(t, tool.Rule{Assume: "2h"}, lookback, sn, []string{}), `{"service":"checkout"}`,
		agent.Input{}, agent.WithTimeLayer(""), agent.WithClock(w.now))
	want := []string{`{"kind":"clock","turn":1,"iteration":1,"now":"2026-10-09T15:40:00Z","nowSource":"default","zone":"UTC","zoneSource":"unknown"}`}
	if diff := cmp.Diff(want, rowsOfKind(t, res, "clock")); diff != "" {
		t.Errorf("clock row (-want +got):\n%s", diff)
	}
	if len(sn.time) != 1 || sn.time[0] == nil || !sn.time[0].ZoneUnknown || sn.time[0].Zone != "UTC" {
		t.Errorf("tool time %+v", sn.time)
	}
}

// The app's now and zone: one clock row, the window the filled default asks,
// the dispatch instant, and the tool's Call.Time.
func TestTimeRowsForAnAssumedWindow(t *testing.T) {
	sn := &seen{}
	w := &wall{t: turnNow.Add(20 * time.Second)}
	res, _ := runOnce(t, searchLogs(t, tool.Rule{Assume: "2h"}, lookback, sn, []string{}), `{"service":"checkout"}`,
		agent.Input{Time: &clock.Given{Now: turnNow, Zone: "America/Los_Angeles"}}, agent.WithTimeLayer("UTC"), agent.WithClock(w.now))
	check := map[string][]string{
		"clock":       {`{"kind":"clock","turn":1,"iteration":1,"now":"2026-10-09T15:40:00Z","nowSource":"app","zone":"America/Los_Angeles","zoneSource":"run"}`},
		"call-window": {`{"kind":"call-window","turn":1,"iteration":1,"toolCallId":"c1","toolName":"search_logs","how":"filled","argument":"window","form":"lookback","asked":{"from":"2026-10-09T13:40:00Z","to":"2026-10-09T15:40:00Z"}}`},
		// A 20 s drift is within the default one-minute step: no drift.
		"call": {`{"kind":"call","turn":1,"iteration":1,"toolCallId":"c1","toolName":"search_logs","dispatchedAt":"2026-10-09T15:40:20Z"}`},
	}
	for kind, want := range check {
		if diff := cmp.Diff(want, rowsOfKind(t, res, kind)); diff != "" {
			t.Errorf("%s rows (-want +got):\n%s", kind, diff)
		}
	}
	want := &tool.CallTime{Zone: "America/Los_Angeles", Now: turnNow, DispatchedAt: turnNow.Add(20 * time.Second)}
	if len(sn.time) != 1 || !cmp.Equal(want, sn.time[0]) {
		t.Errorf("tool time %+v, want %+v", sn.time, want)
	}
}

// A window wholly older than the declared retention is refused before
// dispatch; one crossing the edge runs and is flagged.
func TestTimeRetention(t *testing.T) {
	kept := tool.Period{Argument: "window", Spelling: tool.SpellingISORange, Retention: "30d"}
	cases := []struct {
		name, window, row string
		ran               bool
	}{
		{"beyond", "2026-08-01T00:00:00Z..2026-08-02T00:00:00Z",
			`{"kind":"call-window","turn":1,"iteration":1,"toolCallId":"c1","toolName":"search_logs","how":"refused","argument":"window","form":"iso-range","asked":{"from":"2026-08-01T00:00:00Z","to":"2026-08-02T00:00:01Z"},"refused":"beyond-retention"}`, false},
		{"partly", "2026-09-01T00:00:00Z..2026-09-20T00:00:00Z",
			`{"kind":"call-window","turn":1,"iteration":1,"toolCallId":"c1","toolName":"search_logs","how":"model","argument":"window","form":"iso-range","asked":{"from":"2026-09-01T00:00:00Z","to":"2026-09-20T00:00:01Z"},"partlyBeyondRetention":true}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sn := &seen{}
			w := &wall{t: turnNow}
			res, _ := runOnce(t, searchLogs(t, tool.Rule{Assume: "2026-10-09T00:00:00Z..2026-10-09T01:00:00Z"}, kept, sn, []string{}),
				`{"service":"checkout","window":"`+c.window+`"}`, agent.Input{Time: &clock.Given{Now: turnNow, Zone: "UTC"}},
				agent.WithTimeLayer(""), agent.WithClock(w.now))
			if diff := cmp.Diff([]string{c.row}, rowsOfKind(t, res, "call-window")); diff != "" {
				t.Errorf("call-window (-want +got):\n%s", diff)
			}
			if ran := len(sn.got()) == 1; ran != c.ran {
				t.Errorf("ran = %v, want %v", ran, c.ran)
			}
			periods := rowsOfKind(t, res, "period")
			flag := `"beyondRetention":true`
			if c.ran {
				flag = `"partlyBeyondRetention":true`
			}
			if len(periods) != 1 || !strings.Contains(periods[0], flag) {
				t.Errorf("period rows %v lack %s", periods, flag)
			}
			if got := contains(reasonsOf(res), assess.ReasonPeriodBeyondRetention); got == c.ran {
				t.Errorf("reasons %v: beyond-retention reason %v", reasonsOf(res), got)
			}
			msgs := toolMessages(res.History)
			if !c.ran && (len(msgs) != 1 || !strings.Contains(msgs[0], "older than anything its source keeps") || strings.Contains(msgs[0], "2026")) {
				t.Errorf("refusal %q (must name the reason, never the window)", msgs)
			}
		})
	}
}

// A retention that is not a duration spelling is refused when the tool is
// defined, naming the field.
func TestTimeRetentionNotASpelling(t *testing.T) {
	_, err := tool.New("search_logs", "s", func(context.Context, searchLogsIn) (string, error) { return "", nil },
		tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "2h"}}),
		tool.WithPeriod(tool.Period{Argument: "window", Spelling: tool.SpellingLookback, Retention: "thirty days"}))
	if err == nil || !strings.Contains(err.Error(), "retention") {
		t.Errorf("err %v, want a refusal naming retention", err)
	}
}

// A look-back the model sent, dispatched 30 minutes after the turn's now
// (a check-in pause in between), is recorded as shifted; the turn's clock
// is the one decided before the pause.
func TestTimeShiftedAfterPause(t *testing.T) {
	sn := &seen{}
	w := &wall{t: turnNow}
	tl := searchLogs(t, tool.Rule{Assume: "2h"}, lookback, sn, []string{}, tool.WithCheckIn(func(json.RawMessage) bool { return true }))
	p := scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{"service":"checkout","window":"60m"}`)}},
		scripted.Reply{Content: "No errors."},
	)
	a, err := agent.New(p, agent.WithTools(tl), agent.WithTimeLayer("America/Los_Angeles"), agent.WithClock(w.now))
	if err != nil {
		t.Fatal(err)
	}
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "errors in the last hour?"})
	if err != nil || !res.Paused {
		t.Fatalf("want a pause, got %v %+v", err, res)
	}
	w.set(turnNow.Add(30 * time.Minute))
	res, err = conv.Resume(context.Background(), json.RawMessage(`true`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"kind":"call","turn":1,"iteration":1,"toolCallId":"c1","toolName":"search_logs","dispatchedAt":"2026-10-09T16:10:00Z","drift":{"byMs":1800000,"outcome":"shifted"}}`}
	if diff := cmp.Diff(want, rowsOfKind(t, res, "call")); diff != "" {
		t.Errorf("call row (-want +got):\n%s", diff)
	}
	if windows := rowsOfKind(t, res, "call-window"); len(windows) != 1 || !strings.Contains(windows[0], `"how":"model"`) {
		t.Errorf("call-window rows %v (want one, filed before the pause)", windows)
	}
	clocks := rowsOfKind(t, res, "clock")
	if len(clocks) != 1 || !strings.Contains(clocks[0], `"now":"2026-10-09T15:40:00Z"`) || !strings.Contains(clocks[0], `"zoneSource":"builder"`) {
		t.Errorf("clock rows %v", clocks)
	}
	wantPeriod := []string{`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"verdict":"undeclared","argument":"window","differs":{"against":"asked","asked":{"from":"2026-10-09T14:40:00Z","to":"2026-10-09T15:40:00Z"},"read":[{"from":"2026-10-09T15:10:00Z","to":"2026-10-09T16:10:00Z"}],"source":"shifted","missing":[{"from":"2026-10-09T14:40:00Z","to":"2026-10-09T15:10:00Z"}],"extra":[{"from":"2026-10-09T15:40:00Z","to":"2026-10-09T16:10:00Z"}]},"shifted":{"byMs":1800000}}`}
	if diff := cmp.Diff(wantPeriod, rowsOfKind(t, res, "period")); diff != "" {
		t.Errorf("period row (-want +got):\n%s", diff)
	}
	if !contains(reasonsOf(res), assess.ReasonPeriodDiffersFromAsked) {
		t.Errorf("reasons %v", reasonsOf(res))
	}
	if len(sn.time) != 1 || !sn.time[0].Now.Equal(turnNow) || !sn.time[0].DispatchedAt.Equal(turnNow.Add(30*time.Minute)) {
		t.Errorf("tool time %+v", sn.time)
	}
}

// Unarmed: no time row and no Call.Time.
func TestTimeUnarmed(t *testing.T) {
	sn := &seen{}
	res, _ := runOnce(t, searchLogs(t, tool.Rule{Assume: "2h"}, lookback, sn, []string{}), `{"service":"checkout"}`, agent.Input{})
	for _, k := range []string{"clock", "call", "call-window"} {
		if rows := rowsOfKind(t, res, k); len(rows) != 0 {
			t.Errorf("unarmed %s rows %v", k, rows)
		}
	}
	if len(sn.time) != 1 || sn.time[0] != nil {
		t.Errorf("unarmed tool time %+v", sn.time)
	}
}

// declaring returns a result that declares it read [dispatchedAt − back,
// dispatchedAt] from a store holding the last 90 days.
func declaring(back time.Duration) func(ct *tool.CallTime) any {
	return func(ct *tool.CallTime) any {
		at := ct.DispatchedAt
		c, err := coverage.Wrap([]string{}, coverage.LedgerDecl{Checked: []coverage.Item{{What: "checkout error logs"}}, Period: &coverage.Period{
			Queried: coverage.Span{From: timelayer.UTCString(at.Add(-back)), To: timelayer.UTCString(at)},
			Held:    coverage.Held{Span: coverage.Span{From: timelayer.UTCString(at.Add(-90 * 24 * time.Hour)), To: timelayer.UTCString(at)}},
		}})
		if err != nil {
			panic(err)
		}
		return c
	}
}

func periodTool(t *testing.T, p tool.Period, result func(*tool.CallTime) any, opts ...tool.Option) *tool.Tool {
	t.Helper()
	opts = append([]tool.Option{tool.WithAskOrAssume(map[string]tool.Rule{"window": {Assume: "2h"}}), tool.WithPeriod(p)}, opts...)
	tl, err := tool.New("search_logs", "Search a service's error logs.",
		func(ctx context.Context, in searchLogsIn) (any, error) {
			call, _ := tool.CallFrom(ctx)
			return result(call.Time), nil
		}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// End to end: what the call read against the window it asked, on the
// period row, and the reason in the fold.
func TestTimePeriodChecks(t *testing.T) {
	cases := []struct {
		name, window string
		back         time.Duration
		row          string
	}{
		{"clamped read: less than asked", "30d", 7 * 24 * time.Hour,
			`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"verdict":"covered","argument":"window","differs":{"against":"asked","asked":{"from":"2026-09-09T15:40:00Z","to":"2026-10-09T15:40:00Z"},"read":[{"from":"2026-10-02T15:40:00Z","to":"2026-10-09T15:40:00.001Z"}],"source":"declared","stepMs":1,"missing":[{"from":"2026-09-09T15:40:00Z","to":"2026-10-02T15:40:00Z"}],"extra":[]}}`},
		{"wider read: more than asked", "24h", 48 * time.Hour,
			`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"verdict":"covered","argument":"window","differs":{"against":"asked","asked":{"from":"2026-10-08T15:40:00Z","to":"2026-10-09T15:40:00Z"},"read":[{"from":"2026-10-07T15:40:00Z","to":"2026-10-09T15:40:00.001Z"}],"source":"declared","stepMs":1,"missing":[],"extra":[{"from":"2026-10-07T15:40:00Z","to":"2026-10-08T15:40:00Z"}]}}`},
		{"exact read", "24h", 24 * time.Hour,
			`{"kind":"period","turn":1,"toolCallId":"c1","toolName":"search_logs","iteration":1,"verdict":"covered","argument":"window"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := &wall{t: turnNow}
			res, log := runOnce(t, periodTool(t, lookback, declaring(c.back)), `{"service":"checkout","window":"`+c.window+`"}`,
				agent.Input{Time: &clock.Given{Now: turnNow, Zone: "America/Los_Angeles"}}, agent.WithTimeLayer(""), agent.WithClock(w.now))
			if diff := cmp.Diff([]string{c.row}, rowsOfKind(t, res, "period")); diff != "" {
				t.Errorf("period row (-want +got):\n%s", diff)
			}
			differs := strings.Contains(c.row, "differs")
			var wantChecks []string
			if differs {
				wantChecks = []string{"period-differs-from-asked"}
			}
			if evs := log.of(event.FindingsPeriod); len(evs) != 1 || !cmp.Equal(wantChecks, evs[0].Payload.(event.FindingsPeriodPayload).TimeChecks) {
				t.Errorf("findings.period events %+v, want timeChecks %v", evs, wantChecks)
			}
			if got := contains(reasonsOf(res), assess.ReasonPeriodDiffersFromAsked); got != differs {
				t.Errorf("reasons %v: differs reason %v, want %v", reasonsOf(res), got, differs)
			}
		})
	}
}

// recorder is a scripted provider that keeps every request it is sent.
type recorder struct {
	mu   sync.Mutex
	reqs []*llm.Request
}

func (r *recorder) provider(replies ...scripted.Reply) llm.Provider {
	return scripted.Func(func(req *llm.Request, n int, _ int64) scripted.Reply {
		r.mu.Lock()
		r.reqs = append(r.reqs, req.Clone()) // fn must not keep req itself
		r.mu.Unlock()
		return replies[n-1]
	})
}

func lastMessage(req *llm.Request) llm.Message { return req.Messages[len(req.Messages)-1] }

// The served time line ends every request of the turn, is never written to
// history, and carries the model's conclusion once a check has fired.
func TestTimeLineServedLate(t *testing.T) {
	rec := &recorder{}
	w := &wall{t: turnNow}
	p := rec.provider(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{"service":"checkout","window":"30d"}`)}},
		scripted.Reply{Content: "No errors."},
	)
	a, err := agent.New(p, agent.WithTools(periodTool(t, lookback, declaring(7*24*time.Hour))), agent.WithTimeLayer("America/Los_Angeles"), agent.WithClock(w.now))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Any errors in the last month?", Time: &clock.Given{Now: turnNow}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.reqs) != 2 {
		t.Fatalf("%d requests", len(rec.reqs))
	}
	first := lastMessage(rec.reqs[0])
	want := timelayer.TimeLineMarker + " Time of this turn: Friday 2026-10-09 08:40 America/Los_Angeles (UTC-07:00)."
	if first.Role != llm.RoleUser || first.Unit != "time-line" || first.Content != want {
		t.Errorf("first request's last message %+v\nwant %q", first, want)
	}
	// A clock-only time line costs at most 73 tokens (chars/4).
	if n := (textlen.UTF16(first.Content) + 3) / 4; n > 73 {
		t.Errorf("clock-only time line is %d tokens by chars/4, want ≤ 73", n)
	}
	second := lastMessage(rec.reqs[1]).Content
	for _, part := range []string{
		"The tools read a different stretch of time than the one asked about",
		"search_logs read less than was asked — asked: 2026-09-09 08:40:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00); read: 2026-10-02 08:40:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00)",
	} {
		if !strings.Contains(second, part) {
			t.Errorf("second time line lacks %q:\n%s", part, second)
		}
	}
	for _, m := range res.History {
		if strings.Contains(m.Content, timelayer.TimeLineMarker) {
			t.Errorf("the time line reached history: %+v", m)
		}
	}
}

// Without WithTimeLayer the request has no time line.
func TestTimeLineUnarmed(t *testing.T) {
	rec := &recorder{}
	a, err := agent.New(rec.provider(scripted.Reply{Content: "hi"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Run(context.Background(), agent.Input{Message: "hello"}); err != nil {
		t.Fatal(err)
	}
	if m := lastMessage(rec.reqs[0]); m.Content != "hello" {
		t.Errorf("unarmed last message %+v", m)
	}
}

// The person's limits block under WithTimeLayer: the Period line in the person's
// zone, then the check line of the clamped read; with no zone named, a
// Clocks section says why the times are in UTC.
func TestTimeLimitsBlock(t *testing.T) {
	w := &wall{t: turnNow}
	res, _ := runOnce(t, periodTool(t, lookback, declaring(7*24*time.Hour)), `{"service":"checkout","window":"30d"}`,
		agent.Input{Time: &clock.Given{Now: turnNow, Zone: "America/Los_Angeles"}}, agent.WithTimeLayer(""), agent.WithClock(w.now), agent.WithLimitsBlock())
	want := "No errors.\n\n---\n\n" + limits.Heading + "\n\nChecked:\n- checkout error logs\n\nPeriod:\n" +
		"- search_logs queried 2026-10-02 08:40–2026-10-09 08:40 America/Los_Angeles (UTC-07:00); the store holds 2026-07-11 08:40–2026-10-09 08:40 America/Los_Angeles (UTC-07:00)\n" +
		"- search_logs read less than was asked — asked: 2026-09-09 08:40:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00); read: 2026-10-02 08:40:00–2026-10-09 08:40:00 America/Los_Angeles (UTC-07:00)"
	if res.Answer != want {
		t.Errorf("answer\n got %q\nwant %q", res.Answer, want)
	}

	res, _ = runOnce(t, periodTool(t, lookback, declaring(2*time.Hour)), `{"service":"checkout"}`,
		agent.Input{}, agent.WithTimeLayer(""), agent.WithClock(w.now), agent.WithLimitsBlock())
	for _, part := range []string{"\n\nClocks:\n- " + timelayer.UnknownZoneLine, "\n\nAssumed (a tool's rule chose these values, not the person):\n- window = \"2h\" (search_logs)"} {
		if !strings.Contains(res.Answer, part) {
			t.Errorf("answer lacks %q:\n%s", part, res.Answer)
		}
	}
	if strings.Index(res.Answer, "Clocks:") > strings.Index(res.Answer, "Assumed") {
		t.Errorf("the Assumed block comes before Clocks:\n%s", res.Answer)
	}
}

// A window outside the tool's declared direction, or longer than its
// maximum range, is refused before dispatch, naming the tool and the reason.
func TestTimeDirectionAndMaxRange(t *testing.T) {
	cases := []struct {
		name, window, refused, says string
		p                           tool.Period
	}{
		{"future window on a past-only tool", "2026-10-09T16:00:00Z..2026-10-09T17:00:00Z", "time-future", "reads only the past",
			tool.Period{Argument: "window", Spelling: tool.SpellingISORange, Direction: tool.DirectionPast}},
		{"past window on a future-only tool", "2026-10-09T14:00:00Z..2026-10-09T15:00:00Z", "time-past", "reads only the future",
			tool.Period{Argument: "window", Spelling: tool.SpellingISORange, Direction: tool.DirectionFuture}},
		{"longer than the maximum range", "2026-10-01T00:00:00Z..2026-10-09T00:00:00Z", "max-range", "longer than the longest",
			tool.Period{Argument: "window", Spelling: tool.SpellingISORange, MaxRange: "7d"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sn := &seen{}
			w := &wall{t: turnNow}
			res, _ := runOnce(t, searchLogs(t, tool.Rule{Assume: "2026-10-09T14:00:00Z..2026-10-09T15:00:00Z"}, c.p, sn, []string{}),
				`{"service":"checkout","window":"`+c.window+`"}`, agent.Input{}, agent.WithTimeLayer("UTC"), agent.WithClock(w.now))
			if len(sn.got()) != 0 {
				t.Errorf("the tool ran: %+v", sn.got())
			}
			rows := rowsOfKind(t, res, "call-window")
			if len(rows) != 1 || !strings.Contains(rows[0], `"refused":"`+c.refused+`"`) {
				t.Errorf("call-window %v", rows)
			}
			msgs := toolMessages(res.History)
			if len(msgs) != 1 || !strings.Contains(msgs[0], c.says) || strings.Contains(msgs[0], "2026") {
				t.Errorf("refusal %q", msgs)
			}
		})
	}
}

// The person set a window in the app and the model sent another: the call
// is compared with the person's window, and the person reads "your window".
func TestTimeModelChoseAnotherWindow(t *testing.T) {
	w := &wall{t: turnNow}
	person := clock.Range{From: turnNow.Add(-2 * time.Hour), To: turnNow}
	res, _ := runOnce(t, searchLogs(t, tool.Rule{Assume: "2h"}, lookback, &seen{}, []string{}), `{"service":"checkout","window":"1h"}`,
		agent.Input{Time: &clock.Given{Now: turnNow, Zone: "America/Los_Angeles", Window: &person}}, agent.WithTimeLayer(""), agent.WithClock(w.now), agent.WithLimitsBlock())
	want := []string{`{"kind":"call-window","turn":1,"iteration":1,"toolCallId":"c1","toolName":"search_logs","how":"model-chosen","argument":"window","form":"lookback","asked":{"from":"2026-10-09T14:40:00Z","to":"2026-10-09T15:40:00Z"},"person":{"from":"2026-10-09T13:40:00Z","to":"2026-10-09T15:40:00Z"}}`}
	if diff := cmp.Diff(want, rowsOfKind(t, res, "call-window")); diff != "" {
		t.Errorf("call-window (-want +got):\n%s", diff)
	}
	if clocks := rowsOfKind(t, res, "clock"); len(clocks) != 1 || !strings.Contains(clocks[0], `"window":{"from":"2026-10-09T13:40:00Z","to":"2026-10-09T15:40:00Z","source":"control"}`) {
		t.Errorf("clock row %v", clocks)
	}
	line := "search_logs read less than your window — your window: 2026-10-09 06:40:00–08:40:00 America/Los_Angeles (UTC-07:00); read: 2026-10-09 07:40:00–08:40:00 America/Los_Angeles (UTC-07:00)"
	if !strings.Contains(res.Answer, line) {
		t.Errorf("answer lacks %q:\n%s", line, res.Answer)
	}
	if !contains(reasonsOf(res), assess.ReasonPeriodDiffersFromAsked) {
		t.Errorf("reasons %v", reasonsOf(res))
	}
}

// The model left the window out and the person set one in the app: the
// call is bound to it, exactly when the spelling can hold it, else as the
// smallest covering look-back, whose extra time is then a difference.
func TestTimeBoundToControlWindow(t *testing.T) {
	cases := []struct {
		name    string
		window  clock.Range
		sent    string
		row     string
		differs bool
	}{
		{"exact", clock.Range{From: turnNow.Add(-90 * time.Minute), To: turnNow}, "90m",
			`{"kind":"call-window","turn":1,"iteration":1,"toolCallId":"c1","toolName":"search_logs","how":"bound","argument":"window","form":"lookback","asked":{"from":"2026-10-09T14:10:00Z","to":"2026-10-09T15:40:00Z"}}`, false},
		{"widened", clock.Range{From: turnNow.Add(-26 * time.Hour), To: turnNow.Add(-2 * time.Hour)}, "26h",
			`{"kind":"call-window","turn":1,"iteration":1,"toolCallId":"c1","toolName":"search_logs","how":"bound","argument":"window","form":"lookback","asked":{"from":"2026-10-08T13:40:00Z","to":"2026-10-09T13:40:00Z"},"sent":{"from":"2026-10-08T13:40:00Z","to":"2026-10-09T15:40:00Z"}}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sn := &seen{}
			w := &wall{t: turnNow}
			win := c.window
			res, _ := runOnce(t, searchLogs(t, tool.Rule{Assume: "2h"}, lookback, sn, []string{}), `{"service":"checkout"}`,
				agent.Input{Time: &clock.Given{Now: turnNow, Zone: "UTC", Window: &win}}, agent.WithTimeLayer(""), agent.WithClock(w.now))
			if got := sn.got(); len(got) != 1 || got[0].Window != c.sent {
				t.Errorf("execute args %+v, want window %s", got, c.sent)
			}
			if diff := cmp.Diff([]string{c.row}, rowsOfKind(t, res, "call-window")); diff != "" {
				t.Errorf("call-window (-want +got):\n%s", diff)
			}
			if args := rowsOfKind(t, res, "argument"); len(args) != 1 || !strings.Contains(args[0], `"source":"app","value":"`+c.sent+`"`) {
				t.Errorf("argument rows %v", args)
			}
			if msgs := toolMessages(res.History); len(msgs) != 1 || !strings.Contains(msgs[0], "the window the person set in the app") {
				t.Errorf("tool message %q", msgs)
			}
			if got := contains(reasonsOf(res), assess.ReasonPeriodDiffersFromAsked); got != c.differs {
				t.Errorf("reasons %v: differs %v, want %v", reasonsOf(res), got, c.differs)
			}
			if c.differs {
				periods := rowsOfKind(t, res, "period")
				if len(periods) != 1 || !strings.Contains(periods[0], `"source":"sent"`) || !strings.Contains(periods[0], `"extra":[{"from":"2026-10-09T13:40:00Z","to":"2026-10-09T15:40:00Z"}]`) {
					t.Errorf("period rows %v", periods)
				}
			}
		})
	}
}

// A look-back the library filled, dispatched 30 minutes late, is redrawn
// as the asked range when the tool also accepts an iso-range: the call
// reads the time asked, and nothing differs.
func TestTimeRedrawnAfterPause(t *testing.T) {
	sn := &seen{}
	w := &wall{t: turnNow}
	p := tool.Period{Argument: "window", Spelling: tool.SpellingLookback, Accepts: []tool.PeriodSpelling{tool.SpellingISORange}}
	tl := searchLogs(t, tool.Rule{Assume: "2h"}, p, sn, []string{}, tool.WithCheckIn(func(json.RawMessage) bool { return true }))
	a, err := agent.New(scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "No errors."},
	), agent.WithTools(tl), agent.WithTimeLayer("UTC"), agent.WithClock(w.now))
	if err != nil {
		t.Fatal(err)
	}
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "errors?"})
	if err != nil || !res.Paused {
		t.Fatalf("want a pause: %v", err)
	}
	w.set(turnNow.Add(30 * time.Minute))
	if res, err = conv.Resume(context.Background(), json.RawMessage(`true`)); err != nil {
		t.Fatal(err)
	}
	if got := sn.got(); len(got) != 1 || got[0].Window != "2026-10-09T13:40:00Z..2026-10-09T15:39:59Z" {
		t.Errorf("execute args %+v", got)
	}
	want := []string{`{"kind":"call","turn":1,"iteration":1,"toolCallId":"c1","toolName":"search_logs","dispatchedAt":"2026-10-09T16:10:00Z","drift":{"byMs":1800000,"outcome":"redrawn","form":"iso-range"}}`}
	if diff := cmp.Diff(want, rowsOfKind(t, res, "call")); diff != "" {
		t.Errorf("call row (-want +got):\n%s", diff)
	}
	if periods := rowsOfKind(t, res, "period"); len(periods) != 1 || strings.Contains(periods[0], "differs") || strings.Contains(periods[0], "shifted") {
		t.Errorf("period rows %v", periods)
	}
}

// Default now, a pause, a resume passing another Time: the
// paused turn keeps its clock and one clock-on-resume row records both.
func TestTimeClockOnResume(t *testing.T) {
	sn := &seen{}
	w := &wall{t: turnNow}
	tl := searchLogs(t, tool.Rule{Assume: "2h"}, lookback, sn, []string{}, tool.WithCheckIn(func(json.RawMessage) bool { return true }))
	a, err := agent.New(scripted.New(
		scripted.Reply{ToolCalls: []llm.ToolCall{call("c1", "search_logs", `{"service":"checkout"}`)}},
		scripted.Reply{Content: "No errors."},
	), agent.WithTools(tl), agent.WithTimeLayer("America/Los_Angeles"), agent.WithClock(w.now))
	if err != nil {
		t.Fatal(err)
	}
	conv := a.NewConversation()
	res, err := conv.Send(context.Background(), agent.Input{Message: "errors?"})
	if err != nil || !res.Paused {
		t.Fatalf("want a pause: %v", err)
	}
	if _, err := conv.Resume(context.Background(), json.RawMessage(`true`), agent.WithResumeTime(clock.Given{Zone: "PST"})); err == nil {
		t.Error("a resume with a refused zone: want an error")
	}
	later := turnNow.Add(time.Hour)
	res, err = conv.Resume(context.Background(), json.RawMessage(`true`), agent.WithResumeTime(clock.Given{Now: later, Zone: "Europe/Berlin"}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"kind":"clock-on-resume","turn":1,"iteration":1,"passed":{"now":"2026-10-09T16:40:00Z","zone":"Europe/Berlin"},"kept":{"now":"2026-10-09T15:40:00Z","zone":"America/Los_Angeles"}}`}
	if diff := cmp.Diff(want, rowsOfKind(t, res, "clock-on-resume")); diff != "" {
		t.Errorf("clock-on-resume (-want +got):\n%s", diff)
	}
	clocks := rowsOfKind(t, res, "clock")
	if len(clocks) != 1 || !strings.Contains(clocks[0], `"nowSource":"default"`) {
		t.Errorf("clock rows %v", clocks)
	}
	if len(sn.time) != 1 || !sn.time[0].Now.Equal(turnNow) || sn.time[0].Zone != "America/Los_Angeles" {
		t.Errorf("tool time %+v (want the frozen clock)", sn.time)
	}
}
