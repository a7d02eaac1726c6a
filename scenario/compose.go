// This file holds composed scenarios: a file with named agents (each with its own agent
// options, tools and replies) and a compose section that arranges them, run offline as one
// composition (compose.New) with one record.

package scenario

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/compose"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Keys of a composed file and its parts, in documentation order.
var (
	composedKeys      = []string{"$schema", "name", "description", "agents", "compose", "limitsTravelWithTheAnswer", "turns", "expect"}
	composedAgentKeys = []string{"name", "agent", "tools", "replies", "agentTools"}
	agentToolKeys     = []string{"name", "description", "agent"}
	stepKinds         = []string{"agent", "sequence", "parallel", "loop", "conditional"}
	parallelKeys      = []string{"name", "limit", "branches", "merge"}
	branchKeys        = []string{"agent", "required"}
	mergeKeys         = []string{"agent", "join"}
	loopKeys          = []string{"name", "budget", "body", "untilContains"}
	conditionalKeys   = []string{"name", "routes"}
	routeKeys         = []string{"name", "contains", "step"}
)

// composedSpec is the composed part of a File.
type composedSpec struct {
	agents []namedAgent
	root   stepSpec
	limits bool
}

// namedAgent is one entry of agents: a single-agent file of its own (turns aside).
type namedAgent struct {
	path       string
	name       string
	file       *File
	agentTools []agentToolSpec
}

type agentToolSpec struct {
	path, name, desc, agent string
}

// stepSpec is one parsed compose step.
type stepSpec struct {
	path     string
	kind     string
	agent    string     // agent
	steps    []stepSpec // sequence; loop body (one); conditional route steps
	name     string     // parallel, loop, conditional
	limit    int
	branches []branchSpec
	merge    mergeSpec
	budget   int
	until    string
	routes   []routeSpec
}

type branchSpec struct {
	path     string
	agent    string
	required bool
}

type mergeSpec struct {
	agent string // a merge agent's name, or
	join  string // the separator a join merge puts between the branches' answers
}

type routeSpec struct {
	name     string
	contains string // "" for the default route
	step     stepSpec
}

