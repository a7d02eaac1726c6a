// Layers as values: each honesty layer (inputs, time, results, limits block,
// typed answer) is one value with a name, the layers it needs and the layers
// it must follow. New puts the armed layers in their declared order and
// collects the seams each one implements; the chart calls every seam's
// implementers in that order. A plain agent has no layer, so it runs the
// chart seed → context → call-llm → sf-route → … with no extra node, key,
// event or byte.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// The layer names, as Agent.Layers reports them.
const (
	layerInputs  = "inputs"
	layerTime    = "time"
	layerResults = "results"
	layerLimits  = "limits"
	layerOutput  = "output"
)

// layer is one honesty layer. A layer implements any of the seam interfaces
// below; the agent calls each seam's implementers in layer order.
type layer interface {
	// name is the layer's name, unique per agent.
	name() string
	// requires names the layers this one needs on the chart (the inputs
	// layer files its rows on the results layer's ledger); New adds them.
	requires() []string
	// after names the layers that, when armed, come before this one at
	// every seam.
	after() []string
	// arm prepares the layer once every option ran and the tools and units
	// are checked. It may read the layers before it through c.layer.
	arm(c *config) error
}

// The seams: the places in the chart where a layer plugs in. Each is a small
// interface a layer implements or not.
type (
	// keyDeclarer declares the state keys the layer writes.
	keyDeclarer interface{ keys() []flow.KeyDecl }
	// headMounter mounts a subflow at the loop head, before context, so
	// every back-edge lands on it.
	headMounter interface{ headMount() layerMount }
	// preRouteMounter mounts a subflow between call-llm and sf-route.
	preRouteMounter interface{ preRouteMount() layerMount }
	// seeder runs at the end of the seed stage; from is the conversation
	// the turn continues, or nil. An error fails the seed stage (its writes
	// still commit).
	seeder interface {
		seed(s *flow.Scope, from *conversationCheckpoint) error
	}
	// runSeeder runs after every seeder, with the run's context.
	runSeeder interface {
		seedRun(ctx context.Context, s *flow.Scope) error
	}
	// requestShaper runs last in building each model request (request
	// only, never history). It may append to req.Messages and change the
	// entries of req.Tools, but never assigns them a slice of its own: the
	// request's buffers are reused by the next call and the next run
	// (runScratch).
	requestShaper interface {
		shapeRequest(s *flow.Scope, req *llm.Request)
	}
	// batchAsker is tool-calls' first act: a pause with the batch's one
	// question, or nil to run the batch; batchAnswer resumes such a pause
	// (handled is false for any other pause); argumentRound is the
	// resume's first step, before the chart runs. One layer at most.
	batchAsker interface {
		batchAsk(ctx context.Context, s *flow.Scope, b *batch) *flow.Pause
		batchAnswer(ctx context.Context, s *flow.Scope, b *batch, input json.RawMessage) (handled bool, err error)
		argumentRound(cp *pauseCheckpoint, input json.RawMessage) (*Result, *pauseCheckpoint, json.RawMessage, error)
	}
	// pauseRefuser returns a sentence added to the refusal of a call that
	// asked a second pause while its batch was resuming, or "".
	pauseRefuser interface {
		pauseRefused(s *flow.Scope, c llm.ToolCall) string
	}
	// resumer runs first in a resumed leg.
	resumer interface {
		resumed(ctx context.Context, s *flow.Scope)
	}
	// resultNoter returns text appended after an executed call's served
	// content, or "".
	resultNoter interface {
		resultNote(s *flow.Scope, c llm.ToolCall) string
	}
	// argFiller is dispatch's fill step: the arguments to validate and run,
	// on a fresh object, or a refusal served as the result.
	argFiller interface {
		fillArgs(s *flow.Scope, c llm.ToolCall, t *tool.Tool, args json.RawMessage) (json.RawMessage, string)
	}
	// callTimer is dispatch's time step: the clock handed to the tool and
	// the arguments to run. One layer at most.
	callTimer interface {
		callTime(s *flow.Scope, c llm.ToolCall, args json.RawMessage) (*tool.CallTime, json.RawMessage)
	}
	// batchFinisher runs when a batch completes, before iteration += 1.
	batchFinisher interface {
		batchDone(s *flow.Scope, iteration int)
	}
	// finalPreparer runs in prepare-final before finalContent is written.
	finalPreparer interface {
		prepareFinal(s *flow.Scope, f *finalDraft) error
	}
	// ledgerExporter returns the findings ledger a conversation checkpoint
	// carries, read from the run's record. One layer at most.
	ledgerExporter interface {
		exportLedger(rec *flow.Record) json.RawMessage
	}
)

// finalDraft is the answer as prepare-final builds it: the model's reply,
// the answer so far (a limits block attached) and the notes turn_end
// carries.
type finalDraft struct {
	reply  string
	answer string
	notes  finalNotes
	// standing is the results layer's fold, kept for the Result.
	standing *assess.Assessment
}

