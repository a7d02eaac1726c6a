// The context units pane: every fact, steering text, instruction and skill the
// agent defined, where it was defined, and why it fired (or did not) in each
// iteration, consecutive iterations with the same outcome shown as one line.

package lens

import (
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"strconv"
	"strings"
)

// unitView is one context unit.
type unitView struct {
	ID, Anchor, Kind, Slot, Trigger string
	Site, Function, Hash            string
	Text                            string
	Fold                            bool
	Preview                         string
	Outcomes                        []outcome
	Fired                           int

	tools []string // the tools an on-tool-return trigger waits for
}

// outcome is one stretch of iterations with the same result.
type outcome struct {
	Iterations string
	Fired      bool
	Mark       badge
	Why        string
	Where      string
	Contexts   string // the context stage ids of the stretch
}

// toolDef is a tool of the catalog with its definition site.
type toolDef struct {
	Name, Site, Function string
}

// unitsOf reads the catalog, every context commit's outcomes and the
// retrieval records those commits carry.
func unitsOf(rec *record.Record) ([]unitView, []toolDef, []retrievalView) {
	cat, _ := finalValue[[]inject.CatalogEntry](rec.Log, keyCatalog)
	var units []unitView
	var tools []toolDef
	index := map[string]int{}
	for _, e := range cat {
		site, fn := "", ""
		if d := e.DefinedAt; d != nil {
			site, fn = d.Place(), d.Function
		}
		if e.Kind == "tool" {
			tools = append(tools, toolDef{Name: strings.TrimPrefix(e.ID, "tool/"), Site: site, Function: fn})
			continue
		}
		u := unitView{ID: e.ID, Anchor: "unit-" + anchorID(e.ID), Kind: e.Kind, Slot: string(e.Slot), Site: site, Function: fn, Hash: short(e.ContentHash)}
		if t := e.Trigger; t != nil {
			u.Trigger = string(t.Kind)
			if t.Label != "" {
				u.Trigger += " “" + t.Label + "”"
			}
			if len(t.Tools) > 0 {
				u.Trigger += " (" + strings.Join(t.Tools, ", ") + ")"
				u.tools = t.Tools
			}
		}
		u.Text = e.Content
		if u.Text == "" && e.ContentRef != "" {
			if b, ok := rec.Blob(e.ContentRef); ok {
				u.Text = string(b)
			}
		}
		if len([]rune(u.Text)) > foldChars {
			u.Fold, u.Preview = true, preview(u.Text, previewRunes)
		}
		index[e.ID] = len(units)
		units = append(units, u)
	}
	type last struct {
		key  string
		from int
	}
	open := map[string]*last{}
	anchors := map[string]string{}
	for _, u := range units {
		anchors[u.ID] = u.Anchor
	}
	var rs retrievals
	if rec.Log != nil {
		for _, c := range rec.Log.Commits {
			if c.CommitDetail == nil || c.StageID != stageContext {
				continue
			}
			cu, _, ok := opValue[state.ContextUnits](c, keyContextUnits)
			if !ok {
				continue
			}
			rs.add(cu.Units, cu.Iteration, c.RuntimeStageID, anchors)
			for _, e := range cu.Units {
				i, ok := index[e.ID]
				if !ok {
					continue
				}
				o := outcomeOf(e, units[i].tools)
				key := fmt.Sprint(o.Fired, o.Why, o.Where)
				u := &units[i]
				if e.Active {
					u.Fired++
				}
				if l := open[e.ID]; l != nil && l.key == key && len(u.Outcomes) > 0 {
					lo := &u.Outcomes[len(u.Outcomes)-1]
					lo.Iterations = iterRange(l.from, cu.Iteration)
					lo.Contexts = firstWord(lo.Contexts) + " … " + c.RuntimeStageID
					continue
				}
				o.Iterations = iterRange(cu.Iteration, cu.Iteration)
				o.Contexts = c.RuntimeStageID
				u.Outcomes = append(u.Outcomes, o)
				open[e.ID] = &last{key: key, from: cu.Iteration}
			}
		}
	}
	return units, tools, rs.views
}

// outcomeOf says why a unit fired or not in one iteration, and where it went.
func outcomeOf(e inject.Entry, tools []string) outcome {
	o := outcome{Fired: e.Active}
	if e.Active {
		o.Mark = badge{"●", "fired", "b-ok", "the trigger fired"}
	} else {
		o.Mark = badge{"○", "did not fire", "b-none", "the trigger did not fire"}
	}
	t := e.Trigger
	var why []string
	switch t.Kind {
	case inject.TriggerAlways:
		why = append(why, "always on")
	case inject.TriggerRetrieved:
		why = append(why, retrievedWhy(t.Retrieval))
	default:
		w := string(t.Kind)
		if t.Label != "" {
			w += " “" + t.Label + "”"
		}
		if t.Matched != nil {
			w += fmt.Sprintf(" matched %t", *t.Matched)
		}
		why = append(why, w)
	}
	for _, r := range t.Reads {
		why = append(why, fmt.Sprintf("read %s ← %s", r.Key, r.Writer))
	}
	for _, m := range t.Matches {
		why = append(why, fmt.Sprintf("%s returned (%s, iteration %d)", m.ToolName, m.ToolCallID, m.Iteration))
	}
	if t.Kind == inject.TriggerOnToolReturn && len(t.Matches) == 0 && len(tools) > 0 {
		why = append(why, "no result from "+strings.Join(tools, " or ")+" in the previous batch")
	}
	if a := t.ActivatedBy; a != nil {
		why = append(why, fmt.Sprintf("loaded by %s in iteration %d", a.ToolCallID, a.Iteration))
	}
	if t.Error != "" {
		why = append(why, "predicate failed: "+t.Error)
	}
	o.Why = strings.Join(why, "; ")
	switch {
	case e.Placed != nil:
		o.Where = fmt.Sprintf("placed in the %s slot at position %d", e.Placed.Slot, e.Placed.Position)
	case e.Dropped != nil:
		o.Where = "dropped: " + e.Dropped.Reason
	}
	return o
}

// iterRange prints "iteration 3" or "iterations 1–200".
func iterRange(from, to int) string {
	if from == to {
		return "iteration " + strconv.Itoa(from)
	}
	return fmt.Sprintf("iterations %d–%d", from, to)
}

// firstWord is s up to its first space.
func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}