// parseComposed reads a file with agents and a compose section.
func parseComposed(o wire.Object, dir string) (*File, error) {
	if err := checkKeys("", o, composedKeys); err != nil {
		return nil, err
	}
	f := &File{composed: &composedSpec{}}
	var err error
	for _, m := range o {
		switch m.Key {
		case "$schema":
			_, err = asString(m.Key, m.Value)
		case "name":
			f.name, err = asString(m.Key, m.Value)
		case "description":
			f.description, err = asString(m.Key, m.Value)
		case "agents":
			f.composed.agents, err = parseAgents(m.Key, m.Value, dir)
		case "compose":
			f.composed.root, err = parseStep(m.Key, m.Value)
		case "limitsTravelWithTheAnswer":
			f.composed.limits, err = asBool(m.Key, m.Value)
		case "turns":
			f.turns, err = parseTurns(m.Key, m.Value)
		case "expect":
			f.expect, err = parseExpect(m.Key, m.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(f.composed.agents) == 0 {
		return nil, fieldErr("agents", "missing: name at least one agent, such as [{\"name\": \"logs\", \"agent\": {…}, \"replies\": […]}]")
	}
	if len(f.turns) == 0 {
		return nil, fieldErr("turns", "missing: give at least one turn, such as [{\"user\": \"What is broken?\"}]")
	}
	if f.turns[0].resume != nil {
		return nil, fieldErr("turns[0].resume", "the first turn must be a user message: there is no pause to resume yet")
	}
	if err := f.composed.crossCheck(); err != nil {
		return nil, err
	}
	return f, nil
}

func parseAgents(path string, v any, dir string) ([]namedAgent, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]namedAgent, 0, len(arr))
	seen := map[string]string{}
	for i, e := range arr {
		p := index(path, i)
		o, err := asObject(p, e)
		if err != nil {
			return nil, err
		}
		if err := checkKeys(p, o, composedAgentKeys); err != nil {
			return nil, err
		}
		na := namedAgent{path: p}
		nv, ok := o.Get("name")
		if !ok {
			return nil, fieldErr(join(p, "name"), "missing: every agent has a name the compose section refers to")
		}
		if na.name, err = asString(join(p, "name"), nv); err != nil {
			return nil, err
		}
		if strings.TrimSpace(na.name) == "" {
			return nil, fieldErr(join(p, "name"), "empty: every agent has a name the compose section refers to")
		}
		if prev, ok := seen[na.name]; ok {
			return nil, fieldErr(join(p, "name"), "%q is already the name of %s", na.name, prev)
		}
		seen[na.name] = p
		// The agent, tools and replies are a single-agent file of their own.
		sub := wire.Object{{Key: "name", Value: na.name}}
		for _, m := range o {
			switch m.Key {
			case "agent", "tools", "replies":
				sub = append(sub, m)
			case "agentTools":
				if na.agentTools, err = parseAgentTools(join(p, "agentTools"), m.Value); err != nil {
					return nil, err
				}
			}
		}
		sub = append(sub, wire.Member{Key: "turns", Value: []any{wire.Object{{Key: "user", Value: "(asked by the composition)"}}}})
		if na.file, err = parseFile(sub, dir); err != nil {
			if fe, ok := err.(*FieldError); ok {
				return nil, fieldErr(join(p, fe.Path), "%s", fe.Problem)
			}
			return nil, err
		}
		out = append(out, na)
	}
	return out, nil
}

func parseAgentTools(path string, v any) ([]agentToolSpec, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	var out []agentToolSpec
	for i, e := range arr {
		p := index(path, i)
		o, err := asObject(p, e)
		if err != nil {
			return nil, err
		}
		if err := checkKeys(p, o, agentToolKeys); err != nil {
			return nil, err
		}
		at := agentToolSpec{path: p}
		for _, m := range o {
			switch m.Key {
			case "name":
				at.name, err = asString(join(p, m.Key), m.Value)
			case "description":
				at.desc, err = asString(join(p, m.Key), m.Value)
			case "agent":
				at.agent, err = asString(join(p, m.Key), m.Value)
			}
			if err != nil {
				return nil, err
			}
		}
		if at.name == "" || at.agent == "" {
			return nil, fieldErr(p, "an agent tool needs a name and the agent it asks")
		}
		if at.desc == "" {
			at.desc = "Ask the " + at.agent + " agent a question."
		}
		out = append(out, at)
	}
	return out, nil
}

// parseStep reads one compose step: an object with exactly one of the step kinds.
func parseStep(path string, v any) (stepSpec, error) {
	st := stepSpec{path: path}
	o, err := asObject(path, v)
	if err != nil {
		return st, err
	}
	if err := checkKeys(path, o, stepKinds); err != nil {
		return st, err
	}
	if len(o) != 1 {
		return st, fieldErr(path, "a step is one of %s, given as the only key", strings.Join(stepKinds, ", "))
	}
	m := o[0]
	p := join(path, m.Key)
	st.kind = m.Key
	switch m.Key {
	case "agent":
		st.agent, err = asString(p, m.Value)
	case "sequence":
		var arr []any
		if arr, err = asArray(p, m.Value); err != nil {
			return st, err
		}
		if len(arr) == 0 {
			return st, fieldErr(p, "empty: a sequence has at least one step")
		}
		for i, e := range arr {
			s, err := parseStep(index(p, i), e)
			if err != nil {
				return st, err
			}
			st.steps = append(st.steps, s)
		}
	case "parallel":
		err = st.parseParallel(p, m.Value)
	case "loop":
		err = st.parseLoop(p, m.Value)
	case "conditional":
		err = st.parseConditional(p, m.Value)
	}
	return st, err
}

func (st *stepSpec) parseParallel(p string, v any) error {
	o, err := asObject(p, v)
	if err != nil {
		return err
	}
	if err := checkKeys(p, o, parallelKeys); err != nil {
		return err
	}
	for _, m := range o {
		mp := join(p, m.Key)
		switch m.Key {
		case "name":
			st.name, err = asString(mp, m.Value)
		case "limit":
			st.limit, err = asInt(mp, m.Value, 0)
		case "branches":
			var arr []any
			if arr, err = asArray(mp, m.Value); err != nil {
				return err
			}
			for i, e := range arr {
				bp := index(mp, i)
				bo, err := asObject(bp, e)
				if err != nil {
					return err
				}
				if err := checkKeys(bp, bo, branchKeys); err != nil {
					return err
				}
				b := branchSpec{path: bp}
				for _, bm := range bo {
					switch bm.Key {
					case "agent":
						b.agent, err = asString(join(bp, bm.Key), bm.Value)
					case "required":
						b.required, err = asBool(join(bp, bm.Key), bm.Value)
					}
					if err != nil {
						return err
					}
				}
				st.branches = append(st.branches, b)
			}
		case "merge":
			var mo wire.Object
			if mo, err = asObject(mp, m.Value); err != nil {
				return err
			}
			if err := checkKeys(mp, mo, mergeKeys); err != nil {
				return err
			}
			if len(mo) != 1 {
				return fieldErr(mp, "give exactly one of agent (a merge agent's name) and join (the text between the branches' answers)")
			}
			if mo[0].Key == "agent" {
				st.merge.agent, err = asString(join(mp, "agent"), mo[0].Value)
			} else {
				st.merge.join, err = asString(join(mp, "join"), mo[0].Value)
				if err == nil && st.merge.join == "" {
					st.merge.join = "\n\n"
				}
			}
		}
		if err != nil {
			return err
		}
	}
	if len(st.branches) == 0 {
		return fieldErr(join(p, "branches"), "missing: a parallel has at least one branch")
	}
	if st.merge == (mergeSpec{}) {
		return fieldErr(join(p, "merge"), "missing: say how the branches' answers are merged, {\"agent\": \"lead\"} or {\"join\": \"\\n\\n\"}")
	}
	return nil
}

func (st *stepSpec) parseLoop(p string, v any) error {
	o, err := asObject(p, v)
	if err != nil {
		return err
	}
	if err := checkKeys(p, o, loopKeys); err != nil {
		return err
	}
	hasBody := false
	for _, m := range o {
		mp := join(p, m.Key)
		switch m.Key {
		case "name":
			st.name, err = asString(mp, m.Value)
		case "budget":
			st.budget, err = asInt(mp, m.Value, 1)
		case "untilContains":
			st.until, err = asString(mp, m.Value)
		case "body":
			var b stepSpec
			b, err = parseStep(mp, m.Value)
			st.steps, hasBody = []stepSpec{b}, true
		}
		if err != nil {
			return err
		}
	}
	if st.budget == 0 {
		return fieldErr(join(p, "budget"), "missing: a loop needs a budget, the most passes it may take, such as 3")
	}
	if !hasBody {
		return fieldErr(join(p, "body"), "missing: the step the loop repeats")
	}
	return nil
}

func (st *stepSpec) parseConditional(p string, v any) error {
	o, err := asObject(p, v)
	if err != nil {
		return err
	}
	if err := checkKeys(p, o, conditionalKeys); err != nil {
		return err
	}
	for _, m := range o {
		mp := join(p, m.Key)
		switch m.Key {
		case "name":
			st.name, err = asString(mp, m.Value)
		case "routes":
			var arr []any
			if arr, err = asArray(mp, m.Value); err != nil {
				return err
			}
			for i, e := range arr {
				rp := index(mp, i)
				ro, err := asObject(rp, e)
				if err != nil {
					return err
				}
				if err := checkKeys(rp, ro, routeKeys); err != nil {
					return err
				}
				var r routeSpec
				hasStep := false
				for _, rm := range ro {
					switch rm.Key {
					case "name":
						r.name, err = asString(join(rp, rm.Key), rm.Value)
					case "contains":
						r.contains, err = asString(join(rp, rm.Key), rm.Value)
					case "step":
						r.step, err = parseStep(join(rp, rm.Key), rm.Value)
						hasStep = true
					}
					if err != nil {
						return err
					}
				}
				if !hasStep {
					return fieldErr(join(rp, "step"), "missing: the step this route runs")
				}
				st.routes = append(st.routes, r)
			}
		}
		if err != nil {
			return err
		}
	}
	if len(st.routes) == 0 {
		return fieldErr(join(p, "routes"), "missing: a conditional has at least one route")
	}
	return nil
}

// crossCheck refuses names that do not resolve and agent tools that ask in a circle.
func (c *composedSpec) crossCheck() error {
	byName := map[string]*namedAgent{}
	var names []string
	for i := range c.agents {
		byName[c.agents[i].name] = &c.agents[i]
		names = append(names, c.agents[i].name)
	}
	known := "the agents are " + strings.Join(names, ", ")
	for _, a := range c.agents {
		for _, at := range a.agentTools {
			if byName[at.agent] == nil {
				return fieldErr(join(at.path, "agent"), "no agent named %q; %s", at.agent, known)
			}
		}
	}
	// A cycle of agent tools: depth-first, naming the circle.
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(n string, trail []string) error
	visit = func(n string, trail []string) error {
		switch state[n] {
		case 1:
			at := slices.Index(trail, n)
			return fieldErr(byName[trail[len(trail)-1]].path+".agentTools", "the agent tools ask in a circle: %s", strings.Join(append(trail[at:], n), " → "))
		case 2:
			return nil
		}
		state[n] = 1
		for _, at := range byName[n].agentTools {
			if err := visit(at.agent, append(trail, n)); err != nil {
				return err
			}
		}
		state[n] = 2
		return nil
	}
	for _, n := range names {
		if err := visit(n, nil); err != nil {
			return err
		}
	}
	var walk func(s stepSpec) error
	walk = func(s stepSpec) error {
		check := func(p, n string) error {
			if byName[n] == nil {
				return fieldErr(p, "no agent named %q; %s", n, known)
			}
			return nil
		}
		switch s.kind {
		case "agent":
			return check(join(s.path, "agent"), s.agent)
		case "parallel":
			for _, b := range s.branches {
				if err := check(join(b.path, "agent"), b.agent); err != nil {
					return err
				}
			}
			if s.merge.agent != "" {
				return check(join(s.path, "parallel.merge.agent"), s.merge.agent)
			}
		case "conditional":
			for _, r := range s.routes {
				if err := walk(r.step); err != nil {
					return err
				}
			}
		default:
			for _, st := range s.steps {
				if err := walk(st); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(c.root)
}

// build makes the agents (agent tools first, so an agent's tools exist before it) and the
// composition.
func (c *composedSpec) build(name string, rc *runConfig) (*compose.Composition, []*runTools, error) {
	built := map[string]*agent.Agent{}
	var rts []*runTools
	byName := map[string]*namedAgent{}
	for i := range c.agents {
		byName[c.agents[i].name] = &c.agents[i]
	}
	var agentNamed func(n string) (*agent.Agent, error)
	agentNamed = func(n string) (*agent.Agent, error) {
		if a, ok := built[n]; ok {
			return a, nil
		}
		na := byName[n]
		var extra []*tool.Tool
		for _, at := range na.agentTools {
			inner, err := agentNamed(at.agent)
			if err != nil {
				return nil, err
			}
			t, err := agent.AsTool(at.name, at.desc, inner)
			if err != nil {
				return nil, fmt.Errorf("scenario: %s: %w", at.path, err)
			}
			extra = append(extra, t)
		}
		rt := &runTools{next: map[string]int{}}
		rts = append(rts, rt)
		rcA := *rc
		if len(extra) > 0 {
			rcA.agentOpts = append(slices.Clone(rc.agentOpts), agent.WithTools(extra...))
		}
		a, err := na.file.newAgent(rt, &rcA)
		if err != nil {
			return nil, fmt.Errorf("scenario: %s: %w", na.path, err)
		}
		built[n] = a
		return a, nil
	}
	var step func(s stepSpec) (compose.Step, error)
	step = func(s stepSpec) (compose.Step, error) {
		switch s.kind {
		case "agent":
			a, err := agentNamed(s.agent)
			return compose.Call(s.agent, a), err
		case "sequence":
			var steps []compose.Step
			for _, st := range s.steps {
				x, err := step(st)
				if err != nil {
					return nil, err
				}
				steps = append(steps, x)
			}
			return compose.Sequence(steps...), nil
		case "parallel":
			opt := compose.ParallelOptions{Limit: s.limit}
			if s.merge.agent != "" {
				a, err := agentNamed(s.merge.agent)
				if err != nil {
					return nil, err
				}
				opt.MergeAgent = a
			} else {
				sep := s.merge.join
				opt.Merge = func(ctx context.Context, outs []compose.Outcome) (string, error) {
					var parts []string
					for _, o := range outs {
						if o.Error != "" {
							parts = append(parts, fmt.Sprintf("[%s] failed: %s", o.Agent, o.Error))
							continue
						}
						parts = append(parts, fmt.Sprintf("[%s] %s", o.Agent, o.Answer))
					}
					return strings.Join(parts, sep), nil
				}
			}
			var branches []compose.Step
			for _, b := range s.branches {
				a, err := agentNamed(b.agent)
				if err != nil {
					return nil, err
				}
				br := compose.Call(b.agent, a)
				if b.required {
					br = compose.Required(br)
				}
				branches = append(branches, br)
			}
			return compose.Parallel(s.name, opt, branches...), nil
		case "loop":
			body, err := step(s.steps[0])
			if err != nil {
				return nil, err
			}
			var until func(string) bool
			if s.until != "" {
				word := strings.ToLower(s.until)
				until = func(answer string) bool { return strings.Contains(strings.ToLower(answer), word) }
			}
			return compose.Loop(s.name, body, s.budget, until), nil
		case "conditional":
			var routes []compose.Route
			for _, r := range s.routes {
				x, err := step(r.step)
				if err != nil {
					return nil, err
				}
				routes = append(routes, compose.Route{Name: r.name, Step: x})
			}
			rs := s.routes
			router := func(ctx context.Context, msg string) (string, string, error) {
				low := strings.ToLower(msg)
				for _, r := range rs {
					if r.contains != "" && strings.Contains(low, strings.ToLower(r.contains)) {
						return r.name, fmt.Sprintf("the message contains %q", r.contains), nil
					}
				}
				for _, r := range rs {
					if r.contains == "" {
						return r.name, "no route's words are in the message; this is the default route", nil
					}
				}
				return "", "", fmt.Errorf("no route's words are in the message and no route is the default (a route without contains)")
			}
			return compose.Conditional(s.name, router, routes...), nil
		}
		return nil, fmt.Errorf("scenario: %s: unknown step %q", s.path, s.kind)
	}
	root, err := step(c.root)
	if err != nil {
		return nil, nil, err
	}
	comp, err := compose.New(name, root)
	if err != nil {
		return nil, nil, fmt.Errorf("scenario: compose: %w", err)
	}
	return comp, rts, nil
}

// runComposed plays a composed file's turns: the first runs the composition, a resume turn
// answers the inner pause it stopped on.
func runComposed(ctx context.Context, f *File, rc *runConfig) (*Report, error) {
	name := f.name
	if name == "" {
		name = "composition"
	}
	comp, rts, err := f.composed.build(name, rc)
	if err != nil {
		return nil, err
	}
	rep := &Report{Scenario: f.name, Description: f.description, Question: f.Question(), expect: f.expect}
	var last *compose.Result
	finish := func() *Report {
		for _, rt := range rts {
			rep.Problems = append(rep.Problems, rt.problems...)
		}
		if last != nil {
			rep.addEvidence(last.Record)
			rep.Record = last.Record
			ru := last.RollUp
			rep.RollUp = ru
			rep.Standing = last.Assessment
			rep.Limits = last.LimitsBlock
			for _, in := range ru.Inner {
				rep.Ledger = append(rep.Ledger, in.Findings...)
				rep.CoverageDeclared = append(rep.CoverageDeclared, in.Coverage...)
			}
			rep.Answer = last.Answer
			if f.composed.limits {
				rep.Answer = last.AnswerWithLimits
			}
		}
		rep.finishCalls()
		return rep
	}
	for i, t := range f.turns {
		var res *compose.Result
		switch {
		case i == 0:
			res, err = comp.Run(ctx, agent.Input{Message: t.user})
		case t.resume != nil:
			if last == nil || !last.Paused {
				return finish(), fieldErr(join(t.path, "resume"), "nothing is paused: the turn before ended with an answer")
			}
			res, err = comp.Resume(ctx, last.Checkpoint, t.resume)
		default:
			return finish(), fieldErr(join(t.path, "user"), "a composed scenario takes one user turn; later turns answer an inner pause with {\"resume\": …}")
		}
		if res != nil {
			last = res
			tr := TurnReport{User: t.user, Resume: t.resume, Answer: res.Answer, Paused: res.Paused, Pause: res.PauseData, RunID: res.RunID}
			rep.Turns = append(rep.Turns, tr)
			if res.Paused {
				rep.Paused = res.PauseData
			} else {
				rep.Paused = nil
			}
		}
		if err != nil {
			return finish(), &RunError{Turn: t.path, Err: err}
		}
	}
	return finish(), nil
}
