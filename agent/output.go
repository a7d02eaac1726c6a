// Typed answers (WithOutputSchema): the final answer is one JSON value that
// must conform to a schema the caller gives; a non-conforming answer gets
// one corrective model call, then a typed error. A typed answer is never
// given the prose limits block: under WithLimitsBlock the same fold
// travels beside it as answerCoverage. An untyped
// agent has none of it on its chart: no node, key, event or byte.

package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
	"github.com/agentfootprint/agentfootprint-go/inject"
	inputslayer "github.com/agentfootprint/agentfootprint-go/internal/honesty/inputs"
	limitsblock "github.com/agentfootprint/agentfootprint-go/internal/honesty/limits"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Wire facts of the typed answer.
const (
	// outputSchemaUnit is the id of the steering unit that tells the model
	// the schema its final answer must follow.
	outputSchemaUnit = "output-schema"
	// outputCorrectionUnit marks, in the history, the message asking the
	// model to correct a non-conforming answer (it is not a person's turn).
	outputCorrectionUnit = "output-correction"

	stageOutputCorrection  = "output-correction"
	branchOutputCorrection = "output-correction"
	labelOutputCorrection  = "final answer does not conform to the output schema"
)

// State keys of a typed agent (declared only by WithOutputSchema).
var (
	kOutputCorrected  = flow.Key[bool]("outputCorrectionAsked")
	kOutputViolations = flow.Key[[]string]("outputViolations")
	kAnswerCoverage   = flow.Key[limits.AnswerCoverage]("answerCoverage")
)

// outputConfig is the typed-answer layer: what WithOutputSchema asked,
// compiled.
type outputConfig struct {
	validator *jsonschema.Schema
	printer   *message.Printer
	// limits is set when the limits layer is armed: answerCoverage is filed.
	limits bool
	// ledger is set when the findings ledger is on the chart (the inputs
	// layer's assumed arguments are read from it).
	ledger bool
	// hidden reports a tool argument whose value the record redacts.
	hidden func(toolName, argument string) bool
}

// OutputError is a typed answer that still did not conform to the output
// schema after the one corrective call. The turn's record keeps the answer
// and, under outputViolations, the same violations.
type OutputError struct {
	// Answer is the model's final content, as it wrote it.
	Answer string
	// Violations name every place the answer breaks the schema: a JSON
	// pointer into the answer, then what the schema wants there.
	Violations []string
}

// Error names every violation.
func (e *OutputError) Error() string {
	return "agent: the final answer does not conform to the output schema after one correction: " + strings.Join(e.Violations, "; ")
}

// WithOutputSchema makes the agent's final answer typed: one JSON value
// conforming to schema (JSON Schema, draft 4 to 2020-12, 2020-12 when
// $schema is absent; it must be self-contained). jsonschema.For[T] of
// github.com/google/jsonschema-go gives one from a Go type.
//
// The model is told the schema by a steering unit (id outputSchemaUnit). A
// final answer that is not JSON, or breaks the schema, is answered once with
// a message listing every violation and the model is called again; if that
// answer fails too, the turn ends with an *OutputError (recorded under the
// outputViolations key of prepare-final's commit). The answer is kept exactly
// as the model wrote it: no code fence or prose is stripped.
//
// A typed answer never gets the limits block; under
// WithLimitsBlock, what the tools declared travels beside it as
// answerCoverage (state key, turn_end, Result.AnswerCoverage). New refuses
// a schema that is not valid JSON or does not compile, and a second
// WithOutputSchema (its unit id is taken).
func WithOutputSchema(schema json.RawMessage) Option {
	raw := append(json.RawMessage(nil), schema...)
	return func(c *config) {
		o, err := compileOutput(raw)
		if err != nil {
			c.errs = append(c.errs, err)
			return
		}
		c.addLayer(o)
		var compact bytes.Buffer
		_ = json.Compact(&compact, raw) // valid: compileOutput decoded it
		u, err := inject.Steering(outputSchemaUnit,
			"Give your final answer as one JSON value and nothing else (no prose, no code fence). "+
				"It must conform to this JSON Schema: "+compact.String())
		if err != nil {
			c.errs = append(c.errs, fmt.Errorf("agent: WithOutputSchema: %w", err))
			return
		}
		c.units = append(c.units, u)
	}
}

