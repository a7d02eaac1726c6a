// This file holds argument validation: the modes, the issue shape, and
// the flattening of validator errors into leaf issues.

package tool

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Mode says what argument validation does with the issues it finds.
type Mode string

// The three modes. The empty Mode means ModeEnforce.
const (
	// ModeEnforce: a call with issues is not run; the model reads the
	// issues instead.
	ModeEnforce Mode = "enforce"
	// ModeWarn: the issues are reported and the call runs anyway.
	ModeWarn Mode = "warn"
	// ModeOff: arguments are not validated.
	ModeOff Mode = "off"
)

func (m Mode) valid() bool {
	return m == ModeEnforce || m == ModeWarn || m == ModeOff
}

// Issue is one leaf violation of a tool's input schema. It never holds the
// offending value: Got is only its JSON type. Declaration.Check returns
// them; toolrun gathers them into the rejection the model reads.
type Issue struct {
	// Path is the JSON pointer of the offending value ("" is the whole
	// arguments object, "/items/0/name" a nested member). For a missing
	// member it points where the member should be.
	Path string `json:"path"`
	// Keyword is the schema keyword that failed ("type", "required",
	// "enum", "additionalProperties", …), or "json" when the arguments
	// could not be parsed at all.
	Keyword string `json:"keyword"`
	// Expected says what the schema wants there, from the schema alone.
	Expected string `json:"expected"`
	// Got is the JSON type of the value found ("string", "integer", …),
	// "missing" for an absent member, or "unparsable" for text that is
	// not JSON.
	Got string `json:"got"`
}

// validateArgs parses args and validates them against the compiled schema.
// Empty or all-space args read as {} (some providers send nothing for a
// call without arguments). Text that is not JSON is the error.
func validateArgs(s *compiledSchema, args json.RawMessage) ([]Issue, error) {
	doc, err := decodeArgs(args)
	if err != nil {
		return nil, err
	}
	verr := s.validator.Validate(doc)
	if verr == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return []Issue{{Path: "", Keyword: "schema", Expected: "arguments the validator can read", Got: jsonTypeOf(doc)}}, nil
	}
	var issues []Issue
	collectLeaves(s, ve, doc, "", &issues)
	return finish(issues), nil
}

// decodeArgs decodes call arguments, treating empty text as {}.
func decodeArgs(args json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(args)) == 0 {
		return map[string]any{}, nil
	}
	return decodeJSON(args)
}

// finish sorts and deduplicates issues (the dispatcher caps them).
func finish(issues []Issue) []Issue {
	slices.SortFunc(issues, func(a, b Issue) int {
		return cmp.Or(comparePointers(a.Path, b.Path), cmp.Compare(a.Keyword, b.Keyword), cmp.Compare(a.Expected, b.Expected), cmp.Compare(a.Got, b.Got))
	})
	issues = slices.Compact(issues)
	if len(issues) == 0 {
		// The validator failed without a leaf we can name; say so at
		// the root rather than pretending the call was valid.
		issues = []Issue{{Path: "", Keyword: "schema", Expected: "arguments matching the input schema", Got: "object"}}
	}
	return issues
}

// comparePointers orders JSON pointers token by token, comparing two
// all-digit tokens as numbers, so /items/2 comes before /items/10.
func comparePointers(a, b string) int {
	for a != "" && b != "" {
		ta, ra := nextToken(a)
		tb, rb := nextToken(b)
		if c := compareTokens(ta, tb); c != 0 {
			return c
		}
		a, b = ra, rb
	}
	return cmp.Compare(len(a), len(b))
}

// nextToken splits "/tok/rest" into "tok" and "/rest".
func nextToken(p string) (tok, rest string) {
	p = p[1:]
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

func compareTokens(a, b string) int {
	if isDigits(a) && isDigits(b) {
		a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
		return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b))
	}
	return cmp.Compare(a, b)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// collectLeaves walks the validator's error tree and appends one Issue per
// leaf cause.
// prefix is prepended to every path (the argument's pointer when a single
// argument value was validated).
func collectLeaves(s *compiledSchema, ve *jsonschema.ValidationError, doc any, prefix string, out *[]Issue) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			collectLeaves(s, c, doc, prefix, out)
		}
		return
	}
	base := prefix + pointer(ve.InstanceLocation)
	got := jsonTypeOf(valueAt(doc, ve.InstanceLocation))
	switch k := ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group:
		return
	case *kind.Required:
		for _, m := range k.Missing {
			*out = append(*out, Issue{Path: base + "/" + escapeToken(m), Keyword: "required", Expected: s.memberTypes(ve.SchemaURL, m), Got: "missing"})
		}
	case *kind.DependentRequired:
		for _, m := range k.Missing {
			*out = append(*out, Issue{Path: base + "/" + escapeToken(m), Keyword: "dependentRequired", Expected: "a value when " + strconv.Quote(k.Prop) + " is present", Got: "missing"})
		}
	case *kind.Dependency:
		for _, m := range k.Missing {
			*out = append(*out, Issue{Path: base + "/" + escapeToken(m), Keyword: "dependencies", Expected: "a value when " + strconv.Quote(k.Prop) + " is present", Got: "missing"})
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			loc := append(slices.Clip(ve.InstanceLocation), p)
			*out = append(*out, Issue{Path: prefix + pointer(loc), Keyword: "additionalProperties", Expected: "no such property", Got: jsonTypeOf(valueAt(doc, loc))})
		}
	default:
		*out = append(*out, Issue{Path: base, Keyword: keywordOf(ve.ErrorKind), Expected: expectation(ve.ErrorKind), Got: got})
	}
}

