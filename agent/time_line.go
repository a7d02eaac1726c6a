// The time layer's served time line: one library-marked user message
// appended to every model request of a turn under WithTimeLayer (never to
// history), carrying the turn's time and the conclusions of the period
// checks filed so far this turn. It is committed as timeLine so a replay
// rebuilds the exact bytes.

package agent

import (
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	timelayer "github.com/agentfootprint/agentfootprint-go/internal/clock"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// timeLineUnit is the unit id the time line's message carries in the
// request; its span is a message's (explain leaves it out of the units and
// messages it counts by this id).
const timeLineUnit = "time-line"

// TimeLineState is the committed timeLine: the iteration whose request
// carried it and its text.
type TimeLineState struct {
	Iteration int    `json:"iteration"`
	Text      string `json:"text"`
}

var kTimeLine = flow.Key[TimeLineState]("timeLine")

// appendTimeLine is the time layer's request step.
func appendTimeLine(s *flow.Scope, req *llm.Request) {
	ck, ok := kTurnClock.Get(s)
	if !ok {
		return
	}
	turn, _ := kTurnNumber.Get(s)
	tl := timelayer.TimeLine{Clock: ck}
	p := ck.Presentation()
	for _, pr := range periodRowsOfTurn(kFindings.Get(s), turn) {
		if line, ok, err := timelayer.CheckLine(checkedOf(pr), p, timelayer.ForModel); err == nil && ok {
			tl.CheckLines = append(tl.CheckLines, line)
		}
		if pr.Held != nil {
			h := timelayer.HeldSpan{Queried: timelayer.SpanText{From: pr.Held.Queried.From, To: pr.Held.Queried.To},
				Held: timelayer.SpanText{From: pr.Held.Held.From, To: pr.Held.Held.To}, Partly: pr.Verdict == boundary.RowVerdict(coverage.VerdictPartlyHeld)}
			if line, err := timelayer.HeldLine(pr.ToolName, h, p); err == nil {
				tl.HeldLines = append(tl.HeldLines, line)
			}
		}
	}
	text, err := timelayer.ServedTimeLine(tl)
	if err != nil {
		return
	}
	iter, _ := kIteration.Get(s)
	kTimeLine.Set(s, TimeLineState{Iteration: iter, Text: text})
	req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Content: text, Unit: timeLineUnit})
}

// periodRowsOfTurn is ledger.PeriodRows(ledger.OfTurn(rows, turn)) without
// reading the JSON of the rows of other kinds, which OfTurn parses to find
// their turn and PeriodRows then drops: the time line asks for it on every
// model call, so the parse grew with the ledger on every call.
func periodRowsOfTurn(rows []ledger.Row, turn int) []boundary.PeriodRow {
	var out []boundary.PeriodRow
	for _, pr := range ledger.PeriodRows(rows) {
		if pr.Turn == turn {
			out = append(out, pr)
		}
	}
	return out
}

// checkedOf turns a period row's time fields into what the check line
// renders.
func checkedOf(pr boundary.PeriodRow) timelayer.CheckedPeriod {
	c := timelayer.CheckedPeriod{Tool: pr.ToolName, Against: timelayer.AgainstAsked, Shifted: pr.Shifted != nil, BeyondRetention: pr.BeyondRetention}
	if d := pr.Differs; d != nil {
		if d.Against == string(timelayer.AgainstPerson) {
			c.Against = timelayer.AgainstPerson
		}
		c.Compared, _ = rangeOf(d.Asked)
		c.Reads = rangesOf(d.Read)
		c.Missing = rangesOf(d.Missing)
		c.Extra = rangesOf(d.Extra)
	}
	return c
}

func rangeOf(s coverage.Span) (clock.Range, bool) {
	from, err1 := time.Parse(time.RFC3339Nano, s.From)
	to, err2 := time.Parse(time.RFC3339Nano, s.To)
	return clock.Range{From: from, To: to}, err1 == nil && err2 == nil
}

func rangesOf(ss []coverage.Span) []clock.Range {
	var out []clock.Range
	for _, s := range ss {
		if r, ok := rangeOf(s); ok {
			out = append(out, r)
		}
	}
	return out
}
