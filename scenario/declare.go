// This file reads the declarations the honesty layers act on: a tool's ask-or-assume rules
// and period (with its source's retention and granularity), and the run's clock.

package scenario

import (
	"time"

	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/internal/instant"
	"github.com/agentfootprint/agentfootprint-go/internal/tz"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// timeSpec is agent.time: the zone the time layer spells instants in, the run's now, and
// a window the person set in the app.
type timeSpec struct {
	zone   string
	now    time.Time // zero: each turn's start
	window *clock.Range
}

var (
	timeKeys   = []string{"zone", "now", "window"}
	windowKeys = []string{"from", "to"}
	ruleKeys   = []string{"assume", "ask", "choices"}
	choiceKeys = []string{"value", "said"}
	periodKeys = []string{"argument", "spelling", "accepts", "units", "maxRange", "direction"}
	spellings  = []string{string(tool.SpellingLookback), string(tool.SpellingSignedLookback), string(tool.SpellingISORange)}
	directions = []string{string(tool.DirectionPast), string(tool.DirectionFuture)}
)

func parseTime(path string, v any) (*timeSpec, error) {
	o, err := asObject(path, v)
	if err != nil {
		return nil, err
	}
	if err := checkKeys(path, o, timeKeys); err != nil {
		return nil, err
	}
	ts := &timeSpec{}
	if zv, ok := o.Get("zone"); ok {
		p := join(path, "zone")
		if ts.zone, err = asString(p, zv); err != nil {
			return nil, err
		}
		if _, err := tz.Parse(ts.zone); err != nil {
			return nil, fieldErr(p, "%v", err)
		}
	}
	if nv, ok := o.Get("now"); ok {
		p := join(path, "now")
		s, err := asString(p, nv)
		if err != nil {
			return nil, err
		}
		if ts.now, ok = parseInstant(s); !ok {
			return nil, fieldErr(p, "%q is not an instant with its zone, such as 2026-09-26T10:00:00Z", s)
		}
	}
	if wv, ok := o.Get("window"); ok {
		if ts.window, err = parseWindow(join(path, "window"), wv); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// parseWindow reads {from, to}: two instants with their zones, from before to.
func parseWindow(path string, v any) (*clock.Range, error) {
	o, err := asObject(path, v)
	if err != nil {
		return nil, err
	}
	if err := checkKeys(path, o, windowKeys); err != nil {
		return nil, err
	}
	var ends [2]time.Time
	for i, k := range windowKeys {
		s, err := requiredString(path, o, k)
		if err != nil {
			return nil, err
		}
		var ok bool
		if ends[i], ok = parseInstant(s); !ok {
			return nil, fieldErr(join(path, k), "%q is not an instant with its zone, such as 2026-09-26T10:00:00Z", s)
		}
	}
	r := &clock.Range{From: ends[0], To: ends[1]}
	if err := r.Check(); err != nil {
		return nil, fieldErr(path, "%v", err)
	}
	return r, nil
}

// given is the clock input of a user turn, or nil when the file sets neither now nor a
// window.
func (ts *timeSpec) given() *clock.Given {
	if ts == nil || (ts.now.IsZero() && ts.window == nil) {
		return nil
	}
	g := &clock.Given{Now: ts.now}
	if ts.window != nil {
		w := *ts.window
		g.Window = &w
	}
	return g
}

func parseRules(path string, v any) (map[string]tool.Rule, error) {
	o, err := asObject(path, v)
	if err != nil {
		return nil, err
	}
	rules := make(map[string]tool.Rule, len(o))
	for _, m := range o {
		p := join(path, m.Key)
		ro, err := asObject(p, m.Value)
		if err != nil {
			return nil, err
		}
		if err := checkKeys(p, ro, ruleKeys); err != nil {
			return nil, err
		}
		var r tool.Rule
		for _, rm := range ro {
			rp := join(p, rm.Key)
			switch rm.Key {
			case "assume":
				if rm.Value == nil {
					return nil, fieldErr(rp, "is null; give the default value (a string, number or boolean)")
				}
				r.Assume = rm.Value
			case "ask":
				r.Ask, err = asString(rp, rm.Value)
			case "choices":
				r.Choices, err = parseChoices(rp, rm.Value)
			}
			if err != nil {
				return nil, err
			}
		}
		rules[m.Key] = r
	}
	return rules, nil
}

func parseChoices(path string, v any) ([]tool.Choice, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]tool.Choice, 0, len(arr))
	for i, e := range arr {
		p := index(path, i)
		o, err := asObject(p, e)
		if err != nil {
			return nil, err
		}
		if err := checkKeys(p, o, choiceKeys); err != nil {
			return nil, err
		}
		var c tool.Choice
		val, ok := o.Get("value")
		if !ok {
			return nil, fieldErr(join(p, "value"), "missing: the argument value this choice fills")
		}
		c.Value = val
		if sv, ok := o.Get("said"); ok {
			if c.Said, err = asStrings(join(p, "said"), sv); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	return out, nil
}

func parsePeriod(path string, v any) (*tool.Period, error) {
	o, err := asObject(path, v)
	if err != nil {
		return nil, err
	}
	if err := checkKeys(path, o, periodKeys); err != nil {
		return nil, err
	}
	pd := &tool.Period{}
	if pd.Argument, err = requiredString(path, o, "argument"); err != nil {
		return nil, err
	}
	if _, ok := o.Get("spelling"); !ok {
		return nil, fieldErr(join(path, "spelling"), "missing: how the argument is written (%s)", "lookback, signed-lookback or iso-range")
	}
	for _, m := range o {
		p := join(path, m.Key)
		var s string
		switch m.Key {
		case "spelling":
			if s, err = asString(p, m.Value); err == nil {
				err = enumWord(p, "spelling", s, spellings)
				pd.Spelling = tool.PeriodSpelling(s)
			}
		case "accepts":
			var ss []string
			ss, err = asStrings(p, m.Value)
			for i, a := range ss {
				if err == nil {
					err = enumWord(index(p, i), "spelling", a, spellings)
				}
				pd.Accepts = append(pd.Accepts, tool.PeriodSpelling(a))
			}
		case "units":
			pd.Units, err = asString(p, m.Value)
		case "maxRange":
			pd.MaxRange, err = asString(p, m.Value)
		case "direction":
			if s, err = asString(p, m.Value); err == nil {
				err = enumWord(p, "direction", s, directions)
				pd.Direction = tool.Direction(s)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return pd, nil
}

// parseInstant reads an instant with its zone under the module's lenient profile (the one a tool's
// declared period is read under), in UTC.
func parseInstant(s string) (time.Time, bool) {
	in, fault := instant.Parse(s, instant.Lenient)
	if fault != "" {
		return time.Time{}, false
	}
	return in.Time.UTC(), true
}
