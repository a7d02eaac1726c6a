// Ablation specs and the rebuilt agent: a copy of an
// agent's construction inputs with one suspect removed or forced in.

package explain

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Blueprint is what an agent is built from: its context units, its tools
// and every other option. The agent package keeps its options private, so
// ablation works on the inputs the caller built the agent with; Build turns
// a blueprint into an agent on any provider. Units added by an option (such
// as agent.WithSystemPrompt) are not removable.
type Blueprint struct {
	Units   []*inject.Unit
	Tools   []*tool.Tool
	Options []agent.Option
}

// Build returns an agent on p with the blueprint's inputs; extra options are
// applied last.
func (bp Blueprint) Build(p llm.Provider, extra ...agent.Option) (*agent.Agent, error) {
	opts := make([]agent.Option, 0, len(bp.Options)+2+len(extra))
	opts = append(opts, bp.Options...)
	if len(bp.Units) > 0 {
		opts = append(opts, agent.WithUnits(bp.Units...))
	}
	if len(bp.Tools) > 0 {
		opts = append(opts, agent.WithTools(bp.Tools...))
	}
	opts = append(opts, extra...)
	return agent.New(p, opts...)
}

// specKind names what a Spec changes. Its strings appear in reports.
type specKind string

// The spec kinds.
const (
	specUnit    specKind = "unit"
	specTool    specKind = "tool"
	specMessage specKind = "message"
	specForce   specKind = "force"
	specInput   specKind = "input"
)

// Spec is one change a rerun makes. Build one with Unit, Tool, Message,
// Force or Input (or read one back from its name with ParseSuspect); its
// String is that name. The zero Spec names nothing and Ablate refuses it.
type Spec struct {
	kind  specKind
	id    string
	index int
	value any
}

// Unit removes the context unit id from the rerun's catalog.
func Unit(id string) Spec { return Spec{kind: specUnit, id: id} }

// Tool stops offering the tool name.
func Tool(name string) Spec { return Spec{kind: specTool, id: name} }

// Message removes history message index from a continued conversation.
func Message(index int) Spec {
	return Spec{kind: specMessage, id: "history/" + strconv.Itoa(index), index: index}
}

// Force places the unit id whatever its trigger (a restoration probe).
func Force(id string) Spec { return Spec{kind: specForce, id: id} }

// Input overrides a run input; only "userMessage" (a string) is an input of
// an agent turn.
func Input(key string, value any) Spec { return Spec{kind: specInput, id: key, value: value} }

// String is the spec as reports print it, its Name, such as "unit:vip-override" or
// "message:3".
func (s Spec) String() string { return s.name() }

// UnknownSpecError refuses a spec naming something the agent does not have;
// Removable lists what could be named instead.
type UnknownSpecError struct {
	Spec      Spec
	Removable []string
	// Name is the name as the caller wrote it, when ParseSuspect read one ("" otherwise).
	Name string
}

// Error names the spec (as the caller wrote it, when known) and lists the removable names.
func (e *UnknownSpecError) Error() string {
	name := e.Name
	if name == "" {
		name = e.Spec.String()
	}
	return fmt.Sprintf("explain: %s names nothing this agent has; removable: %s", name, strings.Join(e.Removable, ", "))
}

// Ablate returns a copy of bp with specs applied. It refuses an unknown unit
// or tool id (listing the removable ones) and an input other than
// userMessage. Forcing "history/<i>" pins that message with agent.WithPinnedHistory
// so the rerun's window strategy sends it whatever it would have evicted
// (with no window every message is sent anyway, and the pin changes
// nothing). Message specs change the rerun's input, not the blueprint; Probe
// applies them. bp is not modified.
func Ablate(bp Blueprint, specs ...Spec) (Blueprint, error) {
	out := Blueprint{
		Units:   slices.Clone(bp.Units),
		Tools:   slices.Clone(bp.Tools),
		Options: slices.Clone(bp.Options),
	}
	for _, s := range specs {
		switch s.kind {
		case specUnit:
			i := slices.IndexFunc(out.Units, func(u *inject.Unit) bool { return u.ID() == s.id })
			if i < 0 {
				return Blueprint{}, &UnknownSpecError{Spec: s, Removable: removable(bp)}
			}
			out.Units = slices.Delete(out.Units, i, i+1)
		case specTool:
			i := slices.IndexFunc(out.Tools, func(t *tool.Tool) bool { return t.Name() == s.id })
			if i < 0 {
				return Blueprint{}, &UnknownSpecError{Spec: s, Removable: removable(bp)}
			}
			out.Tools = slices.Delete(out.Tools, i, i+1)
		case specForce:
			if i, ok := parseHistoryUnit(s.id); ok {
				out.Options = append(out.Options, agent.WithPinnedHistory(i))
				continue
			}
			i := slices.IndexFunc(out.Units, func(u *inject.Unit) bool { return u.ID() == s.id })
			if i < 0 {
				return Blueprint{}, &UnknownSpecError{Spec: s, Removable: removable(bp)}
			}
			f, err := forced(out.Units[i])
			if err != nil {
				return Blueprint{}, fmt.Errorf("explain: %s: %w", s, err)
			}
			out.Units[i] = f
		case specMessage:
			if s.index < 0 {
				return Blueprint{}, fmt.Errorf("explain: %s: a message index cannot be negative", s)
			}
		case specInput:
			if s.id != keyUserMessage {
				return Blueprint{}, fmt.Errorf("explain: %s: the only input of an agent turn is %q", s, keyUserMessage)
			}
			if _, ok := s.value.(string); !ok {
				return Blueprint{}, fmt.Errorf("explain: %s: the value must be a string", s)
			}
		case "":
			return Blueprint{}, errors.New("explain: an empty Spec names nothing to change; build one with Unit, Tool, Message, Force or Input")
		default:
			return Blueprint{}, fmt.Errorf("explain: unknown spec kind %q", s.kind)
		}
	}
	return out, nil
}

