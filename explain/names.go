// This file holds the one vocabulary of suspect names: the name a backtrack prints for each
// suspect (Suspect.Name) is the name ablation takes back (ParseSuspect), so the top suspect
// of a chain can be tested by the name it was given.

package explain

import (
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"slices"
	"strconv"
	"strings"
)

// A suspect's name reads the same in both directions: "unit:<id>" for a context unit,
// "tool:<name>" for a result of a tool this turn called (removing it stops offering the
// tool, so every result of that tool goes), and "message:<i>" for message i of the earlier
// conversation the turn continued. It is Suspect.Name, a Spec's String, and what
// ParseSuspect reads.

// suspectName chooses the name of s; prior is how many history messages came from the
// earlier conversation.
func suspectName(s Suspect, prior int) string {
	if i, ok := parseHistoryUnit(s.Unit); ok {
		if i < prior {
			return Message(i).name()
		}
		if tc := s.Allowed.ToolCall; tc != nil && tc.Name != "" {
			return Tool(tc.Name).name()
		}
		return Message(i).name()
	}
	return Unit(s.Unit).name()
}

// name is the spec in the suspect vocabulary: "unit:<id>", "tool:<name>", "message:<i>",
// "force:<id>" or "input:<key>". ParseSuspect reads back all but the last, whose value
// the name cannot carry.
func (s Spec) name() string {
	if s.kind == specMessage {
		return string(specMessage) + ":" + strconv.Itoa(s.index)
	}
	return string(s.kind) + ":" + s.id
}

// priorLen is the number of history messages the turn's seed step carried in from an earlier
// conversation (all but the person's new message).
func priorLen(log *flow.Record) int {
	seeds := commitsOf(log, stageSeed)
	if len(seeds) == 0 {
		return 0
	}
	hist, _, err := valueAt[[]llm.Message](log, seeds[0], keyHistory)
	if err != nil || len(hist) <= 1 {
		return 0
	}
	return len(hist) - 1
}

// ParseSuspect reads one suspect name for a rerun of rec on bp. It takes every name a
// backtrack of rec prints (Suspect.Name), the raw "history/<i>" ids of the chain's JSON, a
// bare context-unit id, and "force:<id>" (place a unit, or pin history message i with
// "force:history/<i>"). A name that removes nothing bp or the record holds is an
// *UnknownSpecError listing every removable name.
func ParseSuspect(rec *record.Record, bp Blueprint, name string) (Spec, error) {
	if rec == nil || rec.Log == nil {
		return Spec{}, ErrNoRecord
	}
	prior := priorLen(rec.Log)
	unknown := func(sp Spec) error {
		return &UnknownSpecError{Spec: sp, Removable: removableNames(bp, prior), Name: name}
	}
	kind, id, hasKind := strings.Cut(name, ":")
	if !hasKind {
		kind, id = "", name
	}
	switch specKind(kind) {
	case specUnit:
		if !slices.Contains(removable(bp), "unit:"+id) {
			return Spec{}, unknown(Unit(id))
		}
		return Unit(id), nil
	case specTool:
		if !slices.Contains(removable(bp), "tool:"+id) {
			return Spec{}, unknown(Tool(id))
		}
		return Tool(id), nil
	case specMessage:
		n, err := strconv.Atoi(strings.TrimPrefix(id, "history/"))
		if err != nil || n < 0 {
			return Spec{}, fmt.Errorf("explain: %s: the message index is not a whole number", name)
		}
		if n >= prior {
			return Spec{}, unknown(Message(n))
		}
		return Message(n), nil
	case specForce:
		return Force(id), nil
	case "":
		if i, ok := parseHistoryUnit(id); ok {
			if i < prior {
				return Message(i), nil
			}
			ch, err := Backtrack(rec, Target{})
			if err == nil {
				for _, s := range ch.Suspects {
					if s.Unit == id {
						return ParseSuspect(rec, bp, s.Name)
					}
				}
			}
			return Spec{}, unknown(Spec{kind: specMessage, id: id, index: i})
		}
		if !slices.Contains(removable(bp), "unit:"+id) {
			return Spec{}, unknown(Unit(id))
		}
		return Unit(id), nil
	}
	return Spec{}, fmt.Errorf("explain: %s: unknown kind %q (want unit, tool, message or force; removable: %s)",
		name, kind, strings.Join(removableNames(bp, prior), ", "))
}

// removableNames lists what a rerun on bp can remove, in the suspect vocabulary: bp's units
// and tools, then the prior messages of the earlier conversation.
func removableNames(bp Blueprint, prior int) []string {
	names := removable(bp)
	for i := range prior {
		names = append(names, Message(i).name())
	}
	return names
}
