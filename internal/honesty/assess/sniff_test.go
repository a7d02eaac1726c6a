// Tests for the shape sniff: what it settles, what it leaves to the decoder, and, under fuzzing,
// that every answer it gives is the decoder's answer.

package assess

import "testing"

// slowRead is the reading without the sniff: decode, then read.
func slowRead(s, rowsAt string) (emptiness, bool) {
	v, ok := decoded(s)
	if !ok {
		return unreadable, false
	}
	return readValue(v, rowsAt, 0), isEnvelope(v)
}

func TestSniffResult(t *testing.T) {
	tests := []struct {
		name     string
		s        string
		rowsAt   string
		ok       bool
		reading  emptiness
		envelope bool
	}{
		{"text", "no failures found", "", true, unreadable, false},
		{"empty text", "", "", true, unreadable, false},
		{"number", " 42", "", true, unreadable, false},
		{"empty list", " [ ] ", "", true, emptyUndeclared, false},
		{"empty list then a note", "[]\n\n[note]", "", true, emptyUndeclared, false},
		{"list of rows", `[1]`, "", false, "", false},
		{"empty object", `{ }`, "", true, unreadable, false},
		{"plain object", `{"content":"checkout is degraded","n":12,"tags":["a","b"],"x":{"y":[{}]},"z":null}`, "", true, unreadable, false},
		{"af_coverage without result", `{"content":"checkout is degraded: error rate 12%","af_coverage":{"checked":["checkout"]}}`, "", true, unreadable, false},
		{"result without af_coverage", `{"result":[]}`, "", true, unreadable, false},
		{"escaped quote in a value", `{"a":"say \"af_absent\"","b":"\\"}`, "", true, unreadable, false},
		{"marker nested below the top", `{"a":{"af_absent":true,"checked":[{"what":"x"}]}}`, "", true, unreadable, false},
		{"absence", `{"af_absent":true,"checked":[{"what":"x"}]}`, "", false, "", false},
		{"semantics", `{"af_semantics":true}`, "", false, "", false},
		{"ledger", `{"af_coverage":{"checked":[{"what":"x"}]},"result":[]}`, "", false, "", false},
		{"rowsAt key", `{"rows":[]}`, "rows", false, "", false},
		{"escaped key", `{"af\u005fabsent":true,"checked":[{"what":"x"}]}`, "", false, "", false},
		{"unclosed object", `{"a":1`, "", false, "", false},
		{"missing colon", `{"a" 1}`, "", false, "", false},
		{"missing value", `{"a":}`, "", false, "", false},
		{"key not a string", `{a:1}`, "", false, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reading, envelope, ok := sniffResult(tt.s, tt.rowsAt)
			if ok != tt.ok || reading != tt.reading || envelope != tt.envelope {
				t.Fatalf("sniffResult = (%q, %v, %v), want (%q, %v, %v)", reading, envelope, ok, tt.reading, tt.envelope, tt.ok)
			}
			wantR, wantE := slowRead(tt.s, tt.rowsAt)
			if gotR, gotE := readResult(tt.s, tt.rowsAt); gotR != wantR || gotE != wantE {
				t.Fatalf("readResult = (%q, %v), decoder reads (%q, %v)", gotR, gotE, wantR, wantE)
			}
		})
	}
}

// FuzzSniffResult checks that the sniff never answers otherwise than the decoder would.
func FuzzSniffResult(f *testing.F) {
	for _, s := range []string{
		`{"content":"x","af_coverage":{"checked":["checkout"]}}`,
		`{"af_absent":true,"checked":[{"what":"x"}]} [note]`,
		`{"af_coverage":{"checked":[{"what":"x"}]},"result":{"rows":[]}}`,
		`[]` + "\n\n[note]",
		`[{"a":1,"a":2}]`,
		`{"a":"\"","b":[1,{"c":"]"}]}`,
		`{"rows":[],"next":null}`,
		`{"a":1}{"af_absent":true,"checked":[1]}`,
		` 7`,
	} {
		f.Add(s, "")
		f.Add(s, "rows")
	}
	f.Fuzz(func(t *testing.T, s, rowsAt string) {
		reading, envelope, ok := sniffResult(s, rowsAt)
		if !ok {
			return
		}
		if wantR, wantE := slowRead(s, rowsAt); reading != wantR || envelope != wantE {
			t.Fatalf("sniff reads %q as (%q, %v), the decoder as (%q, %v)", s, reading, envelope, wantR, wantE)
		}
	})
}
