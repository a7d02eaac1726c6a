// This file shows the live way in: an Observer attached to an agent while
// it runs, its spans printed as a tree.

package otelexport_test

import (
	"context"
	"fmt"
	"sort"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/otelexport"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func Example() {
	// Any TracerProvider works; otelexport.NewProvider builds one that sends
	// spans over OTLP/HTTP or writes them as JSON lines. This one keeps them.
	recorder := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder))

	exp, err := otelexport.New(otelexport.WithTracerProvider(tp))
	if err != nil {
		panic(err)
	}

	// The demo's operations-triage agent, on its scripted model.
	f, _ := scenario.Demo()
	parts, _ := f.Parts()
	a, err := agent.New(parts.Provider, append(parts.Options, agent.WithUnits(parts.Units...), agent.WithTools(parts.Tools...))...)
	if err != nil {
		panic(err)
	}

	ctx := context.Background()
	obs := exp.Observer(ctx)
	detach := obs.Attach(a.MustOn)
	res, err := a.Run(ctx, agent.Input{Message: f.Question()})
	detach()
	obs.End(res.Record, err)

	var lines []string
	for _, s := range recorder.Ended() {
		if s.Parent().IsValid() {
			lines = append(lines, "  "+s.Name())
		}
	}
	sort.Strings(lines)
	for _, s := range recorder.Ended() {
		if !s.Parent().IsValid() {
			fmt.Println(s.Name())
		}
	}
	for _, l := range lines {
		fmt.Println(l)
	}
	// Output:
	// invoke_agent ops-triage
	//   chat scripted-triage
	//   chat scripted-triage
	//   chat scripted-triage
	//   execute_tool recent_deploys
	//   execute_tool search_logs
	//   execute_tool service_status
}
