// This file turns a validated scenario into live parts: context units, scripted tools that
// serve their canned results, and the agent that runs them.

package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// buildUnit makes the context unit a unitSpec describes.
func buildUnit(u unitSpec) (*inject.Unit, error) {
	var opts []inject.Option
	if u.priority != 0 {
		opts = append(opts, inject.WithPriority(u.priority))
	}
	if u.version != "" {
		opts = append(opts, inject.WithVersion(u.version))
	}
	if u.slot == inject.SlotMessages {
		opts = append(opts, inject.WithMessageSlot(u.role))
	}
	if len(u.onToolReturn) > 0 {
		opts = append(opts, inject.WithToolReturn(u.onToolReturn...))
	}
	if u.when != nil && u.kind != inject.KindInstruction {
		opts = append(opts, inject.WithRule(u.when.label, u.when.eval))
	}
	switch u.kind {
	case inject.KindSteering:
		return inject.Steering(u.id, u.text, opts...)
	case inject.KindInstruction:
		return inject.Instruction(u.id, u.text, inject.Rule{Label: u.when.label, When: u.when.eval}, opts...)
	case inject.KindSkill:
		return inject.Skill(u.id, u.text, u.skillTools...)
	}
	return inject.Fact(u.id, u.text, opts...)
}

// eval decides the condition on state. It reads only through r, so the record sees the read.
func (c *condition) eval(r flow.Reader) bool {
	v, ok := r.Get(c.key)
	switch c.op {
	case "present":
		return ok == c.present
	case "contains":
		s, isStr := v.(string)
		return ok && isStr && strings.Contains(s, c.contains)
	case "atLeast":
		f, isNum := number(v)
		return ok && isNum && f >= c.atLeast
	case "equals":
		if !ok {
			return false
		}
		b, err := json.Marshal(v)
		return err == nil && jsonEqual(b, c.equals)
	}
	return false
}

// describe is the label a condition gets when the file gives none.
func (c *condition) describe() string {
	switch c.op {
	case "present":
		if c.present {
			return c.key + " is present"
		}
		return c.key + " is absent"
	case "contains":
		return fmt.Sprintf("%s contains %q", c.key, c.contains)
	case "atLeast":
		return fmt.Sprintf("%s is at least %v", c.key, c.atLeast)
	}
	return fmt.Sprintf("%s equals %s", c.key, c.equals)
}

func number(v any) (float64, bool) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	}
	return 0, false
}

// jsonEqual compares two JSON texts as values (key order and number spelling aside).
func jsonEqual(a, b []byte) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// matches reports whether every member of r.when equals the same member of args.
func (r canned) matches(args json.RawMessage) bool {
	var got map[string]json.RawMessage
	if json.Unmarshal(args, &got) != nil {
		return false
	}
	for _, m := range r.when {
		g, ok := got[m.Key]
		if !ok {
			return false
		}
		w, err := rawJSON(m.Value)
		if err != nil || !jsonEqual(w, g) {
			return false
		}
	}
	return true
}

// content is what a value, absent or described result hands to the agent.
func (r canned) content() (any, error) {
	switch r.kind {
	case "value":
		v := r.value
		if r.cover != nil {
			c, err := coverage.WrapData(v, r.cover)
			if err != nil {
				return nil, err
			}
			v = c
		}
		return tool.Result{Content: v, Status: r.status}, nil
	case "absent":
		a, err := coverage.AbsentData(r.decl)
		if err != nil {
			return nil, err
		}
		return tool.Result{Content: a}, nil
	case "described":
		s, err := coverage.DescribedData(r.decl)
		if err != nil {
			return nil, err
		}
		return tool.Result{Content: s}, nil
	}
	return nil, nil
}

// runTools is the canned-result bookkeeping of one run: how many call-order results each
// tool has served, and the calls that found no result.
type runTools struct {
	mu       sync.Mutex
	next     map[string]int
	problems []Mismatch
}

// build defines the scripted tool. With rt nil the tool is built only to be judged.
func (t toolSpec) build(rt *runTools) (*tool.Tool, error) {
	var opts []tool.Option
	if t.validation != "" {
		opts = append(opts, tool.WithValidation(t.validation))
	}
	if t.ceiling != nil {
		opts = append(opts, tool.WithResultCeiling(t.ceiling.MaxChars, t.ceiling.NarrowBy))
	}
	if t.rules != nil {
		opts = append(opts, tool.WithAskOrAssume(t.rules))
	}
	if t.period != nil {
		opts = append(opts, tool.WithPeriod(*t.period))
	}
	return tool.NewRaw(t.name, t.desc, t.schema, func(ctx context.Context, args json.RawMessage) (any, error) {
		if rt == nil {
			return nil, errors.New("scenario: this tool was built for checking only")
		}
		r, ok := rt.pick(t, args)
		if !ok {
			return nil, fmt.Errorf("the scenario has no canned result for this call of %s", t.name)
		}
		switch r.kind {
		case "error":
			return nil, errors.New(r.message)
		case "panic":
			panic(r.message)
		case "pause":
			return nil, tool.Pause(r.value)
		}
		return r.content()
	}, opts...)
}

