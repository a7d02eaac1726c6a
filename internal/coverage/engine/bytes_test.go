package engine

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Issue 12 item 8: a tool's bytes are read, never repaired. Invalid UTF-8 is named as a problem
// (refused at a door, reported by the reader) and written back as it came; numbers keep their
// spelling; a retry_returns_the_same that is not true is reported.

func TestInvalidUTF8KeptAndNamed(t *testing.T) {
	env := []byte("{\"af_absent\":true,\"outcome\":\"nothing_found\",\"looked_for\":\"host-\xff7\",\"checked\":[{\"what\":\"a\\u00e9\\ud83d\\ude00\"}],\"retry_returns_the_same\":true,\"note\":\"n\"}")
	v, err := DecodeJSON(env)
	if err != nil {
		t.Fatal(err)
	}
	o := v.(Object)
	if lf, _ := o.Get("looked_for"); lf != "host-\xff7" {
		t.Errorf("looked_for decoded as %q; the byte must stay", lf)
	}
	b, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := bytes.ReplaceAll(env, []byte(`a\u00e9\ud83d\ude00`), []byte("aé😀")); !bytes.Equal(b, want) {
		t.Errorf("re-encoded\n got %q\nwant %q", b, want)
	}
	r, ok := ReadCoverageResult(v, "t")
	if !ok || len(r.Problems) != 1 || r.Problems[0].Field != "looked_for" || !strings.Contains(r.Problems[0].Message, "not UTF-8") {
		t.Fatalf("reader: %v %+v", ok, r.Problems)
	}
	served, _ := Served(v)
	if sb, _ := Marshal(served); !bytes.Contains(sb, []byte("host-\xff7")) {
		t.Errorf("served %q lost the tool's byte", sb)
	}
	// A ledger names the path inside af_coverage.
	led, _ := DecodeJSON([]byte("{\"af_coverage\":{\"checked\":[{\"what\":\"db\xc3\"}],\"note\":\"n\"},\"result\":1}"))
	if r, _ := ReadCoverageResult(led, "t"); len(r.Problems) != 1 || r.Problems[0].Field != "af_coverage.checked[0].what" {
		t.Errorf("ledger problems %+v", r.Problems)
	}
	// A described envelope is strict: not recognized.
	sem, _ := DecodeJSON([]byte("{\"af_semantics\":true,\"edges\":[{\"from\":\"a\",\"to\":\"b\xfe\",\"kind\":\"k\"}],\"note\":\"n\"}"))
	if _, p := ReadSemantics(sem); p == nil || p.Field != "edges[0].to" {
		t.Errorf("semantics problem %+v", p)
	}
	// The doors refuse, naming the field as the author wrote it; a key is named too.
	for _, c := range []struct {
		door  func([]byte) error
		in    string
		field string
	}{
		{func(b []byte) error { _, err := AbsentData(b); return err }, "{\"what\":\"x\xff\",\"checked\":[\"y\"]}", "what"},
		{func(b []byte) error { _, err := WrapData(nil, b); return err }, "{\"checked\":[{\"what\":\"y\",\"why\":\"\xe2\x82\"}]}", "checked[0].why"},
		{func(b []byte) error { _, err := DescribedData(b); return err }, "{\"edges\":[{\"from\":\"a\"}],\"render\":{\"default\":\"t\",\"so\xffrt\":\"x\"}}", "render.so\xffrt"},
	} {
		_, err := DecodeJSON([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		refusedAt(t, c.door([]byte(c.in)), c.field)
	}
}

func TestNumbersKeepTheirBytes(t *testing.T) {
	in := `{"af_coverage":{"checked":["a"],"period":{"queried":` + qJSON + `,"held":"unknown"},"note":"n"},"result":{"big":1e999,"price":12.50,"e":1E2,"neg":-0.0}}`
	v, err := DecodeJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	served, changed := Served(v)
	if !changed {
		t.Fatal("an unknown period is served with its verdict")
	}
	b, _ := Marshal(served)
	if !bytes.Contains(b, []byte(`"result":{"big":1e999,"price":12.50,"e":1E2,"neg":-0.0}`)) {
		t.Errorf("served %s", b)
	}
	// Through a door, the value a tool wraps keeps its bytes too, in Go and JSON form alike.
	for _, res := range []any{json.RawMessage(`{"big":1e999}`), map[string]any{"big": json.Number("1e999")}} {
		c, err := WrapData(res, []byte(`{"checked":["a"]}`))
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(c); !bytes.Contains(b, []byte(`"result":{"big":1e999}`)) {
			t.Errorf("wrapped %s", b)
		}
	}
}

func TestRetryReturnsTheSameNotTrue(t *testing.T) {
	for _, v := range []string{"false", "0", "{}", `"true"`, "null"} {
		env := j(t, `{"af_absent":true,"outcome":"nothing_found","looked_for":"x","checked":["y"],"retry_returns_the_same":`+v+`,"note":"n"}`)
		r, ok := ReadCoverageResult(env, "t")
		if !ok || len(r.Problems) != 1 || r.Problems[0].Field != "retry_returns_the_same" {
			t.Errorf("%s: %v %+v", v, ok, r.Problems)
		}
		served, _ := Served(env)
		if got, _ := served.(Object).Get("retry_returns_the_same"); mustJSON(t, got) != v {
			t.Errorf("%s served as %v", v, got)
		}
	}
	env := j(t, `{"af_absent":true,"looked_for":"x","checked":["y"],"retry_returns_the_same":true,"note":"n"}`)
	if r, _ := ReadCoverageResult(env, "t"); len(r.Problems) != 0 {
		t.Errorf("true reported: %+v", r.Problems)
	}
}
