// This file holds the ask-or-assume declarations and the one assert that
// checks them (with the Period) against a tool's input schema.

package tool

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentfootprint/agentfootprint-go/internal/instant"
	"github.com/agentfootprint/agentfootprint-go/internal/periodspell"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// Rule says what happens when the model leaves an argument missing (key
// absent, null, or a blank string). Exactly one of Assume and Ask is set.
//
//   - Assume: the declared default fills the missing value, and the
//     record files it as assumed, never as the person's.
//   - Ask: the person is asked Ask (a question), once per batch; Choices,
//     when given, are the answers offered. No Choices means a free answer.
type Rule struct {
	// Assume is the default value: a string, number or boolean accepted
	// by the argument's own schema. nil means no Assume.
	Assume any
	// Ask is the question put to the person; at most 4096 UTF-16 units.
	Ask string
	// Choices are the answers offered with Ask: 1 to 100 distinct
	// values, each accepted by the argument's schema. Leave nil for a
	// free answer; an empty non-nil slice is refused.
	Choices []Choice
}

// Choice is one answer offered with an ask.
type Choice struct {
	// Value is the argument value this choice fills.
	Value any
	// Said lists phrases a person might use for this choice (at most 16,
	// each non-blank and at most 120 UTF-16 units, none shared with
	// another choice). They are checked, not yet used.
	Said []string
}

// Limits the assert applies.
const (
	maxAskRules     = 32
	maxQuestion     = 4096
	maxChoices      = 100
	maxSaid         = 120
	maxSaidOnChoice = 16
)

// cloneRules deep-copies rules so later changes by the caller do not reach
// the tool. Rule values are normalised JSON scalars after the assert, so a
// shallow copy of each value is enough.
func cloneRules(rules map[string]Rule) map[string]Rule {
	if rules == nil {
		return nil
	}
	out := make(map[string]Rule, len(rules))
	for k, r := range rules {
		c := Rule{Assume: r.Assume, Ask: r.Ask}
		if r.Choices != nil {
			c.Choices = make([]Choice, len(r.Choices))
			for i, ch := range r.Choices {
				c.Choices[i] = Choice{Value: ch.Value, Said: slices.Clone(ch.Said)}
			}
		}
		out[k] = c
	}
	return out
}

// assertDeclarations runs the checks and returns the rules with each value
// normalised to its JSON form (string, bool or json.Number).
func assertDeclarations(toolName string, s *compiledSchema, rules map[string]Rule, declared bool, period *Period) (map[string]Rule, error) {
	var normalised map[string]Rule
	if declared {
		var err error
		if normalised, err = assertRules(toolName, s, rules); err != nil {
			return nil, err
		}
	}
	if period != nil {
		if err := assertPeriod(toolName, s, normalised, *period); err != nil {
			return nil, err
		}
	}
	return normalised, nil
}

func assertRules(toolName string, s *compiledSchema, rules map[string]Rule) (map[string]Rule, error) {
	if len(rules) == 0 {
		return nil, refuse(toolName, "askOrAssume", "no rules were given", "name at least one argument, or leave WithAskOrAssume out")
	}
	asks := 0
	for _, r := range rules {
		if r.Ask != "" || r.Choices != nil {
			asks++
		}
	}
	if asks > maxAskRules {
		return nil, refuse(toolName, "askOrAssume", fmt.Sprintf("%d ask rules were given; at most %d are allowed", asks, maxAskRules), "assume a default for some arguments instead of asking")
	}
	names := make([]string, 0, len(rules))
	for name := range rules {
		names = append(names, name)
	}
	slices.Sort(names) // the first fault reported is stable
	out := make(map[string]Rule, len(rules))
	for _, name := range names {
		r, err := assertRule(toolName, s, name, rules[name])
		if err != nil {
			return nil, err
		}
		out[name] = r
	}
	return out, nil
}

var scalarTypes = []string{"string", "number", "integer", "boolean"}

