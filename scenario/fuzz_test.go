// Fuzz target for the loader: any input is refused with a *FieldError or loads into a file
// the agent accepts; nothing panics.

package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("testdata/valid/*.json")
	paths = append(paths, "examples/ops-triage.json", "examples/triage-lead.json")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		`{"replies":[],"turns":[{"user":"hi"}]}`,
		`{"tools":[{"name":"a","results":[{"value":1,"coverage":{"checked":["x"],"period":{"queried":{"from":"2026-01-01T00:00:00Z","to":"2026-01-01T01:00:00Z"},"held":"unknown"}}}]}],"replies":[],"turns":[{"user":"hi"}]}`,
		`{"agent":{"units":[{"id":"u","kind":"instruction","text":"t","when":{"key":"k","equals":[1,{"a":null}]}}]},"replies":[],"turns":[{"user":"x"}]}`,
		`{"replies":[{"toolCalls":[{"name":"x","argsText":"{"}],"error":{"kind":"rate-limit","message":"m"}}],"turns":[{"user":"x"},{"resume":null}]}`,
		`{"expect":{"toolCalls":[{"name":"a","args":{}}],"statuses":[""]},"replies":[],"turns":[{"user":"x"}]}`,
		`{"agent":{"time":{"zone":"Europe/Oslo","now":"2026-09-26T10:00:00Z"},"resultsLayer":true},"tools":[{"name":"s","inputSchema":{"type":"object","properties":{"w":{"type":"string"}}},"askOrAssume":{"w":{"assume":"1h"}},"period":{"argument":"w","spelling":"lookback"},"retention":"30d"}],"replies":[],"turns":[{"user":"x"}],"expect":{"standing":"known","reasons":["coverage-gap"]}}`,
		`{"agents":[{"name":"a","replies":[],"agentTools":[{"name":"t","agent":"a"}]}],"compose":{"parallel":{"name":"p","branches":[{"agent":"a","required":true}],"merge":{"join":""}}},"turns":[{"user":"x"}]}`,
		`{"agents":[{"name":"a","replies":[]}],"compose":{"loop":{"name":"l","budget":2,"body":{"conditional":{"name":"c","routes":[{"name":"r","step":{"agent":"a"}}]}}}},"turns":[{"user":"x"}]}`,
		`[`, `null`, `{"replies":[],"turns":[{"user":"hi"}]} x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %T is not a *FieldError: %v", err, err)
			}
			return
		}
		if file.Question() == "" {
			t.Fatal("a loaded file has no question")
		}
		if !utf8.Valid(data) {
			t.Fatal("a file that is not UTF-8 loaded (its bad bytes were replaced)")
		}
		// Whatever loads, the agent accepts.
		if _, err := file.newAgent(&runTools{next: map[string]int{}}, &runConfig{}); err != nil {
			t.Fatalf("loaded, but the agent refuses it: %v", err)
		}
	})
}
