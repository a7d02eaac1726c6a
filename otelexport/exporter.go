// This file holds the Exporter: its options, and the after-the-fact way in
// that replays a stored run record's events into spans.

package otelexport

import (
	"context"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	"os"
	"strings"
)

// envCaptureContent is the GenAI conventions' opt-in for exporting message
// content; "true" (any case) turns it on unless WithContent says otherwise.
const envCaptureContent = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"

// The instrumentation scope the spans are reported under.
const (
	instrumentationName    = "github.com/agentfootprint/agentfootprint-go/otelexport"
	instrumentationVersion = record.LibraryVersion
)

// maxEvents caps the events one ExportEvents or ExportRecord call takes:
// sixteen turns' worth of a full event log (record.MaxEvents each).
const maxEvents = 16 * record.MaxEvents

// ErrNoEvents reports a run record that kept no events (the agent ran with
// agent.WithoutEventLog()), so there is nothing to build spans from.
var ErrNoEvents = errors.New("otelexport: the run record keeps no events (the agent ran with agent.WithoutEventLog()); attach an Observer while it runs instead")

// Exporter builds spans from runs. It is safe for concurrent use and holds
// no per-run state; each run gets its own Observer.
type Exporter struct {
	tracer  trace.Tracer
	content bool
}

// Option configures an Exporter.
type Option func(*config)

type config struct {
	tp      trace.TracerProvider
	content *bool
	getenv  func(string) string
}

// WithTracerProvider sends spans to tp. Without it New uses a no-op
// provider, so nothing is exported.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithContent turns the export of message content, tool arguments and tool
// results on or off, whatever OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT says.
func WithContent(on bool) Option {
	return func(c *config) { c.content = &on }
}

// WithGetenv reads environment variables through getenv instead of
// os.Getenv (for tests, or a caller that keeps its own environment).
func WithGetenv(getenv func(string) string) Option {
	return func(c *config) { c.getenv = getenv }
}

// New returns an Exporter. It refuses a nil option value.
func New(opts ...Option) (*Exporter, error) {
	c := config{getenv: os.Getenv}
	for i, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("otelexport: New: option %d is nil", i)
		}
		o(&c)
	}
	if c.tp == nil {
		c.tp = noop.NewTracerProvider()
	}
	if c.getenv == nil {
		return nil, errors.New("otelexport: New: WithGetenv: the func is nil")
	}
	content := strings.EqualFold(strings.TrimSpace(c.getenv(envCaptureContent)), "true")
	if c.content != nil {
		content = *c.content
	}
	return &Exporter{
		tracer:  c.tp.Tracer(instrumentationName, trace.WithInstrumentationVersion(instrumentationVersion)),
		content: content,
	}, nil
}

// MustNew is New that panics on a refused option, for package-level setup.
func MustNew(opts ...Option) *Exporter {
	e, err := New(opts...)
	if err != nil {
		panic(err)
	}
	return e
}

// ExportRecord emits the spans of a stored run: its events replayed through
// an Observer, closed with the record's commit log (which holds the keys
// each route decision read). It refuses a nil record and one without
// events (ErrNoEvents). The spans go to the tracer provider; flushing it is
// the caller's (ForceFlush or Shutdown).
func (x *Exporter) ExportRecord(ctx context.Context, rec *record.Record) error {
	if rec == nil {
		return errors.New("otelexport: ExportRecord: the record is nil")
	}
	if rec.Events.Len() == 0 {
		return ErrNoEvents
	}
	return x.ExportEvents(ctx, rec.Events.Slice(), rec)
}

// ExportEvents emits the spans of the turns in events, in order, as an
// Observer would have seen them; rec, when not nil, supplies the commit log
// for the route decisions' evidence (decisions it does not hold go without).
// It is the way in for a scenario report, whose events span several turns.
// One call takes at most sixteen turns' worth of a full event log
// (16 × record.MaxEvents events); more is refused.
func (x *Exporter) ExportEvents(ctx context.Context, events []event.Event, rec *record.Record) error {
	if len(events) == 0 {
		return ErrNoEvents
	}
	if len(events) > maxEvents {
		return fmt.Errorf("otelexport: ExportEvents: %d events is more than the %d one export takes", len(events), maxEvents)
	}
	obs := x.Observer(ctx)
	obs.replay = rec
	for _, e := range events {
		obs.listen(e)
	}
	obs.End(rec, nil)
	return nil
}
