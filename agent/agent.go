// The Agent: construction, options and event subscription.

package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/internal/eventbus"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// defaultMaxIterations is the step budget of an agent built without
// WithMaxIterations.
const defaultMaxIterations = 10

// Agent is the configuration of an agent: a model, its tools, its context
// units and its layers. It holds no conversation state, so one Agent is
// shared by every user and goroutine: each conversation (NewConversation,
// LoadConversation) and each Run owns its own execution, state and record.
// Between runs it keeps only spare buffers for building model requests and
// their span lists, cleared of every run's messages, and what the last run
// used of its buffers (how many events, blobs, blob bytes, spans and
// digests), which sizes the next run's.
type Agent struct {
	provider llm.Provider
	cfg      config
	tools    map[string]*tool.Tool
	order    []string
	chart    *flow.Chart
	// runOpts are the options every run of the chart takes (runOptions).
	runOpts  []flow.RunOption
	loopHead string
	// structureJSON is the chart's structure as every record carries it.
	structureJSON json.RawMessage
	// toolEntries are the tools' catalog entries without their definition
	// sites, made once (a tool's name and schema never change after New).
	toolEntries []inject.CatalogEntry
	seams       seams
	warn        *devWarnings
	d           eventbus.Dispatcher
	// scratch holds *runScratch buffers between runs (runState.scratch).
	scratch sync.Pool
	// sizes is what the last finished run used of its buffers; it only
	// sizes the next run's (runSizes).
	sizes runSizes
}

type config struct {
	id           string
	model        string
	tools        []*tool.Tool
	units        []*inject.Unit
	maxIter      int
	wrapUp       bool
	capture      record.Capture
	temperature  *float64
	maxTokens    int
	recordEvents bool
	// maxResultChars is the operator's cap on served tool results (0: none).
	maxResultChars int
	now            func() time.Time
	// ownClock is set by WithClock: every reading then goes through now.
	ownClock bool
	errs     []error
	// logger receives the developer warnings (WithLogger); nil for none.
	logger *slog.Logger

	// layers are the honesty layers the options asked for; New adds the
	// ones the tools' declarations arm and puts them in order (layers.go).
	layers []layer
	// window holds what WithWindow and WithPinnedHistory asked (window.go).
	window windowConfig
	// parallel holds what WithParallelTools asked (dispatch_parallel.go).
	parallel parallelConfig
}

// Option configures an Agent at construction.
type Option func(*config)

// WithID names the agent in the record's manifest and in event meta.
func WithID(id string) Option { return func(c *config) { c.id = id } }

// WithModel sets the model name sent with every request (empty lets the
// provider choose its default).
func WithModel(model string) Option { return func(c *config) { c.model = model } }

// WithTools offers tools to the model. Names must be unique across calls.
func WithTools(tools ...*tool.Tool) Option {
	return func(c *config) { c.tools = append(c.tools, tools...) }
}

// WithUnits adds context units (facts, steering, instructions, skills).
// Ids must be unique per agent.
func WithUnits(units ...*inject.Unit) Option {
	return func(c *config) { c.units = append(c.units, units...) }
}

// WithSystemPrompt adds text to the system prompt as a steering unit with id
// "system-prompt", recorded like any other unit.
func WithSystemPrompt(text string) Option {
	u, err := inject.Steering("system-prompt", text, inject.WithCallerSkip(1))
	return func(c *config) {
		if err != nil {
			c.errs = append(c.errs, fmt.Errorf("agent: WithSystemPrompt: %w", err))
			return
		}
		c.units = append(c.units, u)
	}
}

// WithMaxIterations sets the step budget (default 10, minimum 1): at most n
// model calls may ask for tools before the wrap-up call. There is no upper
// cap; a budget above 100 is a developer warning (see WithLogger).
func WithMaxIterations(n int) Option {
	return func(c *config) {
		c.maxIter = n
		if n < 1 {
			c.errs = append(c.errs, fmt.Errorf("agent: maxIterations %d: must be at least 1", n))
		}
	}
}

// WithoutWrapUp turns off the wrap-up call (one last model call once the
// step budget is spent, with the tools declared and none allowed). Without it, a turn whose budget is
// spent with calls pending ends with the last reply's content, and
// stoppedEarly records the cut.
func WithoutWrapUp() Option { return func(c *config) { c.wrapUp = false } }

// WithCapture sets the request-bytes capture policy (record.CaptureFull by default).
func WithCapture(p record.Capture) Option {
	return func(c *config) {
		c.capture = p
		if p != record.CaptureFull && p != record.CaptureHashOnly {
			c.errs = append(c.errs, fmt.Errorf("agent: capture %q: want %q or %q", p, record.CaptureFull, record.CaptureHashOnly))
		}
	}
}

