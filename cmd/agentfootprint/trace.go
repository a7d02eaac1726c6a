// This file holds `agentfootprint trace`, which exports a stored run as OpenTelemetry GenAI
// spans, and the --otlp-endpoint / --trace-file flags that `demo` and `scenario run` share.

package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/otelexport"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/spf13/cobra"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// Flag names, shared by every command that exports spans.
const (
	flagOTLPEndpoint = "otlp-endpoint"
	flagTraceFile    = "trace-file"
)

// traceFlushTimeout bounds how long a command waits for a collector to take its spans.
const traceFlushTimeout = 10 * time.Second

func newTraceCmd() *cobra.Command {
	var target string
	cmd := &cobra.Command{
		Use:   "trace RUN",
		Short: "Export a stored run as OpenTelemetry GenAI spans (OTLP/HTTP or JSON lines)",
		Long: "trace reads a stored run (an id from `agentfootprint runs`, or a record file) and exports\n" +
			"it as OpenTelemetry spans following the GenAI conventions: invoke_agent for the turn, chat\n" +
			"for each model call, execute_tool for each tool call, with what the answer rests on as\n" +
			"agentfootprint.* attributes and span events (see docs/OBSERVABILITY.md).\n\n" +
			"--otlp-endpoint URL sends them to a collector over OTLP/HTTP (default:\n" +
			"$OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else $OTEL_EXPORTER_OTLP_ENDPOINT);\n" +
			"--trace-file FILE appends them to FILE as JSON lines. With neither, the JSON lines go to\n" +
			"standard output. Message content and tool arguments are exported only when\n" +
			"$OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is true. An unknown id exits 2.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := commandContext(cmd)
			rec, err := loadRecord(ctx, target, args[0])
			if err != nil {
				return runError(cmd, err)
			}
			if rec.Events.Len() == 0 {
				return runError(cmd, fmt.Errorf("run %s kept no events (its agent ran with agent.WithoutEventLog()), so there is nothing to build spans from", rec.Manifest.RunID))
			}
			n, where, err := exportTrace(cmd, rec.Events.Slice(), rec, cmd.OutOrStdout())
			if err != nil {
				return runError(cmd, err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "Exported %d spans of run %s to %s.\n", n, rec.Manifest.RunID, where)
			return nil
		},
	}
	addStoreFlag(cmd, &target)
	addTraceFlags(cmd)
	return cmd
}

// addTraceFlags registers --otlp-endpoint and --trace-file on cmd. The endpoint is checked
// when the flag is parsed, so a malformed one stops the command before it runs anything.
func addTraceFlags(cmd *cobra.Command) {
	cmd.Flags().Var(&endpointValue{}, flagOTLPEndpoint,
		"send the run's OpenTelemetry spans to this OTLP/HTTP collector, such as http://127.0.0.1:4318 (default: $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else $OTEL_EXPORTER_OTLP_ENDPOINT)")
	cmd.Flags().String(flagTraceFile, "", "append the run's OpenTelemetry spans to this file as JSON lines")
}

// endpointValue is --otlp-endpoint: a URL TracesURL accepts.
type endpointValue struct{ url string }

func (v *endpointValue) String() string { return v.url }
func (v *endpointValue) Type() string   { return "URL" }
func (v *endpointValue) Set(s string) error {
	if _, err := otelexport.TracesURL(s); err != nil {
		return errors.New(trimPkg(err.Error()))
	}
	v.url = s
	return nil
}

func trimPkg(s string) string {
	const p = "otelexport: "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

// traceReport exports a scenario run's spans when the command was asked to (--otlp-endpoint,
// $OTEL_EXPORTER_OTLP_ENDPOINT or --trace-file). A failed export is reported on standard error
// and does not change the command's outcome: the run itself is kept.
func traceReport(cmd *cobra.Command, rep *scenario.Report) {
	if rep == nil || len(rep.Events) == 0 {
		return
	}
	if endpoint, file := traceDestination(cmd); endpoint == "" && file == "" {
		return
	}
	if _, _, err := exportTrace(cmd, rep.Events, rep.Record, nil); err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: the trace was not exported: %v\n", cmd.CommandPath(), err)
	}
}

// traceDestination returns the endpoint and file the flags (or the environment) name.
func traceDestination(cmd *cobra.Command) (endpoint, file string) {
	if f := cmd.Flags().Lookup(flagOTLPEndpoint); f != nil {
		endpoint = f.Value.String()
	}
	if endpoint == "" {
		endpoint = otelexport.EndpointFromEnv(os.Getenv)
	}
	if f := cmd.Flags().Lookup(flagTraceFile); f != nil {
		file = f.Value.String()
	}
	return endpoint, file
}

// exportTrace builds the spans of events (rec, when not nil, supplies the decisions'
// evidence), sends them where the flags say, or to fallback as JSON lines when they say
// nothing, and waits for them to be taken. It returns the span count and where they went.
func exportTrace(cmd *cobra.Command, events []event.Event, rec *record.Record, fallback io.Writer) (int, string, error) {
	ctx := commandContext(cmd)
	endpoint, file := traceDestination(cmd)
	d := otelexport.Destination{OTLPEndpoint: endpoint}
	var where string
	if endpoint != "" {
		where = endpoint
	}
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return 0, "", fmt.Errorf("opening the trace file: %w", err)
		}
		defer f.Close()
		d.File = f
		where = joinWhere(where, file)
	}
	if d.OTLPEndpoint == "" && d.File == nil {
		d.File, where = fallback, "standard output"
	}
	tp, err := otelexport.NewProvider(ctx, d)
	if err != nil {
		return 0, "", errors.New(trimPkg(err.Error()))
	}
	var count spanCounter
	tp.RegisterSpanProcessor(&count)
	x, err := otelexport.New(otelexport.WithTracerProvider(tp))
	if err != nil {
		return 0, "", err
	}
	exportErr := x.ExportEvents(ctx, events, rec)
	flushCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), traceFlushTimeout)
	defer cancel()
	if err := tp.Shutdown(flushCtx); err != nil && exportErr == nil {
		exportErr = errors.New(trimPkg(err.Error()))
	}
	return int(count.n.Load()), where, exportErr
}

func joinWhere(a, b string) string {
	if a == "" {
		return b
	}
	return a + " and " + b
}

// spanCounter counts the spans that end.
type spanCounter struct{ n atomic.Int64 }

func (c *spanCounter) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (c *spanCounter) OnEnd(sdktrace.ReadOnlySpan)                     { c.n.Add(1) }
func (c *spanCounter) Shutdown(context.Context) error                  { return nil }
func (c *spanCounter) ForceFlush(context.Context) error                { return nil }