// compileOutput decodes and compiles an output schema, loading nothing from
// outside it.
func compileOutput(raw json.RawMessage) (*outputConfig, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("agent: output schema: not valid JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(outputNoLoader{})
	const loc = "https://output.agentfootprint.invalid/answer.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("agent: output schema: %w", err)
	}
	v, err := c.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("agent: output schema does not compile: %w", err)
	}
	return &outputConfig{validator: v, printer: message.NewPrinter(language.English)}, nil
}

// outputNoLoader refuses every reference outside the output schema.
type outputNoLoader struct{}

// Load refuses url.
func (outputNoLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %q is not loaded: the output schema must be self-contained", url)
}

// violations checks one answer and returns every violation, sorted, or nil
// when it conforms.
func (o *outputConfig) violations(answer string) []string {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(answer))
	if err != nil {
		return []string{"(whole answer): not one JSON value: " + err.Error()}
	}
	verr := o.validator.Validate(doc)
	if verr == nil {
		return nil
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		return []string{"(whole answer): " + verr.Error()}
	}
	var out []string
	o.leaves(ve, &out)
	if len(out) == 0 {
		out = []string{"(whole answer): " + ve.Error()}
	}
	sort.Strings(out)
	return compactStrings(out)
}

// leaves appends one line per leaf cause of a validation error.
func (o *outputConfig) leaves(ve *jsonschema.ValidationError, out *[]string) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			o.leaves(c, out)
		}
		return
	}
	switch ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group:
		return
	}
	at := "(root)"
	if len(ve.InstanceLocation) > 0 {
		at = "/" + strings.Join(escapeTokens(ve.InstanceLocation), "/")
	}
	*out = append(*out, at+": "+ve.ErrorKind.LocalizedString(o.printer))
}

func escapeTokens(toks []string) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
	}
	return out
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// correctionText is the message asking the model to correct its answer.
func correctionText(violations []string) string {
	var b strings.Builder
	b.WriteString("Your final answer does not conform to the required JSON Schema. Violations:\n")
	for _, v := range violations {
		b.WriteString("- " + v + "\n")
	}
	b.WriteString("Reply again with only the corrected JSON value.")
	return b.String()
}

// isOutputCorrection reports a history message the agent wrote to ask for a
// corrected answer (not a person's turn).
func isOutputCorrection(m llm.Message) bool {
	return m.Role == llm.RoleUser && m.Unit == outputCorrectionUnit
}

// outputRules is sf-route's extra rule for a typed agent (nil otherwise): a
// final answer that breaks the schema, with no tool call pending and no
// correction asked yet this turn, goes to output-correction.
func (a *Agent) outputRules() []flow.Rule {
	o := a.output()
	if o == nil {
		return nil
	}
	return []flow.Rule{{
		Label: labelOutputCorrection, Branch: branchOutputCorrection,
		When: func(r flow.Reader) bool {
			calls, _ := kLatestToolCalls.Get(r)
			asked, _ := kOutputCorrected.Get(r)
			content, _ := kLatestContent.Get(r)
			return len(calls) == 0 && !asked && o.violations(content) != nil
		},
	}}
}

// outputBranches is the decider branch of a typed agent (nil otherwise).
func (a *Agent) outputBranches(head string) []*flow.Builder {
	if a.output() == nil {
		return nil
	}
	return []*flow.Builder{flow.Branch(branchOutputCorrection).Stage(stageOutputCorrection, a.outputCorrectionStage).LoopTo(head)}
}

