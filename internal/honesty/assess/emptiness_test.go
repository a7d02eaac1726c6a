// Tests for the emptiness reader.

package assess

import "testing"

func TestReadEmptiness(t *testing.T) {
	tests := []struct {
		name   string
		result any
		rowsAt string
		want   emptiness
	}{
		{"absence", `{"af_absent":true,"checked":[{"what":"x"}]}`, "", emptyDeclared},
		{"absence needing composition", `{"af_absent":true,"checked":"declared"}`, "", emptyDeclared},
		{"ledger around empty list", `{"af_coverage":{"checked":[{"what":"x"}]},"result":[]}`, "", emptyDeclared},
		{"ledger around rows", `{"af_coverage":{"checked":[{"what":"x"}]},"result":[1]}`, "", nonEmpty},
		{"ledger around text", `{"af_coverage":{"checked":[{"what":"x"}]},"result":"ok"}`, "", unreadable},
		{"ledger around absence", `{"af_coverage":{"checked":[{"what":"x"}]},"result":{"af_absent":true,"checked":[{"what":"y"}]}}`, "", emptyDeclared},
		{"ledger around rowsAt object", `{"af_coverage":{"checked":[{"what":"x"}]},"result":{"rows":[]}}`, "rows", emptyDeclared},
		{"bare empty list", `[]`, "", emptyUndeclared},
		{"bare list", `[{"a":1}]`, "", nonEmpty},
		{"rowsAt empty", `{"rows":[],"next":null}`, "rows", emptyUndeclared},
		{"rowsAt full", `{"rows":[1]}`, "rows", nonEmpty},
		{"object without rowsAt", `{"rows":[]}`, "", unreadable},
		{"text", "no failures found", "", unreadable},
		{"number", `42`, "", unreadable},
		{"invalid JSON", `[`, "", unreadable},
		{"note served after the value", "[]\n\n[window was not given; the tool's default 2h was used]", "", emptyUndeclared},
		{"note after an absence", `{"af_absent":true,"checked":[{"what":"x"}]} [note]`, "", emptyDeclared},
		{"already decoded list", []any{}, "", emptyUndeclared},
		{"bytes", []byte(`[]`), "", emptyUndeclared},
		{"absence marker false", `{"af_absent":false,"checked":[{"what":"x"}]}`, "", unreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := readEmptiness(tt.result, tt.rowsAt); got != tt.want {
				t.Errorf("readEmptiness = %s, want %s", got, tt.want)
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
				if _, ok := Resolve(p, s); !ok {
					t.Fatalf("witness %+v of %s does not resolve", p, r.Reason)
				}
			}
		}
	})
}