func keywordOf(k jsonschema.ErrorKind) string {
	if p := k.KeywordPath(); len(p) > 0 {
		return p[0]
	}
	switch k.(type) {
	case *kind.FalseSchema:
		return "false"
	case *kind.Not:
		return "not"
	}
	return "schema"
}

// expectation describes what a failed keyword wants, from the schema side
// only: it never quotes the instance.
func expectation(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return strings.Join(k.Want, " or ")
	case *kind.Enum:
		return "one of " + compactJSON(k.Want)
	case *kind.Const:
		return "exactly " + compactJSON(k.Want)
	case *kind.Format:
		return "format " + strconv.Quote(k.Want)
	case *kind.Pattern:
		return "a string matching " + strconv.Quote(k.Want)
	case *kind.MinLength:
		return fmt.Sprintf("at least %d characters", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("at most %d characters", k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("at least %d items", k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("at most %d items", k.Want)
	case *kind.MinProperties:
		return fmt.Sprintf("at least %d properties", k.Want)
	case *kind.MaxProperties:
		return fmt.Sprintf("at most %d properties", k.Want)
	case *kind.Minimum:
		return ">= " + ratString(k.Want.FloatString(6))
	case *kind.Maximum:
		return "<= " + ratString(k.Want.FloatString(6))
	case *kind.ExclusiveMinimum:
		return "> " + ratString(k.Want.FloatString(6))
	case *kind.ExclusiveMaximum:
		return "< " + ratString(k.Want.FloatString(6))
	case *kind.MultipleOf:
		return "a multiple of " + ratString(k.Want.FloatString(6))
	case *kind.UniqueItems:
		return "items without repeats"
	case *kind.Contains:
		return "at least one item matching the item rule"
	case *kind.MinContains:
		return fmt.Sprintf("at least %d matching items", k.Want)
	case *kind.MaxContains:
		return fmt.Sprintf("at most %d matching items", k.Want)
	case *kind.AdditionalItems:
		return "no items beyond those listed"
	case *kind.FalseSchema:
		return "nothing (no value is allowed here)"
	case *kind.Not:
		return "a value the \"not\" rule does not match"
	case *kind.OneOf:
		return "exactly one of the alternatives"
	case *kind.PropertyNames:
		return "property names matching the name rule"
	}
	return "a value satisfying the schema"
}

// ratString trims the zeros FloatString pads a rational with.
func ratString(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// compactJSON renders a schema-side value, cut at 200 bytes.
func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "the values the schema lists"
	}
	const limit = 200
	if len(b) > limit {
		return string(b[:limit]) + "…"
	}
	return string(b)
}

// pointer builds a JSON pointer (RFC 6901) from instance location tokens.
func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

func escapeToken(t string) string {
	if !strings.ContainsAny(t, "~/") {
		return t
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(t)
}

// valueAt follows instance location tokens into a decoded document. It
// returns the sentinel missing when a token does not resolve.
func valueAt(doc any, tokens []string) any {
	cur := doc
	for _, t := range tokens {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[t]
			if !ok {
				return missing{}
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return missing{}
			}
			cur = c[i]
		default:
			return missing{}
		}
	}
	return cur
}

// missing marks a location with no value; jsonTypeOf names it "unknown".
type missing struct{}

// checkArgument is Declaration.CheckArgument: one value for the top-level
// argument name against that argument's own subschema, with the same
// validator and issue shape as check (paths start at "/<name>"). The inputs
// layer uses it to check a person's answer before filling it in. It returns
// nil when the value fits, and a "properties" issue at "/<name>" when the
// schema has no such argument. value is any JSON-encodable Go value; it is
// not modified.
func (t *Tool) checkArgument(name string, value any) []Issue {
	at := "/" + escapeToken(name)
	sub := t.schema.validator.Properties[name]
	if _, listed := t.schema.property(name); !listed || sub == nil {
		return []Issue{{Path: at, Keyword: "properties", Expected: "an argument the tool declares", Got: "unknown"}}
	}
	b, err := json.Marshal(value)
	if err != nil {
		return []Issue{{Path: at, Keyword: "json", Expected: "a JSON value", Got: "unencodable"}}
	}
	doc, err := decodeJSON(b)
	if err != nil {
		return []Issue{{Path: at, Keyword: "json", Expected: "a JSON value", Got: "unparsable"}}
	}
	verr := sub.Validate(doc)
	if verr == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return []Issue{{Path: at, Keyword: "schema", Expected: "a value the argument's schema accepts", Got: jsonTypeOf(doc)}}
	}
	var issues []Issue
	collectLeaves(t.schema, ve, doc, at, &issues)
	return finish(issues)
}
