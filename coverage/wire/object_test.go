package wire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeJSON(t *testing.T) {
	for _, bad := range []string{`{"a":1,"a":2}`, `{"a":1} {}`, strings.Repeat("[", 600) + strings.Repeat("]", 600), ``, `{`} {
		if _, err := DecodeJSON([]byte(bad)); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
	v, err := DecodeJSON([]byte(`{"b":1,"a":[true,null,"x"]}`))
	if err != nil || string(mustMarshal(t, v)) != `{"b":1,"a":[true,null,"x"]}` {
		t.Errorf("%v %s", err, string(mustMarshal(t, v)))
	}
}

// A duplicate key is named in the error, quoted and clipped like any other value in a message.
func TestDuplicateKeyQuoted(t *testing.T) {
	long := strings.Repeat("k", 300)
	_, err := DecodeJSON([]byte(`{"` + long + `":1,"` + long + `":2}`))
	if err == nil || !strings.Contains(err.Error(), "duplicate key \"kkk") || !strings.HasSuffix(err.Error(), "…") {
		t.Fatalf("error %v", err)
	}
	if got := quoteKey("a😀"); got != `"a😀"` {
		t.Errorf("quote %q", got)
	}
	o := Object{{Key: "a", Value: 1}}.With("b", 2).With("a", 3).Without("b")
	if string(mustMarshal(t, o)) != `{"a":3}` || len(o.Keys()) != 1 {
		t.Errorf("with/without %s", mustMarshal(t, o))
	}
}

// FuzzDecodeJSON: whatever DecodeJSON accepts encodes back to a document it reads the same way,
// and a document json.Valid accepts is never refused for its bytes.
func FuzzDecodeJSON(f *testing.F) {
	f.Add("{\"a\":\"x\xffy\",\"b\":[1e999,\"\\ud83d\\ude00\",\"\\ud800\"]}")
	f.Add(`{"n":12.50,"s":"\"\\\/\b\f\n\r\t"}`)
	f.Add("[\"\xc3\", {\"\xe2\x82\":null}, true, false]")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := DecodeJSON([]byte(s))
		if err != nil {
			if json.Valid([]byte(s)) && !strings.Contains(err.Error(), "duplicate key") && !strings.Contains(err.Error(), "nesting") {
				t.Fatalf("valid JSON %q refused: %v", s, err)
			}
			return
		}
		b, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		v2, err := DecodeJSON(b)
		if err != nil {
			t.Fatalf("re-read %q: %v", b, err)
		}
		if b2, _ := Marshal(v2); !bytes.Equal(b, b2) {
			t.Fatalf("not stable: %q then %q", b, b2)
		}
	})
}
