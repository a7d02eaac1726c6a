// This file holds NewProvider: an SDK tracer provider that sends spans to
// an OTLP/HTTP collector, writes them as JSON lines, or both.

package otelexport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// The OTLP exporter's standard environment variables: the base endpoint of
// every signal, and the traces one, which wins when both are set.
const (
	envOTLPEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	envOTLPTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
)

// defaultServiceName is the service.name of the spans when Destination
// names none.
const defaultServiceName = "agentfootprint"

// Destination says where a provider's spans go. At least one of
// OTLPEndpoint and File must be set.
type Destination struct {
	// OTLPEndpoint is the collector's OTLP/HTTP base URL, such as
	// http://127.0.0.1:4318 (spans go to its /v1/traces); a URL with a path
	// is used as given. http:// sends in clear text, https:// over TLS.
	OTLPEndpoint string
	// File receives every span as one JSON object per line, written when
	// the span ends.
	File io.Writer
	// ServiceName is the service.name resource attribute
	// ("agentfootprint" when empty).
	ServiceName string
}

// EndpointFromEnv returns the OTLP traces endpoint the standard variables
// name (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else
// OTEL_EXPORTER_OTLP_ENDPOINT), or "" when neither is set. getenv is usually os.Getenv.
func EndpointFromEnv(getenv func(string) string) string {
	if v := strings.TrimSpace(getenv(envOTLPTracesEndpoint)); v != "" {
		return v
	}
	return strings.TrimSpace(getenv(envOTLPEndpoint))
}

// TracesURL checks an OTLP/HTTP endpoint and returns the URL spans are
// posted to: a base URL (no path, or "/") gets /v1/traces, as the OTLP
// environment variable does; a URL with a path is kept. It refuses a scheme
// other than http and https and a URL without a host.
func TracesURL(endpoint string) (string, error) {
	if len(endpoint) > 2048 {
		return "", fmt.Errorf("otelexport: OTLP endpoint: %d bytes is longer than 2048", len(endpoint))
	}
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		return "", fmt.Errorf("otelexport: OTLP endpoint %q: want an http:// or https:// URL, such as http://127.0.0.1:4318: %w", endpoint, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("otelexport: OTLP endpoint %q: want an http:// or https:// URL, such as http://127.0.0.1:4318", endpoint)
	}
	if u.Host == "" {
		return "", fmt.Errorf("otelexport: OTLP endpoint %q: the URL names no host", endpoint)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/traces"
	}
	return u.String(), nil
}

// Provider is an SDK tracer provider whose Shutdown also reports the first
// failed export, which the SDK would otherwise only log.
type Provider struct {
	*sdktrace.TracerProvider
	keep *keeper
}

// Shutdown flushes every span, stops the provider and returns the first
// error met: a failed flush, or an export a destination refused or could
// not take (an unreachable collector, a write error).
func (p *Provider) Shutdown(ctx context.Context) error {
	if err := p.TracerProvider.Shutdown(ctx); err != nil {
		return err
	}
	return p.keep.first()
}

// NewProvider returns a tracer provider that sends spans where d says. OTLP
// spans are batched: call Shutdown (which flushes) before the program
// exits. The JSON-lines file is written synchronously. It refuses a
// Destination with neither an endpoint nor a file, and a malformed
// endpoint (see TracesURL). No connection is made until spans are sent.
func NewProvider(ctx context.Context, d Destination) (*Provider, error) {
	if d.OTLPEndpoint == "" && d.File == nil {
		return nil, errors.New("otelexport: NewProvider: the destination names neither an OTLP endpoint nor a file")
	}
	name := d.ServiceName
	if name == "" {
		name = defaultServiceName
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(keyServiceName.String(name)))
	if err != nil {
		return nil, fmt.Errorf("otelexport: NewProvider: resource: %w", err)
	}
	keep := &keeper{}
	opts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
	if d.OTLPEndpoint != "" {
		target, err := TracesURL(d.OTLPEndpoint)
		if err != nil {
			return nil, err
		}
		exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(target), otlptracehttp.WithTimeout(otlpTimeout))
		if err != nil {
			return nil, fmt.Errorf("otelexport: NewProvider: OTLP exporter: %w", err)
		}
		opts = append(opts, sdktrace.WithBatcher(keptExporter{exp, keep, "OTLP endpoint " + target}))
	}
	if d.File != nil {
		exp, err := stdouttrace.New(stdouttrace.WithWriter(d.File))
		if err != nil {
			return nil, fmt.Errorf("otelexport: NewProvider: JSON-lines exporter: %w", err)
		}
		opts = append(opts, sdktrace.WithSyncer(keptExporter{exp, keep, "the JSON-lines file"}))
	}
	return &Provider{TracerProvider: sdktrace.NewTracerProvider(opts...), keep: keep}, nil
}

// otlpTimeout bounds one OTLP request.
const otlpTimeout = 10 * time.Second

// keeper holds the first export error of a provider.
type keeper struct {
	mu  sync.Mutex
	err error
}

func (k *keeper) keep(err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.err == nil {
		k.err = err
	}
}

func (k *keeper) first() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.err
}

// keptExporter passes spans to an exporter and keeps its first error for
// Shutdown instead of handing it to the SDK's global error log.
type keptExporter struct {
	sdktrace.SpanExporter
	keep *keeper
	name string
}

func (e keptExporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if err := e.SpanExporter.ExportSpans(ctx, spans); err != nil {
		e.keep.keep(fmt.Errorf("otelexport: exporting %d spans to %s: %w", len(spans), e.name, err))
	}
	return nil
}
