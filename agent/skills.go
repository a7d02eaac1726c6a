// Skills: units the model loads on demand through the built-in read_skill
// tool. A skill is recorded as inactive until the model reads it; from the
// next iteration its body sits in the system prompt and the tools it names
// are offered.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// readSkillTool is the name of the tool an agent with skills offers so the
// model can load one.
const readSkillTool = "read_skill"

// skillTool builds read_skill for the agent's skills, or nil when it has none.
func skillTool(units []*inject.Unit) (*tool.Tool, error) {
	var ids []string
	var lines []string
	for _, u := range units {
		if d := u.Definition(); d.Kind == inject.KindSkill {
			ids = append(ids, u.ID())
			first, _, _ := strings.Cut(d.Text, "\n")
			lines = append(lines, fmt.Sprintf("%s: %s", u.ID(), first))
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	enum, _ := json.Marshal(ids)
	schema := json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","enum":` + string(enum) +
		`,"description":"the id of the skill to load"}},"required":["id"],"additionalProperties":false}`)
	desc := "Load a skill's guidance into your instructions before doing work it covers. Skills: " + strings.Join(lines, "; ")
	return tool.NewRaw(readSkillTool, desc, schema, func(ctx context.Context, args json.RawMessage) (any, error) {
		var in struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		return fmt.Sprintf("The skill %q is loaded: its guidance is part of your instructions from your next step on.", in.ID), nil
	})
}

// skillActivations finds the read_skill calls of the current turn that got a
// successful result, with the iteration that made them. The turn starts at
// the person's last message; each assistant message after it is one
// iteration.
func skillActivations(hist []llm.Message) map[string]inject.Activation {
	start := -1
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role == llm.RoleUser && hist[i].Content != wrapUpUserText {
			start = i
			break
		}
	}
	answered := map[string]bool{}
	for _, m := range hist[start+1:] {
		if m.Role == llm.RoleTool && m.ToolName == readSkillTool && !m.IsError {
			answered[m.ToolCallID] = true
		}
	}
	var out map[string]inject.Activation
	iter := 0
	for _, m := range hist[start+1:] {
		if m.Role != llm.RoleAssistant {
			continue
		}
		iter++
		for _, c := range m.ToolCalls {
			if c.Name != readSkillTool || !answered[c.ID] {
				continue
			}
			var in struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(c.Args, &in) != nil || in.ID == "" {
				continue
			}
			if out == nil {
				out = map[string]inject.Activation{}
			}
			if _, seen := out[in.ID]; !seen {
				out[in.ID] = inject.Activation{ToolCallID: c.ID, Iteration: iter}
			}
		}
	}
	return out
}

// offered reports whether tool name is offered given the context units of
// this iteration: a tool a skill names waits until one such skill is active.
func (a *Agent) offered(name string, cu state.ContextUnits) bool {
	gated := false
	for i, u := range a.cfg.units {
		d := u.Definition()
		if d.Kind != inject.KindSkill {
			continue
		}
		for _, t := range d.SkillTools {
			if t != name {
				continue
			}
			gated = true
			if i < len(cu.Units) && cu.Units[i].Active {
				return true
			}
		}
	}
	return !gated
}

func (a *Agent) hasSkills() bool {
	for _, u := range a.cfg.units {
		if u.Definition().Kind == inject.KindSkill {
			return true
		}
	}
	return false
}

// hasRetrieval reports whether a unit is a retrieval's passage, whose
// corpus declarations the context stage files.
func (a *Agent) hasRetrieval() bool {
	for _, u := range a.cfg.units {
		if u.Definition().Trigger == inject.TriggerRetrieved {
			return true
		}
	}
	return false
}
