// Units: the born-tracked context pieces, their constructors and options.

package inject

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"runtime"
	"unicode/utf16"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/internal/idchars"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Kind says what a unit is for. Its strings are wire facts.
type Kind string

// The unit kinds. KindRAG and KindMemory (retrieved.go) are built only by
// Passage; the word custom is reserved.
const (
	KindFact        Kind = "fact"
	KindSteering    Kind = "steering"
	KindInstruction Kind = "instruction"
	KindSkill       Kind = "skill"
)

// Slot says where a unit lands in the request.
type Slot string

// The two slots a unit can land in.
const (
	SlotSystem   Slot = "system"
	SlotMessages Slot = "messages"
)

// TriggerKind names how a unit decides to fire. Its strings are wire facts.
type TriggerKind string

// The trigger kinds.
const (
	TriggerAlways       TriggerKind = "always"
	TriggerRule         TriggerKind = "rule"
	TriggerOnToolReturn TriggerKind = "on-tool-return"
	TriggerLLMActivated TriggerKind = "llm-activated"
)

// Rule is a predicate over state with the label the record shows for it.
// When receives a reader that records every key it reads.
type Rule struct {
	Label string
	When  func(flow.Reader) bool
}

// Unit is one context piece. It is immutable once built and safe to share
// between agents and goroutines. Build one with Fact, Steering, Instruction
// or Skill, which refuse a malformed definition naming what is wrong; Must
// wraps one where the definition is known to be good.
type Unit struct {
	id       string
	kind     Kind
	text     string
	slot     Slot
	role     llm.Role
	trig     TriggerKind
	rule     Rule
	tools    []string
	toolRe   *regexp.Regexp
	priority int
	version  string
	skillTo  []string
	site     tool.Site
	hash     string
	chars    int
	err      error
	// retrieval is set on passage units (see Passage).
	retrieval Retrieval
}

// Option adjusts a unit at construction.
type Option func(*Unit)

// A unit id is a lower-case letter or a digit (idFirst), then lower-case letters, digits,
// '.', '_' or '-' (idRest), at most maxID bytes in all. idPattern says the same as a regular
// expression, for the error that refuses one.
var (
	idFirst = idchars.Of(idchars.Lower, idchars.Digits)
	idRest  = idchars.Of(idchars.Lower, idchars.Digits, "._-")
)

const (
	idPattern = `^[a-z0-9][a-z0-9._-]{0,63}$`
	maxID     = 64
)

// Fact states something the model should take as true. It lands in the
// system slot and fires always, unless a WithRule or WithToolReturn option
// says otherwise. It refuses an id that is not lower-case letters, digits,
// '.', '_' or '-' (at most 64), an empty text and a bad option, naming each.
func Fact(id, text string, opts ...Option) (*Unit, error) {
	return build(KindFact, id, text, TriggerAlways, Rule{}, opts).result()
}

// Steering shapes how the model behaves. It lands in the system slot and
// fires always unless an option says otherwise. It refuses what Fact
// refuses.
func Steering(id, text string, opts ...Option) (*Unit, error) {
	return build(KindSteering, id, text, TriggerAlways, Rule{}, opts).result()
}

// Instruction applies text only while rule holds. It refuses what Fact
// refuses, and a rule without a predicate.
func Instruction(id, text string, rule Rule, opts ...Option) (*Unit, error) {
	u := build(KindInstruction, id, text, TriggerRule, rule, opts)
	if u.err == nil && u.trig == TriggerRule && u.rule.When == nil {
		u.err = fmt.Errorf("inject: unit %q: rule: the predicate When is nil; give a func(flow.Reader) bool", id)
	}
	return u.result()
}

// Skill is a body of guidance the model loads on demand by calling the
// read_skill tool with the skill's id; tools names the tools the skill is
// about. Until loaded it is recorded as inactive. It refuses what Fact
// refuses.
func Skill(id, body string, tools ...string) (*Unit, error) {
	u := build(KindSkill, id, body, TriggerLLMActivated, Rule{}, nil)
	u.skillTo = append([]string(nil), tools...)
	return u.result()
}

// Must returns u, or panics with err: for units whose definition is known to
// be good, such as package-level literals.
//
//	var refunds = inject.Must(inject.Fact("refund-window", "Refunds are accepted for 30 days."))
func Must(u *Unit, err error) *Unit {
	if err != nil {
		panic(err)
	}
	return u
}

// result is the constructor's return: the unit, or its definition error.
func (u *Unit) result() (*Unit, error) {
	if u.err != nil {
		return nil, u.err
	}
	return u, nil
}

// WithRule makes the unit fire only while fn returns true on the state, and
// records label with the evidence.
func WithRule(label string, fn func(flow.Reader) bool) Option {
	return func(u *Unit) {
		u.trig = TriggerRule
		u.rule = Rule{Label: label, When: fn}
		if fn == nil {
			u.fail("rule: the predicate is nil; give a func(flow.Reader) bool")
		}
	}
}

// WithToolReturn makes the unit fire in the iteration right after a call to
// one of the named tools returned.
func WithToolReturn(names ...string) Option {
	return func(u *Unit) {
		u.trig = TriggerOnToolReturn
		u.tools = append([]string(nil), names...)
		if len(names) == 0 {
			u.fail("toolReturn: no tool names given")
		}
	}
}

