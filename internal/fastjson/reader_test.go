package fastjson

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReaderReadsTheWrittenForm(t *testing.T) {
	type thing struct {
		Name  string
		Kind  string
		Count int
		Big   int64
		On    bool
		Tags  []string
		Value json.RawMessage
		Sub   map[string]int
	}
	data := []byte(` {"name":"héllo","kind":"k","count":-12,"big":9007199254740993,"on":true,
		"tags":["a","b"],"value":{"x":[1,2.5e-3,"\u00e9",null,false]},"sub":{"a-1":1,"a-1":2,"b#2":3}} `)
	r := NewReader(data)
	var got thing
	got.Sub = map[string]int{}
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "name":
			got.Name, ok = r.Str()
		case "kind":
			got.Kind, ok = r.Word()
		case "count":
			got.Count, ok = r.Int()
		case "big":
			got.Big, ok = r.Int64()
		case "on":
			got.On, ok = r.Bool()
		case "tags":
			got.Tags, ok = r.Words()
		case "value":
			got.Value, ok = r.Raw()
		case "sub":
			ok = r.Map(func(key []byte) bool {
				n, ok := r.Int()
				got.Sub[string(key)] = n
				return ok
			})
		}
		return ok
	})
	if !ok || !r.Done() {
		t.Fatalf("the reader gave up on %s", data)
	}
	var want thing
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("readings differ (-encoding/json +fastjson):\n%s", d)
	}
}

func TestReaderGivesUp(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		read       func(r *Reader) bool
	}{
		{"an escape in a plain string", `"a\n"`, func(r *Reader) bool { _, ok := r.Str(); return ok }},
		{"a control byte", "\"a\x01\"", func(r *Reader) bool { _, ok := r.Str(); return ok }},
		{"not UTF-8", "\"a\xff\"", func(r *Reader) bool { _, ok := r.Str(); return ok }},
		{"a null string", `null`, func(r *Reader) bool { _, ok := r.Str(); return ok }},
		{"a fraction", `1.5`, func(r *Reader) bool { _, ok := r.Int(); return ok }},
		{"an exponent", `1e3`, func(r *Reader) bool { _, ok := r.Int(); return ok }},
		{"a leading zero", `012`, func(r *Reader) bool { _, ok := r.Int(); return ok && r.Done() }},
		{"past int64", `9223372036854775808`, func(r *Reader) bool { _, ok := r.Int64(); return ok }},
		{"a member twice", `{"a":1,"a":2}`, func(r *Reader) bool {
			return r.Object(func([]byte) bool { _, ok := r.Int(); return ok })
		}},
		{"a name with a dash", `{"a-b":1}`, func(r *Reader) bool {
			return r.Object(func([]byte) bool { _, ok := r.Int(); return ok })
		}},
		{"a bad escape in a raw value", `"\x"`, func(r *Reader) bool { _, ok := r.Raw(); return ok }},
		{"a short \\u escape", `"\u12"`, func(r *Reader) bool { _, ok := r.Raw(); return ok }},
		{"a trailing comma", `[1,]`, func(r *Reader) bool { _, ok := r.Raw(); return ok }},
		{"a bare minus", `-`, func(r *Reader) bool { _, ok := r.Raw(); return ok }},
		{"too deep", deep(MaxDepth + 2), func(r *Reader) bool { _, ok := r.Raw(); return ok }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.read(NewReader([]byte(tt.data))) {
				t.Errorf("the reader took %q", tt.data)
			}
		})
	}
}

func deep(n int) string {
	s := ""
	for range n {
		s += "["
	}
	for range n {
		s += "]"
	}
	return s
}

// FuzzReader checks the reader against encoding/json: a raw value it takes
// is JSON and kept byte for byte, and a string or integer it takes reads as
// encoding/json reads it.
func FuzzReader(f *testing.F) {
	for _, s := range []string{`"a\"b\\c\/\b\f\n\r\t"`, `"\ud83d\ude00 \ud800 \udc00x \ud800\u0041"`, "\"\xff\xe9t\xc3\xa9\"", `"\u00E9\u00e9"`, `{"a":[1,-2.5e+3,true,false,null,"\u00e9\n"]}`, `"plain"`, `-0`, `12`, `[]`, `{}`, `"é"`, deep(20)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(data)
		if raw, ok := r.Raw(); ok && r.Done() {
			if !json.Valid(data) {
				t.Fatalf("Raw took what is not JSON: %q", data)
			}
			var back json.RawMessage
			if err := json.Unmarshal(data, &back); err != nil || string(back) != string(raw) {
				t.Fatalf("Raw kept %q, encoding/json %q (%v)", raw, back, err)
			}
		}
		if s, ok := NewReader(data).Str(); ok {
			var want string
			sr := NewReader(data)
			sr.Str()
			if sr.Done() {
				if err := json.Unmarshal(data, &want); err != nil || want != s {
					t.Fatalf("Str read %q, encoding/json %q (%v)", s, want, err)
				}
			}
		}
		tr := NewReader(data)
		if s, ok := tr.Text(); ok && tr.Done() {
			var want string
			if err := json.Unmarshal(data, &want); err != nil || want != s {
				t.Fatalf("Text read %q, encoding/json %q (%v) from %q", s, want, err, data)
			}
		} else if !ok {
			var v string
			if json.Unmarshal(data, &v) == nil && len(data) > 0 && data[0] == '"' {
				t.Fatalf("Text gave up on %q, which encoding/json reads as %q", data, v)
			}
		}
		sp := NewReader(data)
		if span, ok := sp.Span(); ok && sp.Done() {
			var back json.RawMessage
			if err := json.Unmarshal(data, &back); err != nil || string(back) != string(span) {
				t.Fatalf("Span gave %q, encoding/json %q (%v)", span, back, err)
			}
		}
		ir := NewReader(data)
		if n, ok := ir.Int64(); ok && ir.Done() {
			var want int64
			if err := json.Unmarshal(data, &want); err != nil || want != n {
				t.Fatalf("Int64 read %d, encoding/json %d (%v) from %q", n, want, err, data)
			}
		}
	})
}

func TestTextDecodesAsEncodingJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`"tab\there \"quoted\" back\\slash\/"`, "tab\there \"quoted\" back\\slash/"},
		{`"\u00e9\u00E9"`, "éé"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\ud800x"`, "\uFFFDx"},                  // a high surrogate alone
		{`"\udc00\ud800\u0041"`, "\uFFFD\uFFFDA"}, // a low one first, then a high one before a letter
		{"\"a\xffb\"", "a\uFFFDb"},                // a byte that starts no rune
	} {
		r := NewReader([]byte(tc.in))
		got, ok := r.Text()
		if !ok || !r.Done() {
			t.Errorf("Text(%s) gave up", tc.in)
			continue
		}
		var want string
		if err := json.Unmarshal([]byte(tc.in), &want); err != nil {
			t.Fatal(err)
		}
		if got != tc.want || got != want {
			t.Errorf("Text(%s) = %q, want %q (encoding/json: %q)", tc.in, got, tc.want, want)
		}
	}
	for _, bad := range []string{`"open`, "\"ctl\x01\"", `"\x"`, `"\u12"`, `'x'`, `12`} {
		if s, ok := NewReader([]byte(bad)).Text(); ok {
			t.Errorf("Text(%s) = %q, want a refusal", bad, s)
		}
	}
}
