// Tests for the emptiness reader.

package assess

import "testing"

func TestReadEmptiness(t *testing.T) {
	tests := []struct {
		name   string
		result any
		rowsAt string
		want   Emptiness
	}{
		{"absence", `{"af_absent":true,"checked":[{"what":"x"}]}`, "", EmptyDeclared},
		{"absence needing composition", `{"af_absent":true,"checked":"declared"}`, "", EmptyDeclared},
		{"ledger around empty list", `{"af_coverage":{"checked":[{"what":"x"}]},"result":[]}`, "", EmptyDeclared},
		{"ledger around rows", `{"af_coverage":{"checked":[{"what":"x"}]},"result":[1]}`, "", NonEmpty},
		{"ledger around text", `{"af_coverage":{"checked":[{"what":"x"}]},"result":"ok"}`, "", Unknown},
		{"ledger around absence", `{"af_coverage":{"checked":[{"what":"x"}]},"result":{"af_absent":true,"checked":[{"what":"y"}]}}`, "", EmptyDeclared},
		{"ledger around rowsAt object", `{"af_coverage":{"checked":[{"what":"x"}]},"result":{"rows":[]}}`, "rows", EmptyDeclared},
		{"bare empty list", `[]`, "", EmptyUndeclared},
		{"bare list", `[{"a":1}]`, "", NonEmpty},
		{"rowsAt empty", `{"rows":[],"next":null}`, "rows", EmptyUndeclared},
		{"rowsAt full", `{"rows":[1]}`, "rows", NonEmpty},
		{"object without rowsAt", `{"rows":[]}`, "", Unknown},
		{"text", "no failures found", "", Unknown},
		{"number", `42`, "", Unknown},
		{"invalid JSON", `[`, "", Unknown},
		{"note served after the value", "[]\n\n[window was not given; the tool's default 2h was used]", "", EmptyUndeclared},
		{"note after an absence", `{"af_absent":true,"checked":[{"what":"x"}]} [note]`, "", EmptyDeclared},
		{"already decoded list", []any{}, "", EmptyUndeclared},
		{"bytes", []byte(`[]`), "", EmptyUndeclared},
		{"absence marker false", `{"af_absent":false,"checked":[{"what":"x"}]}`, "", Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ReadEmptiness(tt.result, tt.rowsAt); got != tt.want {
				t.Errorf("ReadEmptiness = %s, want %s", got, tt.want)
			}
		})
	}
}

func FuzzFold(f *testing.F) {
	f.Add([]byte(s1), "rows")
	f.Add([]byte(`{"turnNumber":1,"findingsLedger":[{"kind":"period","turn":1,"verdict":"not-held"},7,null],"history":[{"role":"tool","content":"[]"}]}`), "")
	f.Add([]byte(`{"history":"x","coverageDeclared":{"a":1},"argumentAsk":{"waiting":1}}`), "x")
	f.Fuzz(func(t *testing.T, data []byte, rowsAt string) {
		s, err := InputFromJSON(data)
		if err != nil {
			return
		}
		a := Fold(s, WithRowsAt("", rowsAt))
		for _, r := range a.Reasons {
			for _, p := range r.Witness {
				if _, ok := p.Resolve(s); !ok {
					t.Fatalf("witness %+v of %s does not resolve", p, r.Reason)
				}
			}
		}
	})
}
