// This file runs the TypeScript differential corpus (coverage/testdata/tswire/corpus.json) through
// the `mint` and `check` faces: every envelope, refusal field and recognition the corpus records
// for the TypeScript implementation must come out of the Go CLI unchanged.

package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
)

const tsCorpus = "../../coverage/testdata/tswire/corpus.json"

func TestTypeScriptCorpus(t *testing.T) {
	data, err := os.ReadFile(tsCorpus)
	if err != nil {
		t.Fatal(err)
	}
	v, err := wire.DecodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	doc := v.(wire.Object)
	ts, _ := doc.Get("typescript")
	if ver, _ := ts.(wire.Object).Get("version"); ver == nil || ver == "" {
		t.Error("the corpus does not say which TypeScript version its expectations describe")
	}
	notes := canonicalNoteValues(t)
	raw, _ := doc.Get("cases")
	cases := raw.([]any)
	covered := map[string]bool{}
	for _, c := range cases {
		c := c.(wire.Object)
		name := str(c, "name")
		for _, m := range member(c, "covers").([]any) {
			covered[m.(string)] = true
		}
		if str(c, "source") == "" {
			t.Errorf("%s: no source for its expectation", name)
		}
		input, _ := c.Get("input")
		in, err := wire.Marshal(input)
		if err != nil {
			t.Fatal(err)
		}
		want := member(c, "ts").(wire.Object)
		t.Run(name, func(t *testing.T) {
			switch str(c, "face") {
			case "mint":
				mintCase(t, str(c, "door"), string(in), want, notes)
			case "check":
				checkCase(t, string(in), want)
			default:
				t.Fatalf("unknown face %q", str(c, "face"))
			}
		})
	}
	for _, m := range []string{"M1", "M2", "M3", "M4", "M5"} {
		if !covered[m] {
			t.Errorf("no case covers %s", m)
		}
	}
}

func mintCase(t *testing.T, door, in string, want wire.Object, notes map[string]string) {
	out, errText, code := runCLI(t, in, "mint", door, "--json")
	if env, ok := want.Get("envelope"); ok {
		if code != 0 {
			t.Fatalf("TypeScript mints it; Go exits %d: %s %s", code, out, errText)
		}
		b, err := wire.Marshal(env)
		if err != nil {
			t.Fatal(err)
		}
		wantText := string(b)
		for name, value := range notes {
			q, _ := json.Marshal(value)
			wantText = strings.ReplaceAll(wantText, `"<`+name+`>"`, string(q))
		}
		if got := strings.TrimSuffix(out, "\n"); got != wantText {
			t.Errorf("envelope differs from TypeScript's:\n got: %s\nwant: %s", got, wantText)
		}
		return
	}
	refused, _ := want.Get("refused")
	wantField, _ := refused.(wire.Object).Get("field")
	if code != 1 {
		t.Fatalf("TypeScript refuses it (field %v); Go exits %d: %s", wantField, code, out)
	}
	var got struct {
		Refused struct{ Field, Message string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Refused.Field != wantField {
		t.Errorf("refused at %q, TypeScript at %q (%s)", got.Refused.Field, wantField, got.Refused.Message)
	}
}

func checkCase(t *testing.T, in string, want wire.Object) {
	out, errText, code := runCLI(t, in, "check", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	var got struct {
		Recognized string
		Problems   []struct{ Field string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if w := str(want, "recognized"); got.Recognized != w {
		t.Errorf("recognized %q, TypeScript %q: %s", got.Recognized, w, out)
	}
	if w := str(want, "field"); w != "" {
		if len(got.Problems) == 0 || got.Problems[0].Field != w {
			t.Errorf("first problem %+v, TypeScript names %q", got.Problems, w)
		}
	} else if len(got.Problems) != 0 {
		t.Errorf("problems %+v, TypeScript reports none", got.Problems)
	}
}

// canonicalNoteValues reads the notes this implementation publishes, by their shared names.
func canonicalNoteValues(t *testing.T) map[string]string {
	var doc struct {
		Notes map[string]string `json:"notes"`
	}
	b, err := os.ReadFile("../../coverage/canonical-notes.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"ABSENCE_NOTE", "COVERAGE_NOTE", "SEMANTICS_NOTE"} {
		if doc.Notes[n] == "" {
			t.Fatalf("canonical-notes.json has no %s", n)
		}
	}
	return doc.Notes
}

func str(o wire.Object, key string) string {
	v, _ := o.Get(key)
	s, _ := v.(string)
	return s
}

func member(o wire.Object, key string) any {
	v, _ := o.Get(key)
	return v
}
