// Package otelexport turns agent runs into OpenTelemetry traces that follow
// the GenAI semantic conventions, and adds what the answer rests on.
//
// Each turn becomes one trace whose root span is "invoke_agent {agent}".
// Under it sit one "chat {model}" span per model call and one
// "execute_tool {tool}" span per tool call. Beside the gen_ai.* attributes
// the spans carry the project's own agentfootprint.* attributes: the
// envelope kinds a tool's result declared, the period verdict it was
// served, its coverage counts, the answer's standing and its reasons, the
// run id and the commit id of the stage that produced each span, so a trace
// leads back to `agentfootprint explain RUN`. Ledger rows, route decisions
// (with the keys they read), pauses and context units are span events.
//
// There are two ways in, and they build the same spans. Live, an Observer
// listens to the agent's event stream while it runs:
//
//	exp, err := otelexport.New(otelexport.WithTracerProvider(tp))
//	obs := exp.Observer(ctx)
//	stop := obs.Attach(a.MustOn)
//	res, err := a.Run(ctx, agent.Input{Message: question})
//	stop()
//	obs.End(res.Record, err)
//
// After the fact, ExportRecord reads a stored run record (its events and
// commit log) and emits the same spans. Span times come from the events'
// own clocks in both cases. One exception: an agent tool's inner run
// (agent.AsTool). An observer attached to the outer agent does not hear the
// inner agent's events, while the outer record holds them after its own, so
// a replay adds the inner turn as a root span of its own, named after the
// outer agent, with the inner run's id.
//
// Message content and tool arguments and results are exported only when
// asked for, by WithContent or by the conventions' environment variable
// OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true. Nothing read
// from a provider's configuration (keys, headers) is ever exported: the
// spans are built from event payloads, which carry none.
//
// This is the one package of the module that imports the OpenTelemetry SDK
// and exporters; NewProvider builds a tracer provider that sends spans
// over OTLP/HTTP, writes them as JSON lines, or both.
package otelexport
