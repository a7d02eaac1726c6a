// Package jaegercheck is a test-only module: it exports the demo's run over
// OTLP/HTTP to a real Jaeger v2 collector started on 127.0.0.1 with
// in-memory storage, reads the trace back from Jaeger's query API and
// checks the span tree and the honesty attributes.
//
// The collector is built from github.com/jaegertracing/jaeger v1.76.0,
// pinned as a tool in collector/go.mod (go install refuses the module's
// replace directives; go build of the tool works):
//
//	cd jaegercheck/collector && go build -o /tmp/jaeger github.com/jaegertracing/jaeger/cmd/jaeger
//	cd .. && JAEGER_BIN=/tmp/jaeger go test ./...
//
// Without JAEGER_BIN the test skips, except under CI=true, where it fails:
// .ci/run builds the binary first.
package jaegercheck