// finalNotes are what armed layers add to turn_end: the standing (results
// layer) and the answer's coverage (typed answers with the limits block).
type finalNotes struct {
	Assessment     json.RawMessage
	AnswerCoverage json.RawMessage
}

// layerMount is one layer subflow mounted on the agent chart.
type layerMount struct {
	id    string
	chart *flow.Chart
	mount flow.Mount
}

// seams are the armed layers' seam implementers, in layer order.
type seams struct {
	names       []string
	keys        []flow.KeyDecl
	headMounts  []layerMount
	preRoute    []layerMount
	seed        []seeder
	seedRun     []runSeeder
	shape       []requestShaper
	ask         batchAsker
	pauseRefuse []pauseRefuser
	resumed     []resumer
	note        []resultNoter
	fill        []argFiller
	callTime    callTimer
	batchDone   []batchFinisher
	final       []finalPreparer
	ledger      ledgerExporter
}

// addLayer registers l, refusing a second layer of the same name unless
// both are the same plain switch (WithResultsLayer twice is harmless).
func (c *config) addLayer(l layer) {
	for _, have := range c.layers {
		if have.name() == l.name() {
			if _, plain := l.(interface{ plain() }); !plain {
				c.errs = append(c.errs, fmt.Errorf("agent: the %s layer is configured twice; configure it once", l.name()))
			}
			return
		}
	}
	c.layers = append(c.layers, l)
}

// layer returns the armed layer named n, or nil.
func (c *config) layer(n string) layer {
	for _, l := range c.layers {
		if l.name() == n {
			return l
		}
	}
	return nil
}

// has reports whether the layer named n is armed.
func (c *config) has(n string) bool { return c.layer(n) != nil }

// armLayers completes the layer set (layers the tools' declarations arm, and
// the layers the armed ones require), orders it, arms each layer in order
// and collects the seams.
func armLayers(c *config) (seams, error) {
	for _, l := range implicitLayers(c) {
		if !c.has(l.name()) {
			c.layers = append(c.layers, l)
		}
	}
	for i := 0; i < len(c.layers); i++ {
		for _, n := range c.layers[i].requires() {
			if c.has(n) {
				continue
			}
			l, ok := newLayer(n)
			if !ok {
				return seams{}, fmt.Errorf("agent: the %s layer needs the %s layer, which has no default; configure it", c.layers[i].name(), n)
			}
			c.layers = append(c.layers, l)
		}
	}
	ordered, err := orderLayers(c.layers)
	if err != nil {
		return seams{}, err
	}
	c.layers = ordered
	for _, l := range c.layers {
		if err := l.arm(c); err != nil {
			return seams{}, err
		}
	}
	return collectSeams(c.layers)
}

// implicitLayers are the layers the registered tools' declarations arm
// without an option: a period argument (tool.WithPeriod) arms the results
// layer, ask-or-assume rules (tool.WithAskOrAssume) the inputs layer.
func implicitLayers(c *config) []layer {
	var out []layer
	for _, t := range c.tools {
		if t == nil {
			continue
		}
		if len(t.Declaration().AskOrAssume) > 0 && !slices.ContainsFunc(out, func(l layer) bool { return l.name() == layerInputs }) {
			out = append(out, &inputsLayer{})
		}
		if t.Declaration().Period != nil && !slices.ContainsFunc(out, func(l layer) bool { return l.name() == layerResults }) {
			out = append(out, &resultsLayer{})
		}
	}
	return out
}

// newLayer is a required layer with its defaults; ok is false for a layer
// that needs configuring (time, typed answer).
func newLayer(n string) (layer, bool) {
	switch n {
	case layerResults:
		return &resultsLayer{}, true
	case layerInputs:
		return &inputsLayer{}, true
	case layerLimits:
		return &limitsLayer{}, true
	}
	return nil, false
}

// orderLayers sorts ls so every layer follows the armed layers it names in
// after; among layers free to go either way, registration order stands. A
// cycle is refused naming the layers.
func orderLayers(ls []layer) ([]layer, error) {
	out := make([]layer, 0, len(ls))
	placed := map[string]bool{}
	armed := map[string]bool{}
	for _, l := range ls {
		armed[l.name()] = true
	}
	for len(out) < len(ls) {
		progressed := false
		for _, l := range ls {
			if placed[l.name()] {
				continue
			}
			ready := true
			for _, dep := range l.after() {
				if armed[dep] && !placed[dep] {
					ready = false
					break
				}
			}
			if ready {
				out = append(out, l)
				placed[l.name()] = true
				progressed = true
				break
			}
		}
		if !progressed {
			var left []string
			for _, l := range ls {
				if !placed[l.name()] {
					left = append(left, l.name())
				}
			}
			return nil, fmt.Errorf("agent: the layers %s each wait for another; their order cannot be decided", strings.Join(left, ", "))
		}
	}
	return out, nil
}