// WithToolReturnMatching is WithToolReturn for the tools whose names match
// re.
func WithToolReturnMatching(re *regexp.Regexp) Option {
	return func(u *Unit) {
		u.trig = TriggerOnToolReturn
		u.toolRe = re
		if re == nil {
			u.fail("toolReturn: the pattern is nil")
		}
	}
}

// WithMessageSlot places the unit as a message of the given role (user or
// system) after the conversation instead of in the system prompt.
func WithMessageSlot(role llm.Role) Option {
	return func(u *Unit) {
		u.slot = SlotMessages
		u.role = role
		if role != llm.RoleUser && role != llm.RoleSystem {
			u.fail(fmt.Sprintf("messageSlot: role %q is not user or system", role))
		}
	}
}

// WithPriority orders units within a slot: higher first, ties in definition
// order. The default is 0.
func WithPriority(n int) Option { return func(u *Unit) { u.priority = n } }

// WithVersion labels the unit's wording, for the record.
func WithVersion(s string) Option { return func(u *Unit) { u.version = s } }

// WithCallerSkip moves the recorded definition site n frames further up the
// stack, for helpers that build units on their callers' behalf.
func WithCallerSkip(n int) Option {
	return func(u *Unit) {
		if n > 0 {
			u.site = callerSite(4 + n)
		}
	}
}

func build(kind Kind, id, text string, trig TriggerKind, rule Rule, opts []Option) *Unit {
	u := &Unit{id: id, kind: kind, text: text, slot: SlotSystem, trig: trig, rule: rule}
	u.site = callerSite(3)
	for _, o := range opts {
		if o != nil {
			o(u)
		}
	}
	sum := sha256.Sum256([]byte(text))
	u.hash = "sha256:" + hex.EncodeToString(sum[:])
	u.chars = len(utf16.Encode([]rune(text)))
	if !idchars.Valid(id, &idFirst, &idRest, maxID) {
		u.err = fmt.Errorf("inject: unit id %q: must match %s (lower-case letters, digits, '.', '_' or '-', at most 64)", id, idPattern)
	} else if text == "" && u.err == nil {
		u.err = fmt.Errorf("inject: unit %q: text is empty", id)
	}
	return u
}

func (u *Unit) fail(msg string) {
	if u.err == nil {
		u.err = fmt.Errorf("inject: unit %q: %s", u.id, msg)
	}
}

// callerSite returns the site skip frames above it (as runtime.Caller counts).
func callerSite(skip int) tool.Site {
	pc, file, line, ok := runtime.Caller(skip)
	if !ok {
		return tool.Site{}
	}
	s := tool.Site{File: file, Line: line}
	if fn := runtime.FuncForPC(pc); fn != nil {
		s.Function = fn.Name()
	}
	return s
}

// ID returns the unit's id: the name the record, the catalog and ablation know it by.
func (u *Unit) ID() string { return u.id }

// Definition is everything a unit was built with, as one plain value: what
// it is, where it lands, when it fires, its text with the hash the record
// proves it by, and the call site that built it. Which trigger fields are set
// depends on Trigger. A Definition is a copy; changing it changes no unit.
type Definition struct {
	ID   string
	Kind Kind
	// Text is the text exactly as it is sent; ContentHash is "sha256:" and
	// the hex SHA-256 of its UTF-8 bytes, Chars its length in UTF-16 units.
	Text        string
	ContentHash string
	Chars       int
	// Slot is where the unit lands; Role is the message role of a unit in
	// the messages slot (empty in the system slot).
	Slot Slot
	Role llm.Role
	// Priority orders the units of a slot, higher first.
	Priority int
	// Version labels the wording (WithVersion); empty when unset.
	Version string
	// Trigger says how the unit decides to fire. Rule is set for
	// TriggerRule; Tools and ToolPattern for TriggerOnToolReturn;
	// SkillTools (the tools a skill is about) for TriggerLLMActivated;
	// Retrieval (the retrieval a passage belongs to) for TriggerRetrieved.
	// ToolPattern is the unit's own compiled pattern, shared, not copied.
	Trigger     TriggerKind
	Rule        Rule
	Tools       []string
	ToolPattern *regexp.Regexp
	SkillTools  []string
	Retrieval   Retrieval
	// DefinedAt is where the unit's constructor was called, as the same
	// Site a tool records.
	DefinedAt tool.Site
}

// Definition returns the unit's definition. Only the fields of its trigger
// are set: an option that replaced the trigger leaves no trace of the old one.
func (u *Unit) Definition() Definition {
	d := Definition{
		ID: u.id, Kind: u.kind, Text: u.text, ContentHash: u.hash, Chars: u.chars,
		Slot: u.slot, Role: u.role, Priority: u.priority, Version: u.version,
		Trigger: u.trig, DefinedAt: u.site,
	}
	switch u.trig {
	case TriggerRule:
		d.Rule = u.rule
	case TriggerOnToolReturn:
		d.Tools, d.ToolPattern = append([]string(nil), u.tools...), u.toolRe
	case TriggerLLMActivated:
		d.SkillTools = append([]string(nil), u.skillTo...)
	case TriggerRetrieved:
		d.Retrieval = u.retrieval
	}
	return d
}
