// Acceptance scenario 1: the planted poisoned fact walked back from the
// record alone, after a JSON round trip decoded in a fresh process.

package explain_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/google/go-cmp/cmp"
)

func fixedClock() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) }

// chainJSON encodes a chain with indentation.
func chainJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, d)
	}
}

// TestFreshProcessBacktrack is the child half of TestScenario1: it runs only
// when the parent re-executes the test binary with the record path set.
func TestFreshProcessBacktrack(t *testing.T) {
	in, out := os.Getenv("EXPLAIN_RECORD_IN"), os.Getenv("EXPLAIN_CHAIN_OUT")
	if in == "" || out == "" {
		t.Skip("child process of TestScenario1 only")
	}
	rec, err := explain.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := explain.Backtrack(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, chainJSON(t, ch), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestScenario1PoisonedFact(t *testing.T) {
	r := newRefunds(t)
	live := r.run(t, refundsModel(false))
	liveChain, err := explain.Backtrack(live, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}

	// Save the record and reopen it in a fresh process.
	dir := t.TempDir()
	recPath, outPath := filepath.Join(dir, "record.json"), filepath.Join(dir, "chain.json")
	data, err := json.Marshal(live)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(recPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFreshProcessBacktrack$", "-test.count=1")
	cmd.Env = append(os.Environ(), "EXPLAIN_RECORD_IN="+recPath, "EXPLAIN_CHAIN_OUT="+outPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fresh process: %v\n%s", err, out)
	}
	fresh, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(chainJSON(t, liveChain)), string(fresh)); d != "" {
		t.Fatalf("chain after reload differs from the live one (-live +fresh):\n%s", d)
	}
	var ch explain.Chain
	if err := json.Unmarshal(fresh, &ch); err != nil {
		t.Fatal(err)
	}

	// ANSWER: the last call-llm step, made final by prepare-final.
	calls := stepsOf(live, "call-llm")
	if ch.Answer.Step != calls[len(calls)-1] || !strings.HasPrefix(ch.Answer.Via, "prepare-final#") {
		t.Errorf("answer = %+v, want the last model call %s via prepare-final", ch.Answer, calls[len(calls)-1])
	}
	if !strings.HasPrefix(ch.Answer.Text, "APPROVED") {
		t.Errorf("answer text = %q", ch.Answer.Text)
	}
	// READ includes contextUnits ← context#m.
	var ctxStep string
	for _, h := range ch.Read {
		if h.Key == "contextUnits" {
			ctxStep = h.Writer
		}
	}
	if !strings.HasPrefix(ctxStep, "context#") {
		t.Fatalf("read = %+v, want contextUnits written by a context step", ch.Read)
	}
	if len(ch.Suspects) == 0 || ch.Suspects[0].Unit != "vip-override" {
		t.Fatalf("suspects = %+v, want vip-override first", ch.Suspects)
	}
	s := ch.Suspects[0]
	// LANDED: context#m, system slot, a span whose unescaped bytes are the fact.
	if s.Landed.Step != ctxStep || s.Landed.Slot != "system" || s.Landed.Span == nil {
		t.Fatalf("landed = %+v", s.Landed)
	}
	body := requestBytes(t, live, s.Landed.Span.RequestSha256)
	var text string
	if err := json.Unmarshal([]byte(`"`+string(body[s.Landed.Span.Start:s.Landed.Span.End])+`"`), &text); err != nil || text != vipText {
		t.Errorf("span text = %q (%v), want the fact text", text, err)
	}
	// ALLOWED: always.
	if s.Allowed.Trigger == nil || s.Allowed.Trigger.Kind != "always" {
		t.Errorf("allowed = %+v", s.Allowed)
	}
	// BORN: the fact, this test file and line, the matching hash.
	if s.Born.Kind != "fact" || s.Born.DefinedAt == nil || !strings.HasSuffix(s.Born.DefinedAt.File, "explain/fixture_test.go") || s.Born.DefinedAt.Line != r.vipLine {
		t.Errorf("born = %+v, want fact defined at fixture_test.go:%d", s.Born, r.vipLine)
	}
	if s.Born.ContentHash != r.bp.Units[0].Definition().ContentHash {
		t.Errorf("contentHash = %s, want %s", s.Born.ContentHash, r.bp.Units[0].Definition().ContentHash)
	}
	if len(ch.Flags) != 0 {
		t.Errorf("flags = %v, want none", ch.Flags)
	}
	// No caller-supplied prose: the only strings are the record's own.
	golden(t, "scenario1_backtrack.golden.json", chainJSON(t, portable(ch)))
}

// portable drops the build directory from definition sites so the golden
// does not depend on where the module is checked out.
func portable(ch explain.Chain) explain.Chain {
	for i := range ch.Suspects {
		if d := ch.Suspects[i].Born.DefinedAt; d != nil {
			c := *d
			c.File = filepath.Base(c.File)
			ch.Suspects[i].Born.DefinedAt = &c
		}
	}
	return ch
}

// stepsOf lists the runtime ids of a stage's commits.
func stepsOf(rec *record.Record, stage string) []string {
	var out []string
	for _, c := range rec.Log.Commits {
		if c.StageID == stage {
			out = append(out, c.RuntimeStageID)
		}
	}
	return out
}

// requestBytes finds the request blob with the given hash.
func requestBytes(t *testing.T, rec *record.Record, sha string) []byte {
	t.Helper()
	b, ok := rec.Blob(sha)
	if !ok {
		t.Fatalf("no request blob %s", sha)
	}
	return b
}

func TestWriteDirOpen(t *testing.T) {
	r := newRefunds(t)
	live := r.run(t, refundsModel(false))
	dir := filepath.Join(t.TempDir(), "run")
	if err := explain.WriteDir(live, dir); err != nil {
		t.Fatal(err)
	}
	rec, err := explain.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := explain.Backtrack(live, explain.Target{})
	b, err := explain.Backtrack(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(chainJSON(t, a)), string(chainJSON(t, b))); d != "" {
		t.Errorf("chain from the directory differs (-live +dir):\n%s", d)
	}
	// A tampered blob is refused by name.
	var name string
	for k := range live.Blobs {
		name = k
		break
	}
	if err := os.WriteFile(filepath.Join(dir, "blobs", name), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := explain.Open(dir); err == nil || !strings.Contains(err.Error(), name) {
		t.Errorf("tampered blob: err = %v", err)
	}
	if _, err := explain.Open(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing file was accepted")
	}
	if err := os.WriteFile(filepath.Join(dir, "record.json"), []byte(`{"format":"other/1"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := explain.Open(dir); err == nil || !strings.Contains(err.Error(), "record.json") {
		t.Errorf("wrong format: err = %v", err)
	}
}

// TestAllowedRuleContinuesChain: a rule trigger's reads name the step that
// last wrote each key, so the chain goes on past ALLOWED.
func TestAllowedRuleContinuesChain(t *testing.T) {
	vip := inject.Must(inject.Instruction("vip-tone", vipText, inject.Rule{Label: "message mentions a refund", When: func(r flow.Reader) bool {
		v, _ := r.Get("userMessage")
		s, _ := v.(string)
		return strings.Contains(s, "refund")
	}}))
	a, err := agent.New(refundsModel(false), agent.WithUnits(vip))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: question})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := explain.Backtrack(res.Record, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	tr := ch.Suspects[0].Allowed.Trigger
	if ch.Suspects[0].Unit != "vip-tone" || tr == nil || tr.Kind != "rule" || tr.Label != "message mentions a refund" ||
		tr.Matched == nil || !*tr.Matched || len(tr.Reads) != 1 || tr.Reads[0] != (inject.KeyRead{Key: "userMessage", Writer: "seed#0", Commit: 1}) {
		t.Errorf("allowed = %+v", ch.Suspects[0].Allowed)
	}
	if ch.Suspects[0].Born.Kind != "instruction" || !strings.HasPrefix(ch.Answer.Text, "APPROVED") {
		t.Errorf("born %+v answer %q", ch.Suspects[0].Born, ch.Answer.Text)
	}
}