// outputCorrectionStage asks the model, once per turn, to correct its answer,
// naming every violation, and loops back for one more model call.
func (a *Agent) outputCorrectionStage(ctx context.Context, s *flow.Scope) (any, error) {
	rs := runOf(ctx)
	iter, _ := kIteration.Get(s)
	content, _ := kLatestContent.Get(s)
	v := a.output().violations(content)
	kOutputViolations.Set(s, v)
	kHistory.Append(s, llm.Message{Role: llm.RoleUser, Content: correctionText(v), Unit: outputCorrectionUnit})
	kOutputCorrected.Set(s, true)
	rs.emit(s, event.AgentIterationEnd, iter, func() any { return event.IterationEnd{IterIndex: iter} })
	kIteration.Set(s, iter+1)
	return nil, nil
}

// output returns the typed-answer layer, or nil for a prose answer.
func (a *Agent) output() *outputConfig {
	o, _ := a.cfg.layer(layerOutput).(*outputConfig)
	return o
}

func (*outputConfig) name() string       { return layerOutput }
func (*outputConfig) requires() []string { return nil }
func (*outputConfig) after() []string {
	return []string{layerInputs, layerTime, layerResults, layerLimits}
}

// arm reads which other layers are armed: answerCoverage is filed under the
// limits layer, from the ledger when the results layer keeps one.
func (o *outputConfig) arm(c *config) error {
	o.limits = c.has(layerLimits)
	o.ledger = c.has(layerResults)
	tools := map[string]*tool.Tool{}
	for _, t := range c.tools {
		if t != nil {
			tools[t.Name()] = t
		}
	}
	o.hidden = func(name, arg string) bool {
		t := tools[name]
		return t != nil && slices.Contains(t.Declaration().HiddenArguments, arg)
	}
	return nil
}

func (o *outputConfig) keys() []flow.KeyDecl {
	if o.limits {
		return []flow.KeyDecl{kOutputCorrected, kOutputViolations, kAnswerCoverage}
	}
	return []flow.KeyDecl{kOutputCorrected, kOutputViolations}
}

// prepareFinal checks the answer against the schema and keeps it as the
// model wrote it (the limits layer attaches nothing to a typed answer);
// under the limits layer, answerCoverage carries what the tools declared.
func (o *outputConfig) prepareFinal(s *flow.Scope, f *finalDraft) error {
	if v := o.violations(f.reply); v != nil {
		kOutputViolations.Set(s, v)
		return &OutputError{Answer: f.reply, Violations: v}
	}
	f.answer = f.reply
	if o.limits {
		if ac := answerCoverageOf(s, o); ac != nil {
			b, err := json.Marshal(ac)
			if err != nil {
				return fmt.Errorf("agent: encoding answerCoverage: %w", err)
			}
			kAnswerCoverage.Set(s, *ac)
			f.notes.AnswerCoverage = b
		}
	}
	return nil
}

// answerCoverageOf folds the run's coverageDeclared rows and this turn's
// assumed arguments (inputs layer) into answerCoverage, or nil.
func answerCoverageOf(s *flow.Scope, o *outputConfig) *limits.AnswerCoverage {
	var assumed []limits.Assumed
	if o.ledger {
		turn, _ := kTurnNumber.Get(s)
		for _, r := range inputslayer.AssumedRows(kFindings.Get(s), turn) {
			h := o.hidden(r.ToolName, r.Argument)
			v := r.Value
			if h {
				v = "REDACTED"
			}
			assumed = append(assumed, limits.Assumed{ToolName: r.ToolName, Argument: r.Argument, Value: v, Hidden: h})
		}
	}
	return limitsblock.AnswerCoverageOf(kCoverage.Get(s), assumed)
}

// answerCoverageIn reads answerCoverage from a record's last commit (typed in
// a live record, JSON in a decoded one), or nil.
func answerCoverageIn(rec *record.Record) *limits.AnswerCoverage {
	if rec == nil || rec.Log == nil || len(rec.Log.Commits) == 0 {
		return nil
	}
	v, ok, err := flow.ValueAt(rec.Log, len(rec.Log.Commits)-1, kAnswerCoverage.KeyName())
	if err != nil || !ok {
		return nil
	}
	switch t := v.(type) {
	case limits.AnswerCoverage:
		return &t
	case json.RawMessage:
		var ac limits.AnswerCoverage
		if json.Unmarshal(t, &ac) == nil {
			return &ac
		}
	}
	return nil
}
