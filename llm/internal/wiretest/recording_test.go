package wiretest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseYAMLSubset(t *testing.T) {
	in := `---
version: 1
interactions:
- request:
    body: '{"a":"it''s
      folded"}'
    form: {}
    headers:
      Anthropic-Version:
      - "2023-06-01"
      - "tab\there \u00e9"
    url: https://x/v1?beta=true
  response:
    body: |+
      event: ping
      data: {"type": "ping"}


    code: 200
    plain: hello # comment
- request:
    body: "multi \
      joined"
  response:
    body: |-
      kept
      lines

    code: 404
`
	got, err := ParseYAML(in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"version": "1",
		"interactions": []any{
			map[string]any{
				"request": map[string]any{
					"body":    `{"a":"it's folded"}`,
					"form":    map[string]any{},
					"headers": map[string]any{"Anthropic-Version": []any{"2023-06-01", "tab\there é"}},
					"url":     "https://x/v1?beta=true",
				},
				"response": map[string]any{"body": "event: ping\ndata: {\"type\": \"ping\"}\n\n\n", "code": "200", "plain": "hello"},
			},
			map[string]any{
				"request":  map[string]any{"body": "multi joined"},
				"response": map[string]any{"body": "kept\nlines", "code": "404"},
			},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseYAMLRefusals(t *testing.T) {
	for _, in := range []string{
		"a: 'never closed\n",
		"a: >\n  folded\n",
		"a: [1, 2]\n",
		"a: 1\n   b: 2\n",
		"a: 1\na: 2\n",
		"a: \"bad \\q\"\n",
	} {
		if _, err := ParseYAML(in); err == nil {
			t.Errorf("ParseYAML(%q) accepted", in)
		}
	}
}

func FuzzParseYAML(f *testing.F) {
	f.Add("a: 1\nb:\n- x\n- y: 'z''\n  w'\n")
	f.Add("k: |+\n  l1\n\n  l2\n\nn: \"e\\u00e9\\\n  x\"\n")
	f.Add("- - a\n- b: {}\n")
	f.Fuzz(func(t *testing.T, in string) {
		_, _ = ParseYAML(in) // must not panic or hang
	})
}

func TestParseHTTPRR(t *testing.T) {
	req := "POST http://h/v1/chat HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}"
	resp := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-ndjson\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
	data := "httprr trace v1\n" + strconv.Itoa(len(req)) + " " + strconv.Itoa(len(resp)) + "\n" + req + resp
	recs, err := ParseHTTPRR([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].URL.Path != "/v1/chat" || string(recs[0].RequestBody) != "{}" || string(recs[0].Body) != "abc" || recs[0].Status != 200 {
		t.Errorf("recs = %+v", recs)
	}
	for _, bad := range []string{"nope", "httprr trace v1\n1\n", "httprr trace v1\n5 5\nab", "httprr trace v1\n-1 0\n"} {
		if _, err := ParseHTTPRR([]byte(bad)); err == nil {
			t.Errorf("ParseHTTPRR(%q) accepted", bad)
		}
	}
}

func FuzzParseHTTPRR(f *testing.F) {
	f.Add([]byte("httprr trace v1\n2 2\nabcd"))
	f.Add([]byte("httprr trace v1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseHTTPRR(data)
	})
}

// Every shared fixture parses.
func TestFixturesParse(t *testing.T) {
	dir := FixtureDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	n := 0
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		switch filepath.Ext(f) {
		case ".httprr", ".yaml":
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var recs []Recorded
			if filepath.Ext(f) == ".yaml" {
				recs, err = ParseCassette(data)
			} else {
				recs, err = ParseHTTPRR(data)
			}
			if err != nil || len(recs) == 0 {
				t.Errorf("%s: %d recordings, %v", rel, len(recs), err)
			}
			for _, r := range recs {
				if len(r.RequestBody) > 0 && !json.Valid(r.RequestBody) {
					t.Errorf("%s: request body is not JSON after folding: %.80s", rel, r.RequestBody)
				}
				if len(r.Body) == 0 || r.Status == 0 {
					t.Errorf("%s: empty recording %+v", rel, r.URL)
				}
			}
			n++
		}
	}
	if n < 10 {
		t.Errorf("only %d fixtures parsed", n)
	}
}
