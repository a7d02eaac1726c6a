// Scenario corpora and retrieval units: inline and JSONL corpora, what the loader
// refuses, the schema's keys, and a fuzz target for the JSONL reader.

package scenario

import (
	"context"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/retrieval"
)

func TestCorpusFileBesideTheScenario(t *testing.T) {
	f, err := Load("testdata/corpus/scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := retrieval.Records(rep.Record)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Query != "how long is the refund window" {
		t.Fatalf("records: %+v", recs)
	}
	c := recs[0].Candidates
	if len(c) != 2 || c[0].ID != "refund-window" || !c[0].Picked || c[1].Dropped != inject.DropTopK {
		t.Errorf("candidates: %+v", c)
	}
	parts, err := f.Parts()
	if err != nil {
		t.Fatal(err)
	}
	if len(parts.Units) != 2 || parts.Units[0].ID() != "refund-window" || parts.Units[0].Definition().Slot != inject.SlotMessages {
		t.Errorf("units: %d, first %s in %s", len(parts.Units), parts.Units[0].ID(), parts.Units[0].Definition().Slot)
	}
}

func TestInlineCorpusRecordsCoverage(t *testing.T) {
	f, err := Load("testdata/valid/retrieval.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := retrieval.Records(rep.Record)
	if len(recs) != 1 || recs[0].Coverage == nil {
		t.Fatalf("records: %+v", recs)
	}
	if s := string(recs[0].Coverage); !strings.Contains(s, "incidents after March") {
		t.Errorf("coverage recorded as %s", s)
	}
}

func TestCorpusRefusals(t *testing.T) {
	const tail = `"replies":[],"turns":[{"user":"hi"}]}`
	const ok = `{"name":"kb","passages":[{"id":"p1","text":"one"}]}`
	for in, want := range map[string]string{
		`{"corpora":[{"name":"kb"}],` + tail:                                                                                     "corpora[0]: give the passages inline",
		`{"corpora":[{"name":"kb","passages":[],"file":"x.jsonl"}],` + tail:                                                      "one of the two",
		`{"corpora":[{"name":"kb","file":"x.jsonl"}],` + tail:                                                                    "scenario.Load",
		`{"corpora":[{"name":"KB","passages":[]}],` + tail:                                                                       "corpus name",
		`{"corpora":[{"name":"kb","passages":[{"id":"Bad","text":"t"}]}],` + tail:                                                "corpora[0].passages[0]",
		`{"corpora":[{"name":"kb","passages":[{"id":"p","text":""}]}],` + tail:                                                   "text is empty",
		`{"corpora":[{"name":"kb","passages":[{"id":"p","text":"t","metadata":{"n":1}}]}],` + tail:                               "corpora[0].passages[0].metadata.n",
		`{"corpora":[` + ok + `,` + ok + `],` + tail:                                                                             "corpora[1].name",
		`{"corpora":[{"name":"kb","passages":[{"id":"p","text":"t"}],"coverage":{"cannotCover":[{"what":"x"}]}}],` + tail:        "coverage",
		`{"agent":{"retrieval":[{"corpus":"nope"}]},` + tail:                                                                     "the file declares no corpora",
		`{"corpora":[` + ok + `],"agent":{"retrieval":[{"corpus":"kb"},{"corpus":"kb"}]},` + tail:                                "already retrieved",
		`{"corpora":[` + ok + `],"agent":{"units":[{"id":"p1","kind":"fact","text":"t"}],"retrieval":[{"corpus":"kb"}]},` + tail: "already the id of agent.units[0]",
		`{"corpora":[` + ok + `],"agent":{"retrieval":[{"corpus":"kb","threshold":2}]},` + tail:                                  "cosine score",
		`{"corpora":[` + ok + `],"agent":{"retrieval":[{"corpus":"kb","role":"user"}]},` + tail:                                  "slot",
		`{"corpora":[` + ok + `],"agent":{"retrieval":[{"corpus":"kb","topK":3,"candidates":2}]},` + tail:                        "fewer than topK",
		`{"corpora":[` + ok + `],"agent":{"retrieval":[{"corpus":"kb","topk":3}]},` + tail:                                       "unknown key",
	} {
		_, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s\n  err = %v, want it to mention %q", in, err, want)
		}
	}
}

func TestCorpusFileRefusals(t *testing.T) {
	dir := t.TempDir()
	for name, want := range map[string]string{"/etc/passwd": "absolute", "missing.jsonl": "no such file"} {
		if _, err := readCorpusFile("corpora[0].file", name, dir); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", name, err, want)
		}
	}
	if _, err := parseJSONL("c", []byte("{\"id\":\"a\",\"text\":\"t\"}\nnot json\n")); err == nil || !strings.Contains(err.Error(), "c line 2") {
		t.Errorf("a bad line: err = %v", err)
	}
}

func TestSchemaDescribesTheRetrievalKeys(t *testing.T) {
	schema := string(Schema())
	for _, keys := range [][]string{corpusKeys, passageKeys, retrievalKeys} {
		for _, k := range keys {
			if !strings.Contains(schema, `"`+k+`":`) {
				t.Errorf("the schema does not describe %q", k)
			}
		}
	}
	s := compileSchema(t)
	for _, in := range []string{
		`{"corpora":[{"name":"kb"}],"replies":[],"turns":[{"user":"hi"}]}`,
		`{"corpora":[{"name":"kb","passages":[{"id":"Bad","text":"t"}]}],"replies":[],"turns":[{"user":"hi"}]}`,
		`{"agent":{"retrieval":[{"corpus":"kb","threshold":2}]},"replies":[],"turns":[{"user":"hi"}]}`,
	} {
		if err := schemaAccepts(t, s, []byte(in)); err == nil {
			t.Errorf("the schema accepts %s", in)
		}
	}
}

func FuzzParseJSONL(f *testing.F) {
	f.Add([]byte("{\"id\":\"a\",\"text\":\"t\",\"metadata\":{\"k\":\"v\"}}\n\n{\"id\":\"b\",\"text\":\"u\"}"))
	f.Add([]byte("{\"id\":\"a\"}"))
	f.Add([]byte("[1,2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := parseJSONL("c", data)
		if err != nil {
			return
		}
		for _, p := range ps {
			if err := p.Validate(); err != nil {
				t.Fatalf("an invalid passage was accepted: %v", err)
			}
		}
	})
}