func assertRule(toolName string, s *compiledSchema, name string, r Rule) (Rule, error) {
	path := "askOrAssume." + name
	prop, ok := s.property(name)
	if !ok {
		return Rule{}, refuse(toolName, path, fmt.Sprintf("%q is not a property of the input schema", name), "rule only arguments listed under the schema's top-level \"properties\"")
	}
	if t, isString := prop["type"].(string); !isString || !slices.Contains(scalarTypes, t) {
		return Rule{}, refuse(toolName, path, fmt.Sprintf("argument %q must have exactly one scalar type; its schema type is %s", name, compactJSON(prop["type"])), "give the argument \"type\" string, number, integer or boolean (no arrays, objects, unions or null)")
	}
	hasAsk := r.Ask != "" || r.Choices != nil
	hasAssume := r.Assume != nil
	switch {
	case hasAsk && hasAssume:
		return Rule{}, refuse(toolName, path, "the rule both asks and assumes", "keep either Ask (with optional Choices) or Assume")
	case !hasAsk && !hasAssume:
		return Rule{}, refuse(toolName, path, "the rule neither asks nor assumes", "set Assume to a default value, or Ask to a question")
	}
	sub := s.validator.Properties[name]
	if hasAssume {
		v, err := scalarFor(toolName, path+".assume", r.Assume, sub)
		if err != nil {
			return Rule{}, err
		}
		return Rule{Assume: v}, nil
	}
	if strings.TrimSpace(r.Ask) == "" {
		return Rule{}, refuse(toolName, path+".ask", "the question is blank", "write the question the person will be asked")
	}
	if n := textlen.UTF16(r.Ask); n > maxQuestion {
		return Rule{}, refuse(toolName, path+".ask", fmt.Sprintf("the question is %d UTF-16 units long; at most %d are allowed", n, maxQuestion), "shorten the question")
	}
	out := Rule{Ask: r.Ask}
	if r.Choices == nil {
		return out, nil
	}
	if len(r.Choices) == 0 || len(r.Choices) > maxChoices {
		return Rule{}, refuse(toolName, path+".choices", fmt.Sprintf("%d choices were given; 1 to %d are allowed", len(r.Choices), maxChoices), "list the answers to offer, or leave Choices nil for a free answer")
	}
	out.Choices = make([]Choice, len(r.Choices))
	saidOn := map[string]int{}
	for i, ch := range r.Choices {
		cpath := fmt.Sprintf("%s.choices[%d]", path, i)
		v, err := scalarFor(toolName, cpath, ch.Value, sub)
		if err != nil {
			return Rule{}, err
		}
		for j := 0; j < i; j++ {
			if sameValue(out.Choices[j].Value, v) {
				return Rule{}, refuse(toolName, cpath, fmt.Sprintf("repeats choice %d", j), "list each answer once")
			}
		}
		if len(ch.Said) > maxSaidOnChoice {
			return Rule{}, refuse(toolName, cpath+".said", fmt.Sprintf("%d phrases were given; at most %d are allowed", len(ch.Said), maxSaidOnChoice), "keep the most telling phrases")
		}
		for k, said := range ch.Said {
			if strings.TrimSpace(said) == "" {
				return Rule{}, refuse(toolName, cpath+".said", fmt.Sprintf("phrase %d is blank", k), "remove it or write the phrase")
			}
			if n := textlen.UTF16(said); n > maxSaid {
				return Rule{}, refuse(toolName, cpath+".said", fmt.Sprintf("phrase %d is %d UTF-16 units long; at most %d are allowed", k, n, maxSaid), "shorten the phrase")
			}
			key := foldRuns(said)
			if other, dup := saidOn[key]; dup && other != i {
				return Rule{}, refuse(toolName, cpath+".said", fmt.Sprintf("phrase %d is also said for choice %d", k, other), "give each phrase to one choice only")
			}
			saidOn[key] = i
		}
		out.Choices[i] = Choice{Value: v, Said: slices.Clone(ch.Said)}
	}
	return out, nil
}

// scalarFor normalises a declared value to its JSON form and checks it is a
// scalar accepted by the argument's own subschema.
func scalarFor(toolName, path string, v any, sub *jsonschema.Schema) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &DefinitionError{Tool: toolName, Path: path, Problem: "the value cannot be encoded as JSON", Fix: "use a string, number or boolean", Err: err}
	}
	doc, err := decodeJSON(b)
	if err != nil {
		return nil, &DefinitionError{Tool: toolName, Path: path, Problem: "the value cannot be read back from JSON", Fix: "use a string, number or boolean", Err: err}
	}
	switch doc.(type) {
	case string, bool, json.Number:
	default:
		return nil, refuse(toolName, path, fmt.Sprintf("the value is a JSON %s, not a scalar", jsonTypeOf(doc)), "use a string, number or boolean")
	}
	if sub != nil {
		if verr := sub.Validate(doc); verr != nil {
			return nil, refuse(toolName, path, "the argument's own schema rejects the value "+string(b), "use a value the argument's schema accepts (check its type, enum and bounds)")
		}
	}
	return doc, nil
}