// WithTemperature sets the sampling temperature sent with every request.
func WithTemperature(t float64) Option { return func(c *config) { c.temperature = &t } }

// WithMaxTokens sets the reply length limit sent with every request.
func WithMaxTokens(n int) Option { return func(c *config) { c.maxTokens = n } }

// WithoutEventLog leaves the events out of the run record (they are kept by
// default). Kept events are built even with no listener; leaving them out
// restores the no-listener fast path, where an event nobody hears is not
// built.
func WithoutEventLog() Option { return func(c *config) { c.recordEvents = false } }

// WithClock sets the clock used for event times, durations and checkpoint
// stamps. By default the system clock is read once at a run's start, and
// each later time is that start plus the monotonic time since: a run's
// event times never go backwards, even when the system clock is set back
// during the run.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.now, c.ownClock = now, now != nil }
}

// New builds an agent on provider. It refuses a nil provider, a nil or
// duplicate tool, a malformed or duplicate unit and bad option values, naming
// each; every problem is reported at once.
func New(provider llm.Provider, opts ...Option) (*Agent, error) {
	cfg := config{id: "agent", maxIter: defaultMaxIterations, wrapUp: true, capture: record.CaptureFull, recordEvents: true, now: time.Now}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	errs := append([]error(nil), cfg.errs...)
	if provider == nil {
		errs = append(errs, errors.New("agent: provider is nil"))
	}
	if cfg.now == nil {
		cfg.now = time.Now
	}
	a := &Agent{provider: provider, cfg: cfg, tools: map[string]*tool.Tool{}, warn: newDevWarnings(cfg.logger)}
	for i, t := range cfg.tools {
		if t == nil {
			errs = append(errs, fmt.Errorf("agent: tools[%d] is nil", i))
			continue
		}
		if _, dup := a.tools[t.Name()]; dup {
			errs = append(errs, fmt.Errorf("agent: tools[%d]: a tool named %q is already registered", i, t.Name()))
			continue
		}
		a.tools[t.Name()] = t
		a.order = append(a.order, t.Name())
	}
	seen := map[string]bool{}
	var units []*inject.Unit
	for i, u := range cfg.units {
		switch {
		case u == nil:
			errs = append(errs, fmt.Errorf("agent: units[%d] is nil", i))
		case seen[u.ID()]:
			errs = append(errs, fmt.Errorf("agent: units[%d]: the id %q is already used by another unit", i, u.ID()))
		default:
			seen[u.ID()] = true
			units = append(units, u)
		}
	}
	a.cfg.units = units
	if st, err := skillTool(units); err != nil {
		errs = append(errs, fmt.Errorf("agent: building %s: %w", readSkillTool, err))
	} else if st != nil {
		if _, dup := a.tools[readSkillTool]; dup {
			errs = append(errs, fmt.Errorf("agent: a tool named %q is registered, but that name is kept for loading skills", readSkillTool))
		} else {
			a.tools[readSkillTool] = st
			a.order = append(a.order, readSkillTool)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sm, err := armLayers(&a.cfg)
	if err != nil {
		return nil, err
	}
	a.seams = sm
	chart, head, err := buildChart(a)
	if err != nil {
		return nil, fmt.Errorf("agent: building the chart: %w", err)
	}
	a.chart, a.loopHead = chart, head
	a.runOpts = []flow.RunOption{
		flow.WithVisitLimit(a.cfg.maxIter*2 + 10),
		flow.WithClock(func() time.Time { return a.cfg.now().UTC() }),
	}
	a.structureJSON = encodeStructure(chart)
	a.toolEntries = toolEntries(a)
	a.warn.manyIterations(a.cfg.maxIter)
	return a, nil
}

// On subscribes fn to the events of every conversation of the agent that
// match pattern ("*", a domain wildcard such as "agentfootprint.tools.*", or
// an exact name from event.Names) and returns the func that unsubscribes it.
// Each event's meta names its run. Subscribe before a turn starts: an event
// nobody hears is not built. On refuses a pattern that can never match an
// event name (a typo would otherwise hear nothing) and a nil fn.
func (a *Agent) On(pattern string, fn event.Listener) (unsubscribe func(), err error) {
	if err := event.CheckPattern(pattern); err != nil {
		return nil, fmt.Errorf("agent: On: %w", err)
	}
	if fn == nil {
		return nil, fmt.Errorf("agent: On(%q): the listener is nil", pattern)
	}
	return a.d.On(pattern, fn), nil
}

// MustOn is On for a pattern known to be good; it panics on the error On
// would return.
func (a *Agent) MustOn(pattern string, fn event.Listener) (unsubscribe func()) {
	stop, err := a.On(pattern, fn)
	if err != nil {
		panic(err)
	}
	return stop
}

// toolNames returns the names of the tools offered, in registration order.
func (a *Agent) toolNames() []string { return append([]string(nil), a.order...) }
