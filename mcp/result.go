// This file reads one CallToolResult: the text summary the model is served,
// where coverage declarations sit (structuredContent or _meta), and the
// value handed to the framework's one reading channel.

package mcp

import (
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

// Where a result's declarations were found: the words of CallRecord.DeclaredIn.
const (
	declaredInStructuredContent = "structuredContent"
	declaredInMeta              = "_meta"
)

// metaPrefix starts every _meta key this package reads; any other key (the
// protocol's own io.modelcontextprotocol/* among them) is left alone.
const metaPrefix = "af_"

// DeclarationProblem is a declaration under _meta left off the record: the
// key and what is wrong with it. The result is still served, without it.
type DeclarationProblem struct {
	Key     string `json:"key"`
	Problem string `json:"problem"`
}

// reading is what one result gives the framework.
type reading struct {
	value      tool.Result
	declaredIn string
	problems   []DeclarationProblem
}

// readResult turns a result into the tool's return value. A result with
// isError is served as its text with the status failure, and its
// declarations are not read (a failed call covered nothing). Otherwise an
// envelope in structuredContent is handed over as written; failing that,
// declarations under _meta are composed around the text summary; failing
// that, the summary is the value.
func readResult(res *sdk.CallToolResult) reading {
	summary := summaryOf(res)
	if res.IsError {
		if summary == "" {
			summary = "the server reported an error and gave no text"
		}
		return reading{value: tool.Result{Content: summary, Status: tool.StatusFailure}}
	}
	if sc, ok := res.StructuredContent.(map[string]any); ok && hasMarker(sc) {
		return reading{value: tool.Result{Content: sc}, declaredIn: declaredInStructuredContent}
	}
	env, problems, found := metaEnvelope(res.Meta, summary)
	r := reading{value: tool.Result{Content: summary}, problems: problems}
	if found {
		r.value.Content, r.declaredIn = env, declaredInMeta
	}
	return r
}

func hasMarker(m map[string]any) bool {
	for _, k := range []string{wire.AbsenceMarker, wire.CoverageMarker, wire.SemanticsMarker} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// metaEnvelope composes the envelope the af_* keys of meta declare around
// data: af_semantics (the body of a semantics envelope) or af_absent (the
// body of an absence) replaces data, and af_coverage (an af_coverage
// object) wraps what results as a coverage ledger. Each body is an object
// without its own marker key. A malformed body, an unknown af_* key, or
// af_absent beside af_semantics is named in problems and left out; found is
// false when nothing was composed.
func metaEnvelope(meta sdk.Meta, data any) (env any, problems []DeclarationProblem, found bool) {
	keys := make([]string, 0, len(meta))
	for k := range meta {
		if strings.HasPrefix(k, metaPrefix) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	bodies := map[string]map[string]any{}
	for _, k := range keys {
		switch k {
		case wire.AbsenceMarker, wire.CoverageMarker, wire.SemanticsMarker:
		default:
			problems = append(problems, DeclarationProblem{k, "not a declaration this framework knows (af_absent, af_coverage, af_semantics)"})
			continue
		}
		body, ok := meta[k].(map[string]any)
		if !ok {
			problems = append(problems, DeclarationProblem{k, fmt.Sprintf("must be a JSON object holding the envelope's other keys, not %s", jsonKind(meta[k]))})
			continue
		}
		if _, dup := body[k]; dup {
			problems = append(problems, DeclarationProblem{k, "the object repeats its own key " + k + "; the key already marks it"})
			continue
		}
		bodies[k] = body
	}
	if bodies[wire.AbsenceMarker] != nil && bodies[wire.SemanticsMarker] != nil {
		problems = append(problems, DeclarationProblem{wire.SemanticsMarker, "a result cannot be both an absence (af_absent) and described data; af_semantics was left out"})
		delete(bodies, wire.SemanticsMarker)
	}
	if len(bodies) == 0 {
		return data, problems, false
	}
	inner := data
	for _, k := range []string{wire.SemanticsMarker, wire.AbsenceMarker} {
		if b := bodies[k]; b != nil {
			e := make(map[string]any, len(b)+1)
			for bk, bv := range b {
				e[bk] = bv
			}
			e[k] = true
			inner = e
		}
	}
	if b := bodies[wire.CoverageMarker]; b != nil {
		inner = map[string]any{wire.CoverageMarker: b, "result": inner}
	}
	return inner, problems, true
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64, int, int64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}

// summaryOf is the text a model reads for a result's content: text blocks as
// written, and one bracketed line for every image, audio clip, resource link
// or embedded resource (an embedded text resource is followed by its text).
// Blocks are joined by newlines. A result without content but with
// structuredContent is summarised as that JSON.
func summaryOf(res *sdk.CallToolResult) string {
	parts := make([]string, 0, len(res.Content))
	for _, c := range res.Content {
		parts = append(parts, summarise(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if s, err := toolrun.Text(res.StructuredContent); err == nil {
			return s
		}
	}
	return strings.Join(parts, "\n")
}

func summarise(c sdk.Content) string {
	switch x := c.(type) {
	case *sdk.TextContent:
		return x.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image %s, %d bytes, kept on the record]", orUnknown(x.MIMEType), len(x.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes, kept on the record]", orUnknown(x.MIMEType), len(x.Data))
	case *sdk.ResourceLink:
		s := "[resource link " + x.URI
		if x.Name != "" {
			s += " (" + x.Name + ")"
		}
		return s + "]"
	case *sdk.EmbeddedResource:
		r := x.Resource
		if r == nil {
			return "[resource with no contents]"
		}
		if r.Text != "" {
			return "[resource " + r.URI + "]\n" + r.Text
		}
		return fmt.Sprintf("[resource %s, %s, %d bytes, kept on the record]", r.URI, orUnknown(r.MIMEType), len(r.Blob))
	case nil:
		return "[empty content block]"
	}
	return fmt.Sprintf("[content block of kind %T, kept on the record]", c)
}

func orUnknown(mime string) string {
	if mime == "" {
		return "of unknown type"
	}
	return mime
}