// removable lists the unit ids and tool names of bp.
func removable(bp Blueprint) []string {
	var ids []string
	for _, u := range bp.Units {
		ids = append(ids, "unit:"+u.ID())
	}
	for _, t := range bp.Tools {
		ids = append(ids, "tool:"+t.Name())
	}
	return ids
}

// forcedLabel is the rule label a forced unit is recorded with.
const forcedLabel = "forced by an explain restoration probe"

// forced rebuilds u so that it fires every iteration, keeping its id, text,
// slot, priority and version. A fact or an instruction keeps its kind; any
// other kind (a skill, a retrieved passage) has no always-on form, so it is
// forced in as a steering unit with the same text, and the rerun's record
// names it steering. Its definition site becomes this file, which the
// rerun's record shows honestly.
func forced(u *inject.Unit) (*inject.Unit, error) {
	d := u.Definition()
	opts := []inject.Option{inject.WithPriority(d.Priority)}
	if d.Version != "" {
		opts = append(opts, inject.WithVersion(d.Version))
	}
	if d.Slot == inject.SlotMessages {
		opts = append(opts, inject.WithMessageSlot(d.Role))
	}
	switch d.Kind {
	case inject.KindFact:
		return inject.Fact(u.ID(), d.Text, opts...)
	case inject.KindInstruction:
		return inject.Instruction(u.ID(), d.Text, inject.Rule{Label: forcedLabel, When: func(flow.Reader) bool { return true }}, opts...)
	default:
		return inject.Steering(u.ID(), d.Text, opts...)
	}
}

// rerunTurn is what a rerun sends: the turn's input and, for a continued
// conversation, the history it continues (nil for a first turn).
type rerunTurn struct {
	in    agent.Input
	prior []llm.Message
}

// rerunInput is the input of a rerun of rec with specs applied: the recorded
// user message (or its override) and, for a continued conversation, the
// earlier history minus any removed message.
func rerunInput(rec *rerunSource, specs []Spec) (rerunTurn, error) {
	var turn rerunTurn
	in := agent.Input{Message: rec.message}
	for _, s := range specs {
		if s.kind == specInput {
			in.Message = s.value.(string)
		}
	}
	var forcedMsg, removedMsg *Spec
	for k, s := range specs {
		switch {
		case s.kind == specMessage:
			removedMsg = &specs[k]
		case s.kind == specForce:
			i, ok := parseHistoryUnit(s.id)
			if !ok {
				continue
			}
			if i >= len(rec.prior) {
				return turn, fmt.Errorf("explain: %s: the run's earlier conversation has %d messages, and only those can be evicted", s, len(rec.prior))
			}
			forcedMsg = &specs[k]
		}
	}
	if forcedMsg != nil && removedMsg != nil {
		// Removing a message renumbers the ones after it, so the pinned
		// index would name another message.
		return turn, fmt.Errorf("explain: %s and %s cannot be probed together: removing a message renumbers the history the pin refers to", *removedMsg, *forcedMsg)
	}
	prior := slices.Clone(rec.prior)
	removed := 0
	for _, s := range specs {
		if s.kind != specMessage {
			continue
		}
		i := s.index - removed
		if s.index >= len(rec.prior) || i < 0 || i >= len(prior) {
			return turn, fmt.Errorf("explain: %s: the run's earlier conversation has %d messages", s, len(rec.prior))
		}
		prior = slices.Delete(prior, i, i+1)
		removed++
	}
	if len(rec.prior) > 0 {
		turn.prior = prior
	}
	turn.in = in
	return turn, nil
}

// rerunSource is what a rerun takes from the record.
type rerunSource struct {
	message string
	prior   []llm.Message
}