// pick chooses the result for one call: the first result whose "when" matches the
// arguments, else the next result without "when", in call order.
func (rt *runTools) pick(t toolSpec, args json.RawMessage) (canned, bool) {
	for _, r := range t.results {
		if r.when != nil && r.matches(args) {
			return r, true
		}
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	n := rt.next[t.name]
	seen := 0
	for _, r := range t.results {
		if r.when != nil {
			continue
		}
		if seen == n {
			rt.next[t.name] = n + 1
			return r, true
		}
		seen++
	}
	rt.problems = append(rt.problems, Mismatch{
		Path:    join(t.path, "results"),
		Problem: fmt.Sprintf("a call of %s with arguments %s found no canned result (%d in call order, %d by arguments)", t.name, compact(args), len(t.results)-t.conditional, t.conditional),
	})
	return canned{}, false
}

func compact(b json.RawMessage) string {
	if len(b) == 0 {
		return "{}"
	}
	return string(b)
}

// newAgent builds the scenario's agent on a fresh scripted model, or on the provider
// WithProvider gave.
func (f *File) newAgent(rt *runTools, rc *runConfig) (*agent.Agent, error) {
	p, err := f.parts(rt, rc)
	if err != nil {
		return nil, err
	}
	opts := p.Options
	if len(p.Units) > 0 {
		opts = append(opts, agent.WithUnits(p.Units...))
	}
	if len(p.Tools) > 0 {
		opts = append(opts, agent.WithTools(p.Tools...))
	}
	opts = append(opts, rc.agentOpts...)
	a, err := agent.New(p.Provider, opts...)
	if err != nil {
		return nil, fmt.Errorf("scenario: the agent refused this scenario: %w", err)
	}
	return a, nil
}

// parts builds what newAgent assembles: the options other than units, tools and the
// caller's extra agent options (kept in the order the agent has always been given them),
// the units, the tools and the model.
func (f *File) parts(rt *runTools, rc *runConfig) (Parts, error) {
	opts := []agent.Option{}
	id := f.agent.id
	if id == "" {
		id = f.name
	}
	if id != "" {
		opts = append(opts, agent.WithID(id))
	}
	if f.agent.model != "" {
		opts = append(opts, agent.WithModel(f.agent.model))
	}
	if f.agent.systemPrompt != "" {
		opts = append(opts, agent.WithSystemPrompt(f.agent.systemPrompt))
	}
	if f.agent.maxIterations > 0 {
		opts = append(opts, agent.WithMaxIterations(f.agent.maxIterations))
	}
	if f.agent.wrapUp != nil {
		if !*f.agent.wrapUp {
			opts = append(opts, agent.WithoutWrapUp())
		}
	}
	if f.agent.temperature != nil {
		opts = append(opts, agent.WithTemperature(*f.agent.temperature))
	}
	if f.agent.maxTokens > 0 {
		opts = append(opts, agent.WithMaxTokens(f.agent.maxTokens))
	}
	if f.agent.resultsLayer {
		opts = append(opts, agent.WithResultsLayer())
	}
	if f.agent.limits {
		opts = append(opts, agent.WithLimitsBlock())
	}
	if ts := f.agent.time; ts != nil {
		opts = append(opts, agent.WithTimeLayer(ts.zone))
		if !ts.now.IsZero() {
			// The scenario takes place at its now: the agent's clock starts there and
			// advances with real time, so stamps and drifts agree with the run's clock.
			start := time.Now()
			opts = append(opts, agent.WithClock(func() time.Time { return ts.now.Add(time.Since(start)) }))
		}
	}
	units := make([]*inject.Unit, 0, len(f.agent.units))
	for _, u := range f.agent.units {
		unit, err := buildUnit(u) // checked when the file was parsed
		if err != nil {
			return Parts{}, fmt.Errorf("scenario: unit %q: %w", u.id, err)
		}
		units = append(units, unit)
	}
	passages, err := f.retrievalUnits(context.Background())
	if err != nil {
		return Parts{}, err
	}
	units = append(units, passages...)
	tools := make([]*tool.Tool, 0, len(f.tools))
	declared := map[string]bool{}
	for _, t := range f.tools {
		declared[t.name] = true
		if own, ok := rc.own(t.name); ok {
			tools = append(tools, own)
			continue
		}
		tl, err := t.build(rt)
		if err != nil {
			return Parts{}, fieldErr(t.path, "%v", err)
		}
		tools = append(tools, tl)
	}
	for _, own := range rc.tools {
		if !declared[own.Name()] {
			tools = append(tools, own)
		}
	}
	var provider llm.Provider = scripted.New(f.replies...)
	if rc.provider != nil {
		provider = rc.provider
	}
	provider = withTimeout(provider, rc.timeout)
	return Parts{Units: units, Tools: tools, Options: opts, Provider: provider}, nil
}
