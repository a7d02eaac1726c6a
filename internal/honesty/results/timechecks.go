// This file holds the period checks the time layer adds beside each verdict: what a
// call read against the window it asked, a look-back that ran late, a window older than the
// source keeps, and the held span. They are pure: the agent hands in what the record holds.

package results

import (
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	timelayer "github.com/agentfootprint/agentfootprint-go/internal/clock"
)

// Names of the time checks, as findings.period lists them (never an instant).
const (
	TimeCheckDiffers         = "period-differs-from-asked"
	TimeCheckShifted         = "period-shifted"
	TimeCheckBeyondRetention = "period-beyond-retention"
	TimeCheckPartlyBeyond    = "partly-beyond-retention"
)

// Where a compared read came from (differs.source).
const (
	ReadDeclared = "declared"
	ReadSent     = "sent"
	ReadShifted  = "shifted"
	ReadAsked    = "asked"
)

// TimeInput is what the record holds about one judged call under the time layer.
type TimeInput struct {
	// Now is the turn's now.
	Now time.Time
	// Verdict is the row's verdict and Declared the periods the call's result declared.
	Verdict  boundary.RowVerdict
	Declared []coverage.Period
	// Asked is the window the call asked for (its call-window row), nil when nothing can be
	// compared (not filled, unread).
	Asked *clock.Range
	// Person is the window the person set in the app's control, set only when the model chose
	// another one (how is model-chosen): the read is then compared with it (against "person").
	Person *clock.Range
	// SentRange is what a widened fill sent when the tool's spelling could not hold the
	// person's window exactly (call-window.sent); nil otherwise.
	SentRange *clock.Range
	// Sent is true when the call sent a look-back (how is model, model-chosen or filled).
	Sent bool
	// RefusedBeyondRetention is true when the call was refused before dispatch for asking
	// only about time older than the source keeps.
	RefusedBeyondRetention bool
	// PartlyBeyondRetention is the call-window row's flag.
	PartlyBeyondRetention bool
	// Drift is the call row's drift, nil when it drifted by no more than a step.
	Drift *timelayer.Drift
	// Retention and Granularity are the tool's declared facts; zero when not declared.
	Retention   time.Duration
	Granularity time.Duration
}

// TimeFields are the time layer's fields of one period row.
type TimeFields struct {
	Differs               *boundary.PeriodDiffers
	Shifted               *boundary.PeriodShift
	BeyondRetention       bool
	PartlyBeyondRetention bool
	Held                  *boundary.PeriodHeld
}

// Apply writes the fields onto a period row.
func (f TimeFields) Apply(row *boundary.PeriodRow) {
	row.Differs, row.Shifted = f.Differs, f.Shifted
	row.BeyondRetention, row.PartlyBeyondRetention = f.BeyondRetention, f.PartlyBeyondRetention
	row.Held = f.Held
}

// Names lists the checks that fired, in a fixed order.
func (f TimeFields) Names() []string {
	var out []string
	if f.Differs != nil {
		out = append(out, TimeCheckDiffers)
	}
	if f.Shifted != nil {
		out = append(out, TimeCheckShifted)
	}
	if f.BeyondRetention {
		out = append(out, TimeCheckBeyondRetention)
	}
	if f.PartlyBeyondRetention {
		out = append(out, TimeCheckPartlyBeyond)
	}
	return out
}