func assertPeriod(toolName string, s *compiledSchema, rules map[string]Rule, p Period) error {
	if strings.TrimSpace(p.Argument) == "" {
		return refuse(toolName, "period.argument", "the argument name is blank", "name the argument that holds the time window")
	}
	if !p.Spelling.valid() {
		return refuse(toolName, "period.spelling", fmt.Sprintf("%q is not a spelling", string(p.Spelling)), "use lookback, signed-lookback or iso-range")
	}
	seen := map[PeriodSpelling]bool{p.Spelling: true}
	for i, a := range p.Accepts {
		if !a.valid() {
			return refuse(toolName, fmt.Sprintf("period.accepts[%d]", i), fmt.Sprintf("%q is not a spelling", string(a)), "use lookback, signed-lookback or iso-range")
		}
		if seen[a] {
			return refuse(toolName, fmt.Sprintf("period.accepts[%d]", i), fmt.Sprintf("%s is listed twice (Spelling counts)", a), "list each further spelling once")
		}
		seen[a] = true
	}
	if p.Units != "" {
		for i := 0; i < len(p.Units); i++ {
			c := p.Units[i]
			if strings.IndexByte(instant.UnitLetters, c) < 0 || strings.IndexByte(p.Units[:i], c) >= 0 {
				return refuse(toolName, "period.units", fmt.Sprintf("%q is not a set of distinct unit letters", p.Units), "use distinct letters of smhdw, such as \"mhd\", or leave Units empty for mhdw")
			}
		}
	}
	for _, f := range []struct{ path, v string }{{"period.retention", p.Retention}, {"period.granularity", p.Granularity}, {"period.maxRange", p.MaxRange}} {
		if f.v != "" && !durationFact(f.v) {
			return refuse(toolName, f.path, fmt.Sprintf("%q is not a duration spelling", f.v), "write a count and a unit of smhdw, such as \"30d\" or \"1s\"")
		}
	}
	switch p.Direction {
	case "", DirectionPast, DirectionFuture:
	default:
		return refuse(toolName, "period.direction", fmt.Sprintf("%q is not a direction", string(p.Direction)), "use past, future, or leave it empty")
	}
	prop, ok := s.property(p.Argument)
	if !ok {
		return refuse(toolName, "period.argument", fmt.Sprintf("%q is not a property of the input schema", p.Argument), "name a top-level string argument")
	}
	if t, _ := prop["type"].(string); t != "string" {
		return refuse(toolName, "period.argument", fmt.Sprintf("argument %q is not of type string", p.Argument), "give the period argument \"type\": \"string\"")
	}
	r, ruled := rules[p.Argument]
	if !ruled {
		return refuse(toolName, "period.argument", fmt.Sprintf("argument %q has no ask-or-assume rule", p.Argument), "add a rule for it with WithAskOrAssume (an Assume default or an Ask)")
	}
	units := p.unitsOrDefault()
	check := func(where string, v any) error {
		str, _ := v.(string)
		if _, err := periodspell.Parse(str, string(p.Spelling), units); err != nil {
			return &DefinitionError{Tool: toolName, Path: "period.spelling", Problem: fmt.Sprintf("the declared %s %q does not parse as %s", where, str, p.Spelling), Fix: "declare values written in the period's spelling, such as \"2h\" for lookback", Err: err}
		}
		return nil
	}
	if r.Assume != nil {
		if err := check("default", r.Assume); err != nil {
			return err
		}
	}
	for i, ch := range r.Choices {
		if err := check(fmt.Sprintf("choice %d", i), ch.Value); err != nil {
			return err
		}
	}
	return nil
}

// sameValue compares two normalised scalars: the same JSON type is
// required; strings compare by their case-folded runs of letters and
// digits (a string with none equals nothing); numbers by value.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		if !ok {
			return false
		}
		fx := foldRuns(x)
		return fx != "" && fx == foldRuns(y)
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		fx, errX := x.Float64()
		fy, errY := y.Float64()
		return errX == nil && errY == nil && fx == fy
	}
	return false
}

// foldRuns keeps the letter and digit runs of s, lower-cased, separated by
// one space.
func foldRuns(s string) string {
	var b strings.Builder
	inRun := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if !inRun && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(r))
			inRun = true
			continue
		}
		inRun = false
	}
	return b.String()
}
