// This file holds the definition options: validation mode and the
// declarations a tool may carry.

package tool

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
)

// Option configures a tool at definition. Options are applied in order;
// the declarations they carry are checked together once all are applied.
type Option func(*config)

type config struct {
	mode        Mode
	rules       map[string]Rule
	rulesSet    bool
	period      *Period
	ceiling     *ceiling
	checkIn     func(json.RawMessage) bool
	checkInSet  bool
	hidden      []string
	callerSkip  int   // WithCallerSkip's frames (site.go)
	site        *Site // WithDefinitionSite's site (site.go)
	problemPath string
	problem     string
	problemFix  string
}

func (c *config) fail(path, problem, fix string) {
	if c.problemPath == "" {
		c.problemPath, c.problem, c.problemFix = path, problem, fix
	}
}

// WithValidation sets what argument validation does with issues: enforce
// (the default), warn, or off. An unknown mode is refused at definition.
func WithValidation(m Mode) Option {
	return func(c *config) {
		if !m.valid() {
			c.fail("validation", "unknown validation mode "+string(m), "use enforce, warn or off")
			return
		}
		c.mode = m
	}
}

// WithAskOrAssume declares, per argument name, what happens when the model
// leaves that argument missing. The rules are checked against the input
// schema at definition (see Rule); the map is copied.
// A tool with rules arms the inputs layer.
func WithAskOrAssume(rules map[string]Rule) Option {
	cp := cloneRules(rules)
	if cp == nil {
		cp = map[string]Rule{}
	}
	return func(c *config) {
		c.rules = maps.Clone(cp)
		c.rulesSet = true
	}
}

// WithPeriod declares which argument sets the tool's time window and how it
// is spelled. The argument must also carry an ask-or-assume rule. A tool
// with a Period arms the inputs and results layers.
func WithPeriod(p Period) Option {
	cp := p.clone()
	return func(c *config) { c.period = &cp }
}

// WithResultCeiling refuses, instead of serving, any result whose served
// text is longer than maxChars UTF-16 units; narrowBy, optional, tells the
// model how to ask for less (for example "a shorter window or one
// service"). maxChars < 1 is refused at definition.
func WithResultCeiling(maxChars int, narrowBy string) Option {
	return func(c *config) {
		if maxChars < 1 {
			c.fail("resultCeiling.maxChars", "the ceiling must be at least 1 character", "pass a positive maxChars")
			return
		}
		c.ceiling = &ceiling{MaxChars: maxChars, NarrowBy: narrowBy}
	}
}

// WithCheckIn makes the tool pause for the person's consent before any call
// for which pred reports true; pred reads the call's (filled) arguments and
// must not modify them. A nil pred is refused at definition. To ask before
// every call:
//
//	tool.WithCheckIn(func(json.RawMessage) bool { return true })
func WithCheckIn(pred func(args json.RawMessage) bool) Option {
	return func(c *config) {
		if pred == nil {
			c.fail("checkIn", "the check-in predicate is nil", "pass a func deciding per call (one returning true asks every time)")
			return
		}
		c.checkIn = pred
		c.checkInSet = true
	}
}

// WithHiddenArguments names top-level arguments whose values the record and
// the answer never print: argument rows and typed answers show "REDACTED"
// in their place. Each name must be a property of the input schema and be
// listed once; a blank, unknown or repeated name is refused at definition.
func WithHiddenArguments(names ...string) Option {
	cp := append([]string(nil), names...)
	return func(c *config) {
		for i, n := range cp {
			if strings.TrimSpace(n) == "" {
				c.fail(fmt.Sprintf("hiddenArguments[%d]", len(c.hidden)+i), "the argument name is blank", "name a top-level argument of the input schema")
				return
			}
		}
		c.hidden = append(c.hidden, cp...)
	}
}
