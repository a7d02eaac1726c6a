// This file holds the bounding step: it turns an event payload into a value the canonical
// writer accepts (numbers that survive a double, valid UTF-8) and, in bounded mode,
// replaces content with its shape so an export can be shared without echoing prompts,
// answers or tool data.

package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentfootprint/agentfootprint-go/internal/jcs"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// Bounded-mode limits.
const (
	maxStringUnits = 256 // UTF-16 code units
	keepUnits      = 240 // kept before the "…[N chars]" marker
	maxListItems   = 32
	maxDepth       = 8
	// verbatimDepth keeps verbatim exports readable by the verifier's parser.
	verbatimDepth = 256
)

// keyRule says how bounded mode treats the value of a member with a given name.
type keyRule int

const (
	ruleNone    keyRule = iota
	ruleHash            // kept whole: it links identical content without echoing it
	ruleArgs            // "[keys: a, b]"
	ruleResult          // "[type: object]"
	ruleText            // "[N chars]"
	ruleHistory         // "[N messages]"
	ruleFree            // free-form record: key list
)

var keyRules = map[string]keyRule{
	"contentHash": ruleHash, "sha256": ruleHash, "schemaHash": ruleHash,
	"args": ruleArgs, "arguments": ruleArgs, "toolArgs": ruleArgs,
	"result": ruleResult, "toolResult": ruleResult, "rawOutput": ruleResult,
	"content": ruleText, "text": ruleText, "delta": ruleText, "prompt": ruleText,
	"systemPrompt": ruleText, "system": ruleText, "thinking": ruleText, "finalContent": ruleText,
	"error": ruleText, "errorMessage": ruleText, "message": ruleText,
	"history": ruleHistory, "messages": ruleHistory,
	"payload": ruleFree, "data": ruleFree,
}

func ruleFor(key string) keyRule {
	if r, ok := keyRules[key]; ok {
		return r
	}
	if strings.HasSuffix(key, "Sha256") || strings.HasSuffix(key, "Hash") {
		return ruleHash
	}
	return ruleNone
}

// bounder applies one payload mode.
type bounder struct{ mode payloadMode }

// bound returns v made safe for the canonical writer and bounded per the mode.
func (b bounder) bound(v any) (any, error) {
	return b.value(v, "", 0)
}

func (b bounder) value(v any, key string, depth int) (any, error) {
	v, err := normalize(v)
	if err != nil {
		return nil, err
	}
	if b.mode == modeBounded && key != "" {
		switch ruleFor(key) {
		case ruleHash:
			if s, ok := v.(string); ok {
				return validUTF8(s), nil
			}
		case ruleArgs, ruleFree:
			if m, ok := v.(map[string]any); ok {
				return keyList(m), nil
			}
			if v != nil {
				return "[type: " + typeName(v) + "]", nil
			}
		case ruleResult:
			return "[type: " + typeName(v) + "]", nil
		case ruleText:
			switch x := v.(type) {
			case string:
				return fmt.Sprintf("[%d chars]", textlen.UTF16(x)), nil
			case map[string]any:
				return keyList(x), nil
			case []any:
				return fmt.Sprintf("[%d items]", len(x)), nil
			}
		case ruleHistory:
			if a, ok := v.([]any); ok {
				return fmt.Sprintf("[%d messages]", len(a)), nil
			}
		}
	}
	limit := verbatimDepth
	if b.mode == modeBounded {
		limit = maxDepth
	}
	switch x := v.(type) {
	case string:
		s := validUTF8(x)
		if b.mode == modeBounded {
			s = truncate(s)
		}
		return s, nil
	case json.Number:
		return boundNumber(x), nil
	case map[string]any:
		if depth >= limit {
			return keyList(x), nil
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			bv, err := b.value(e, k, depth+1)
			if err != nil {
				return nil, err
			}
			out[validUTF8(k)] = bv
		}
		return out, nil
	case []any:
		if depth >= limit {
			return fmt.Sprintf("[%d items]", len(x)), nil
		}
		n := len(x)
		if b.mode == modeBounded && n > maxListItems {
			n = maxListItems - 1
		}
		out := make([]any, 0, n+1)
		for _, e := range x[:n] {
			bv, err := b.value(e, "", depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, bv)
		}
		if n < len(x) {
			out = append(out, fmt.Sprintf("[+%d more]", len(x)-n))
		}
		return out, nil
	}
	return v, nil // nil, bool
}

// normalize maps Go values onto the parsed-JSON kinds: nil, bool, string, json.Number,
// map[string]any, []any. Numbers become json.Number; NaN and infinities become strings;
// other types go through encoding/json.
func normalize(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, json.Number, map[string]any, []any:
		return v, nil
	case json.RawMessage:
		return jcs.Parse(x)
	case float64:
		return floatValue(x), nil
	case float32:
		return floatValue(float64(x)), nil
	case int:
		return json.Number(strconv.FormatInt(int64(x), 10)), nil
	case int64:
		return json.Number(strconv.FormatInt(x, 10)), nil
	case int32:
		return json.Number(strconv.FormatInt(int64(x), 10)), nil
	case uint64:
		return json.Number(strconv.FormatUint(x, 10)), nil
	case uint32:
		return json.Number(strconv.FormatUint(uint64(x), 10)), nil
	case uint:
		return json.Number(strconv.FormatUint(uint64(x), 10)), nil
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out, nil
	case map[string]string:
		out := make(map[string]any, len(x))
		for k, s := range x {
			out[k] = s
		}
		return out, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("audit: payload value of type %T: %w", v, err)
	}
	return jcs.Parse(data)
}

func floatValue(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

// boundNumber keeps n as a number when a double holds it: an integer literal beyond ±2^53,
// or any literal that overflows a double, becomes its decimal string.
func boundNumber(n json.Number) any {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err != nil || i > 1<<53 || i < -(1<<53) {
			return s
		}
		return n
	}
	f, err := strconv.ParseFloat(s, 64)
	if (err != nil && !errors.Is(err, strconv.ErrRange)) || math.IsInf(f, 0) {
		return s
	}
	return n
}

func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// truncate bounds s to maxStringUnits UTF-16 code units, marking what was cut.
func truncate(s string) string {
	total := textlen.UTF16(s)
	if total <= maxStringUnits {
		return s
	}
	return textlen.Prefix(s, keepUnits) + fmt.Sprintf("…[%d chars]", total)
}

// keyList is the bounded form of an object: its member names, in canonical order.
func keyList(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, validUTF8(k))
	}
	slices.SortFunc(keys, jcs.CompareUTF16)
	return truncate("[keys: " + strings.Join(keys, ", ") + "]")
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}