// TimeChecks compares what one call read with the window it asked (or, when the model chose
// another window than the person's, with the person's). The read is, first found:
// each declared queried span read back as [from, to + step) with step the granularity, else
// 1 ms; the asked window moved by a shifted drift; the asked window itself. Pieces of 1 ms or
// less are dropped, and a sent look-back with no drift whose one declared read has the asked
// length and lies later by at most a step (granularity, else a minute) is the tool reading its
// clock a moment later, not a difference. A declared span it cannot parse is skipped.
func TimeChecks(in TimeInput) TimeFields {
	var f TimeFields
	if in.Drift != nil && in.Drift.Outcome == timelayer.Shifted {
		f.Shifted = &boundary.PeriodShift{ByMs: in.Drift.ByMs}
	}
	f.PartlyBeyondRetention = in.PartlyBeyondRetention && !in.RefusedBeyondRetention
	f.BeyondRetention = in.RefusedBeyondRetention
	if h, ok := HeldSpanOf(in.Declared, in.Verdict); ok {
		f.Held = &boundary.PeriodHeld{Queried: h.Queried, Held: h.Held}
	}
	if in.Asked == nil || in.RefusedBeyondRetention {
		return f
	}
	asked := *in.Asked
	compared, against := asked, "asked"
	if in.Person != nil {
		compared, against = *in.Person, "person"
	}
	source, step := ReadAsked, time.Duration(0)
	reads := []clock.Range{asked}
	if declared := declaredReads(in.Declared, in.Granularity); len(declared) > 0 {
		step = in.Granularity
		if step <= 0 {
			step = time.Millisecond
		}
		source, reads = ReadDeclared, declared
	} else if in.SentRange != nil {
		source, reads = ReadSent, []clock.Range{*in.SentRange}
	} else if f.Shifted != nil {
		source, reads = ReadShifted, []clock.Range{asked.Shifted(time.Duration(in.Drift.ByMs) * time.Millisecond)}
	}
	if in.Retention > 0 {
		edge := in.Now.Add(-in.Retention)
		all := true
		for _, r := range reads {
			if r.To.After(edge) {
				all = false
			}
		}
		f.BeyondRetention = all
	}
	if (source == ReadAsked && in.Person == nil) || readsLate(in, compared, reads, source) {
		return f
	}
	missing := dropTiny(timelayer.Difference([]clock.Range{compared}, reads))
	extra := dropTiny(timelayer.Difference(reads, []clock.Range{compared}))
	if len(missing) == 0 && len(extra) == 0 {
		return f
	}
	d := &boundary.PeriodDiffers{Against: against, Asked: spanOf(compared), Source: source, Read: spansOf(reads),
		Missing: spansOf(missing), Extra: spansOf(extra)}
	if source == ReadDeclared {
		d.StepMs = step.Milliseconds()
	}
	f.Differs = d
	return f
}

// readsLate is rule 3: a sent look-back with no recorded drift whose one declared read has the
// asked length and starts later by at most a step.
func readsLate(in TimeInput, asked clock.Range, reads []clock.Range, source string) bool {
	if source != ReadDeclared || !in.Sent || in.Drift != nil || len(reads) != 1 {
		return false
	}
	step := in.Granularity
	if step <= 0 {
		step = timelayer.DefaultStep
	}
	r := reads[0]
	late := r.From.Sub(asked.From)
	length := r.To.Sub(r.From) - asked.To.Sub(asked.From)
	return late >= 0 && late <= step && length >= 0 && length <= stepOrMs(in.Granularity)
}

func stepOrMs(g time.Duration) time.Duration {
	if g > 0 {
		return g
	}
	return time.Millisecond
}

// declaredReads reads each declared queried span back as a half-open range.
func declaredReads(declared []coverage.Period, granularity time.Duration) []clock.Range {
	step := granularity
	if step <= 0 {
		step = time.Millisecond
	}
	var out []clock.Range
	for _, p := range declared {
		from, err := timelayer.ParseInstant(p.Queried.From, timelayer.Lenient)
		if err != nil {
			continue
		}
		to, err := timelayer.ParseInstant(p.Queried.To, timelayer.Lenient)
		if err != nil || to.Time.Before(from.Time) {
			continue
		}
		out = append(out, clock.Range{From: from.Time.UTC(), To: to.Time.Add(step).UTC()})
	}
	return out
}

// dropTiny drops pieces of 1 ms or less.
func dropTiny(rs []clock.Range) []clock.Range {
	var out []clock.Range
	for _, r := range rs {
		if r.To.Sub(r.From) > time.Millisecond {
			out = append(out, r)
		}
	}
	return out
}

func spanOf(r clock.Range) coverage.Span {
	return coverage.Span{From: timelayer.UTCString(r.From), To: timelayer.UTCString(r.To)}
}

func spansOf(rs []clock.Range) []coverage.Span {
	out := make([]coverage.Span, 0, len(rs))
	for _, r := range rs {
		out = append(out, spanOf(r))
	}
	return out
}