// collectSeams gathers each layer's seams in order. A seam one layer at most
// may own (the batch question, the call's clock, the ledger export) is
// refused when a second layer implements it, naming both: no layer can
// silently replace another.
func collectSeams(ls []layer) (seams, error) {
	var sm seams
	owners := map[string]string{}
	own := func(seam, by string) error {
		if prev, ok := owners[seam]; ok {
			return fmt.Errorf("agent: the %s and %s layers both provide the %s step; only one layer may", prev, by, seam)
		}
		owners[seam] = by
		return nil
	}
	for _, l := range ls {
		n := l.name()
		sm.names = append(sm.names, n)
		if x, ok := l.(keyDeclarer); ok {
			sm.keys = append(sm.keys, x.keys()...)
		}
		if x, ok := l.(headMounter); ok {
			sm.headMounts = append(sm.headMounts, x.headMount())
		}
		if x, ok := l.(preRouteMounter); ok {
			sm.preRoute = append(sm.preRoute, x.preRouteMount())
		}
		if x, ok := l.(seeder); ok {
			sm.seed = append(sm.seed, x)
		}
		if x, ok := l.(runSeeder); ok {
			sm.seedRun = append(sm.seedRun, x)
		}
		if x, ok := l.(requestShaper); ok {
			sm.shape = append(sm.shape, x)
		}
		if x, ok := l.(batchAsker); ok {
			if err := own("batch question", n); err != nil {
				return seams{}, err
			}
			sm.ask = x
		}
		if x, ok := l.(pauseRefuser); ok {
			sm.pauseRefuse = append(sm.pauseRefuse, x)
		}
		if x, ok := l.(resumer); ok {
			sm.resumed = append(sm.resumed, x)
		}
		if x, ok := l.(resultNoter); ok {
			sm.note = append(sm.note, x)
		}
		if x, ok := l.(argFiller); ok {
			sm.fill = append(sm.fill, x)
		}
		if x, ok := l.(callTimer); ok {
			if err := own("call clock", n); err != nil {
				return seams{}, err
			}
			sm.callTime = x
		}
		if x, ok := l.(batchFinisher); ok {
			sm.batchDone = append(sm.batchDone, x)
		}
		if x, ok := l.(finalPreparer); ok {
			sm.final = append(sm.final, x)
		}
		if x, ok := l.(ledgerExporter); ok {
			if err := own("ledger export", n); err != nil {
				return seams{}, err
			}
			sm.ledger = x
		}
	}
	return sm, nil
}

// Layers returns the names of the agent's armed layers in the order their
// steps run (for example [inputs time results limits]); nil for a plain
// agent.
func (a *Agent) Layers() []string { return slices.Clone(a.seams.names) }

// The chart's calls into the seams.

func (sm *seams) runSeed(ctx context.Context, s *flow.Scope, from *conversationCheckpoint) error {
	for _, x := range sm.seed {
		if err := x.seed(s, from); err != nil {
			return err
		}
	}
	for _, x := range sm.seedRun {
		if err := x.seedRun(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

func (sm *seams) shapeRequest(s *flow.Scope, req *llm.Request) {
	for _, x := range sm.shape {
		x.shapeRequest(s, req)
	}
}

func (sm *seams) runResumed(ctx context.Context, s *flow.Scope) {
	for _, x := range sm.resumed {
		x.resumed(ctx, s)
	}
}

func (sm *seams) pauseRefused(s *flow.Scope, c llm.ToolCall) string {
	var b strings.Builder
	for _, x := range sm.pauseRefuse {
		b.WriteString(x.pauseRefused(s, c))
	}
	return b.String()
}

func (sm *seams) resultNote(s *flow.Scope, c llm.ToolCall) string {
	var b strings.Builder
	for _, x := range sm.note {
		b.WriteString(x.resultNote(s, c))
	}
	return b.String()
}

// fillArgs runs the fill steps in order; the first refusal stops the call.
func (sm *seams) fillArgs(s *flow.Scope, c llm.ToolCall, t *tool.Tool, args json.RawMessage) (json.RawMessage, string) {
	for _, x := range sm.fill {
		var refusal string
		if args, refusal = x.fillArgs(s, c, t, args); refusal != "" {
			return args, refusal
		}
	}
	return args, ""
}

func (sm *seams) runBatchDone(s *flow.Scope, iteration int) {
	for _, x := range sm.batchDone {
		x.batchDone(s, iteration)
	}
}

// prepareFinal runs the final steps in order on the model's reply.
func (sm *seams) prepareFinal(s *flow.Scope, reply string) (string, finalNotes, *assess.Assessment, error) {
	f := &finalDraft{reply: reply, answer: reply}
	for _, x := range sm.final {
		if err := x.prepareFinal(s, f); err != nil {
			return reply, f.notes, nil, err
		}
	}
	return f.answer, f.notes, f.standing, nil
}
