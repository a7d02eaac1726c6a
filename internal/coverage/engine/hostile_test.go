package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
)

// TestHostileInput feeds what a foreign tool can send: wrong types, huge strings, deep nesting,
// cycles, forged verdict words. Nothing panics, nothing is silently fixed, messages stay short.
func TestHostileInput(t *testing.T) {
	huge := strings.Repeat("é", 1<<20)
	deep := any("x")
	for range 3000 {
		deep = []any{deep}
	}
	cyc := map[string]any{"what": "a"}
	cyc["why"] = cyc
	cycList := []any{nil}
	cycList[0] = cycList
	values := []any{
		nil, true, 42, json.Number("1e999"), huge, []byte(`{"af_absent":true}`), deep, cyc, cycList,
		map[string]any{"what": huge, "checked": []any{huge}},
		map[string]any{"what": "x", "checked": []any{cyc}},
		map[string]any{"what": "x", "checked": []any{"y"}, huge: 1},
		map[string]any{"what": "x", "checked": []any{"y"}, "period": map[string]any{"queried": deep}},
		map[string]any{"what": "x", "checked": []any{"y"}, "paging": map[string]any{"next": cyc}},
		map[string]any{"facts": []any{cyc}},
		map[string]any{"facts": []any{1}, "grain": deep},
		struct{ A chan int }{},
	}
	for i, v := range values {
		for _, door := range []func(any) error{
			func(v any) error { _, err := AbsentData(v); return err },
			func(v any) error { _, err := WrapData(nil, v); return err },
			func(v any) error { _, err := DescribedData(v); return err },
		} {
			err := door(v)
			if err == nil {
				continue
			}
			if len(err.Error()) > 800 {
				t.Errorf("value %d: message of %d bytes", i, len(err.Error()))
			}
			if !strings.HasPrefix(err.Error(), RefusedPrefix) {
				t.Errorf("value %d: %q", i, err)
			}
		}
		_ = periodProblem(v, inCamel)
		_, _ = ReadCoverageResult(v, "t")
		_, _ = Served(v)
	}
	// Huge keys do not bloat the field path.
	_, err := AbsentData(map[string]any{"what": "x", "checked": []any{"y"}, huge: 1})
	if r := err.(*Refusal); len(r.Field) > 200 {
		t.Errorf("field path %d bytes", len(r.Field))
	}
	// A forged verdict word on a foreign absence is left off the record and served as written.
	forged := j(t, `{"af_absent":true,"looked_for":"x","checked":["y"],"period":{"queried":`+qJSON+`,"held":`+hJSON+`,"verdict":"covered"},"note":"N"}`)
	r, ok := ReadCoverageResult(forged, "t")
	if !ok || r.Declared[0].Period != nil || r.Problems[0].Field != "period.verdict" {
		t.Errorf("forged: %+v", r)
	}
	if out, ch := Served(forged); ch || !same(out, forged) {
		t.Error("forged word was served differently")
	}
	// Deeply nested ledgers serve without trouble.
	var nested any = must(AbsentData(j(t, `{"what":"x","checked":["y"],"period":`+seedP+`}`)))
	for range 2000 {
		nested = map[string]any{"af_coverage": map[string]any{"checked": []any{"a"}}, "result": nested}
	}
	if _, ch := Served(nested); !ch {
		t.Error("the innermost absence was not served")
	}
}

func TestUnicodeLengths(t *testing.T) {
	if textlen.UTF16("a😀é") != 4 {
		t.Error("len16")
	}
	if got := clipQuote(strings.Repeat("😀", 100)); textlen.UTF16(got) > 60 || !strings.HasSuffix(got, "…") {
		t.Errorf("clip %q", got)
	}
	if got := clipQuote("short"); got != `"short"` {
		t.Errorf("clip %q", got)
	}
}
