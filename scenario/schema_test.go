// Tests that the JSON Schema and the loader agree: every example file validates against the
// schema and loads; files the schema can tell are malformed are refused by both.

package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("scenario.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("scenario.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func schemaAccepts(t testing.TB, s *jsonschema.Schema, data []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// exampleFiles lists every scenario example: the files under scenario/examples,
// scenario/testdata/valid and docs/scenarios, and each whole scenario in docs/SCENARIOS.md.
func exampleFiles(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, pattern := range []string{"examples/*.json", "testdata/valid/*.json", "../docs/scenarios/*.json"} {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = b
		}
	}
	doc, err := os.ReadFile("../docs/SCENARIOS.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(doc, -1)
	for i, b := range blocks {
		if bytes.Contains(b[1], []byte(`"turns"`)) {
			out["docs/SCENARIOS.md block "+string(rune('A'+i))] = b[1]
		}
	}
	return out
}

func TestExamplesValidateAndLoad(t *testing.T) {
	s := compileSchema(t)
	files := exampleFiles(t)
	if len(files) < 6 {
		t.Fatalf("only %d examples found", len(files))
	}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			if err := schemaAccepts(t, s, data); err != nil {
				t.Errorf("schema: %v", err)
			}
			f, err := Parse(data)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			// Every example runs, and its expectations hold (matching.json pins one
			// call that finds no canned result).
			rep, err := Run(context.Background(), f)
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			want := 0
			if strings.HasSuffix(name, "matching.json") {
				want = 1
			}
			if ms := rep.Check(); len(ms) != want {
				t.Errorf("check: %v", ms)
			}
		})
	}
}

// The demo file shipped in the binary is the one under examples/.
func TestDemoFileIsTheExample(t *testing.T) {
	b, err := os.ReadFile("examples/ops-triage.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, DemoFile()) {
		t.Error("DemoFile differs from examples/ops-triage.json")
	}
}

func TestSchemaRefusesWhatTheLoaderRefuses(t *testing.T) {
	s := compileSchema(t)
	const tl = `"turns":[{"user":"hi"}]`
	for _, in := range []string{
		`{"replys":[],` + tl + `}`,
		`{` + tl + `}`,
		`{"replies":[]}`,
		`{"replies":[],"turns":[]}`,
		`{"replies":[],"turns":[{"user":"a","resume":"b"}]}`,
		`{"replies":[],"turns":[{"user":"  "}]}`,
		`{"tools":[{"name":"b","results":[{"value":1,"status":"sucess"}]}],"replies":[],` + tl + `}`,
		`{"tools":[{"name":"a","results":[{"value":1,"error":"x"}]}],"replies":[],` + tl + `}`,
		`{"tools":[{"name":"a","results":[{"error":"x","status":"failure"}]}],"replies":[],` + tl + `}`,
		`{"tools":[{"name":"bad name"}],"replies":[],` + tl + `}`,
		`{"tools":[{"name":"a","period":{"argument":"w"}}],"replies":[],` + tl + `}`,
		`{"tools":[{"name":"a","period":{"argument":"w","spelling":"lookbak"}}],"replies":[],` + tl + `}`,
		`{"tools":[{"name":"a","askOrAssume":{"w":{"asume":"1h"}}}],"replies":[],` + tl + `}`,
		`{"tools":[{"name":"a","resultCeiling":{"maxChars":0}}],"replies":[],` + tl + `}`,
		`{"agent":{"time":{"zone":"UTC","window":{}}},"replies":[],` + tl + `}`,
		`{"agent":{"time":{"zone":"UTC","clock":{}}},"replies":[],` + tl + `}`,
		`{"agent":{"resultsLayer":"yes"},"replies":[],` + tl + `}`,
		`{"agent":{"maxIterations":2.5},"replies":[],` + tl + `}`,
		`{"agent":{"units":[{"id":"u","kind":"fakt","text":"t"}]},"replies":[],` + tl + `}`,
		`{"agent":{"units":[{"id":"u","kind":"instruction","text":"t"}]},"replies":[],` + tl + `}`,
		`{"agent":{"units":[{"id":"u","kind":"fact","text":"t","when":{"key":"k","contains":"a","present":true}}]},"replies":[],` + tl + `}`,
		`{"agent":{"units":[{"id":"u","kind":"fact","text":"t","role":"user"}]},"replies":[],` + tl + `}`,
		`{"replies":[{"contnet":"x"}],` + tl + `}`,
		`{"replies":[{"toolCalls":[{"id":"x"}]}],` + tl + `}`,
		`{"replies":[{"stopReason":"end"}],` + tl + `}`,
		`{"replies":[],` + tl + `,"expect":{"statuses":["ok"]}}`,
		`{"replies":[],` + tl + `,"expect":{"standing":"sure"}}`,
		`{"replies":[],` + tl + `,"expect":{"reasons":["stale"]}}`,
	} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("the loader accepts %s", in)
		}
		if err := schemaAccepts(t, s, []byte(in)); err == nil {
			t.Errorf("the schema accepts %s", in)
		}
	}
}

// The schema names every key the loader knows, and no other.
func TestSchemaKeysMatchTheLoader(t *testing.T) {
	schema := string(Schema())
	for _, keys := range [][]string{fileKeys, agentKeys, unitKeys, whenKeys, toolKeys, ceilingKeys, resultKeys, turnKeys, expectKeys, replyKeys, callKeys} {
		for _, k := range keys {
			if !strings.Contains(schema, `"`+k+`":`) {
				t.Errorf("the schema does not describe %q", k)
			}
		}
	}
}

// The schema's reason words are the fold's closed list, in its order.
func TestSchemaReasonsAreTheFoldsReasons(t *testing.T) {
	var doc struct {
		Defs struct {
			Reason struct {
				Enum []string `json:"enum"`
			} `json:"reason"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(Schema(), &doc); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(assess.ReasonOrder(), doc.Defs.Reason.Enum); d != "" {
		t.Errorf("reasons (-fold +schema):\n%s", d)
	}
}
