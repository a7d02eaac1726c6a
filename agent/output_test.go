// Typed answers on the scripted model: S16 (answerCoverage beside the JSON,
// never a block), one correction then a typed error for a non-conforming
// answer, and no key or byte when nothing arms answerCoverage.

package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

const failuresSchema = `{"type":"object","properties":{"failures":{"type":"integer","minimum":0},"host":{"type":"string"}},"required":["failures","host"],"additionalProperties":false}`

// goldenJSON compares got (indented) with testdata/name, rewriting it under -update.
func goldenJSON(t *testing.T, name string, got []byte) {
	t.Helper()
	var ind bytes.Buffer
	if err := json.Indent(&ind, got, "", "  "); err != nil {
		t.Fatal(err)
	}
	ind.WriteByte('\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, ind.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), ind.String()); diff != "" {
		t.Errorf("%s (-want +got):\n%s", name, diff)
	}
}

func TestOutputS16AnswerCoverage(t *testing.T) {
	const answer = `{"failures": 0, "host": "host-103"}`
	res, p, log := runResults(t, []scripted.Reply{oneCall("c1"), {Content: answer}},
		[]*tool.Tool{queueTool(t, "backup_runs", s1Absent(t, rlStale))},
		agent.WithOutputSchema(json.RawMessage(failuresSchema)), agent.WithResultsLayer(), agent.WithLimitsBlock())
	if res.Answer != answer {
		t.Errorf("the typed answer changed: got %q, want %q", res.Answer, answer)
	}
	// The key, the event and the accessor carry the same fold.
	v, ok := finalState(t, res, "answerCoverage")
	if !ok {
		t.Fatal("no answerCoverage key")
	}
	key := mustJSON(t, v)
	goldenJSON(t, "s16_answer_coverage.golden.json", []byte(key))
	ends := log.of(event.AgentTurnEnd)
	if len(ends) != 1 {
		t.Fatalf("got %d turn_end events", len(ends))
	}
	te := ends[0].Payload.(event.TurnEnd)
	if got := mustJSON(t, te.AnswerCoverage); got != key {
		t.Errorf("turn_end.answerCoverage = %s, want %s", got, key)
	}
	if got := mustJSON(t, res.AnswerCoverage); got != key {
		t.Errorf("AnswerCoverage = %s, want %s", got, key)
	}
	if te.FinalContent != answer {
		t.Errorf("turn_end.finalContent = %q", te.FinalContent)
	}
	// The standing still travels on turn_end (the results layer's note is kept).
	if te.AnswerAssessment == nil || res.Assessment == nil {
		t.Error("the assessment was lost on a typed answer")
	}
	// The model is told the schema in the system prompt.
	reqs := p.Requests()
	if sys := llm.SystemText(reqs[0].System); !strings.Contains(sys, `"required":["failures","host"]`) {
		t.Errorf("the first request does not carry the output schema: %q", sys)
	}
	// One conforming answer: no correction on the chart's path.
	for _, id := range stageIDs(res.Record) {
		if strings.HasPrefix(id, "output-correction") {
			t.Errorf("a conforming answer ran %s", id)
		}
	}
}

func TestOutputNonConforming(t *testing.T) {
	schema := agent.WithOutputSchema(json.RawMessage(failuresSchema))
	tests := []struct {
		name       string
		replies    []string
		wantAnswer string
		wantErr    []string // violations of the error; nil for success
	}{
		{
			name:       "corrected on the second call",
			replies:    []string{`{"failures":"none"}`, `{"failures":0,"host":"h"}`},
			wantAnswer: `{"failures":0,"host":"h"}`,
		},
		{
			name:    "still wrong after the correction",
			replies: []string{`{"failures":"none"}`, `{"failures":-1,"host":"h","extra":true}`},
			wantErr: []string{
				"(root): additional properties 'extra' not allowed",
				"/failures: minimum: got -1, want 0",
			},
		},
		{
			name:    "prose is not JSON",
			replies: []string{"No failures.", "```json\n{}\n```"},
			wantErr: []string{"(whole answer): not one JSON value: invalid character '`' looking for beginning of value"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var replies []scripted.Reply
			for _, r := range tc.replies {
				replies = append(replies, scripted.Reply{Content: r})
			}
			p := scripted.New(replies...)
			a := must(agent.New(p, schema, agent.WithLimitsBlock()))
			conv := a.NewConversation()
			res, err := conv.Send(context.Background(), agent.Input{Message: "Any failures?"})
			if p.Calls() != 2 {
				t.Errorf("model calls = %d, want 2 (the answer and one correction)", p.Calls())
			}
			// The second request ends with the correction naming the first answer's violations.
			reqs := p.Requests()
			last := reqs[1].Messages[len(reqs[1].Messages)-1]
			if last.Role != llm.RoleUser || !strings.HasPrefix(last.Content, "Your final answer does not conform") {
				t.Fatalf("second request's last message = %+v", last)
			}
			first := reqs[1].Messages[len(reqs[1].Messages)-2]
			if first.Role != llm.RoleAssistant || first.Content != tc.replies[0] {
				t.Errorf("the correction does not follow the first answer: %+v", first)
			}
			v, ok := finalState(t, res, "outputViolations")
			if !ok {
				t.Fatal("no outputViolations recorded")
			}
			if tc.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				if res.Answer != tc.wantAnswer {
					t.Errorf("answer = %q, want %q", res.Answer, tc.wantAnswer)
				}
				wantV := []string{"(root): missing property 'host'", "/failures: got string, want integer"}
				for _, w := range wantV {
					if !strings.Contains(last.Content, "\n- "+w+"\n") {
						t.Errorf("the correction does not name the violation %q:\n%s", w, last.Content)
					}
				}
				if diff := cmp.Diff(wantV, v); diff != "" {
					t.Errorf("outputViolations (-want +got):\n%s", diff)
				}
				// The correction is not a person's turn.
				res2, err := conv.Send(context.Background(), agent.Input{Message: "And yesterday?"})
				if err == nil || res2 == nil {
					t.Fatalf("follow-up: want the script to run out, got %v", err)
				}
				if got := turnNumberOf(t, res2); got != 2 {
					t.Errorf("the follow-up is turn %d, want 2", got)
				}
				return
			}
			var oe *agent.OutputError
			if !errors.As(err, &oe) {
				t.Fatalf("err = %v, want *agent.OutputError", err)
			}
			if diff := cmp.Diff(tc.wantErr, oe.Violations); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
			if oe.Answer != tc.replies[1] {
				t.Errorf("error's answer = %q", oe.Answer)
			}
			if diff := cmp.Diff(tc.wantErr, v); diff != "" {
				t.Errorf("recorded outputViolations (-want +got):\n%s", diff)
			}
			if res.Answer != "" || res.AnswerCoverage != nil {
				t.Errorf("a failed typed turn returned answer %q / coverage", res.Answer)
			}
		})
	}
}

// turnNumberOf reads the turn_start event's turn number from a result's record.
func turnNumberOf(t *testing.T, res *agent.Result) int {
	t.Helper()
	for _, e := range res.Record.Events.All() {
		if e.Type == event.AgentTurnStart {
			var ts event.TurnStart
			if err := json.Unmarshal([]byte(mustJSON(t, e.Payload)), &ts); err != nil {
				t.Fatal(err)
			}
			return ts.TurnNumber
		}
	}
	t.Fatal("no turn_start")
	return 0
}

// typedRun runs a typed agent over a tool that declares nothing, on a fixed
// clock, and returns the requests, the event stream and the final state keys.
func typedRun(t *testing.T, opts ...agent.Option) (reqs string, events []string, keys []string, res *agent.Result) {
	t.Helper()
	plainTool := must(tool.NewRaw("backup_runs", "Read backup runs.", json.RawMessage(`{"type":"object"}`),
		func(ctx context.Context, args json.RawMessage) (any, error) { return []int{}, nil }))
	p := scripted.New(oneCall("c1"), scripted.Reply{Content: `{"failures":0,"host":"h"}`})
	at := time.Date(2026, 9, 26, 10, 0, 0, 0, time.UTC)
	base := []agent.Option{agent.WithTools(plainTool), agent.WithID("typed"), agent.WithClock(func() time.Time { return at }),
		agent.WithOutputSchema(json.RawMessage(failuresSchema))}
	a := must(agent.New(p, append(base, opts...)...))
	log := &eventLog{}
	log.on(a)
	res, err := a.Run(context.Background(), agent.Input{Message: "Any failures?"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log.evs {
		events = append(events, string(e.Type)+" "+mustJSON(t, e.Payload))
	}
	rec := res.Record.Log
	for _, c := range rec.Commits {
		for _, op := range c.Ops {
			keys = append(keys, c.RuntimeStageID+":"+op.Key)
		}
	}
	return mustJSON(t, p.Requests()), events, keys, res
}

func TestOutputNothingArmedAddsNothing(t *testing.T) {
	plainReqs, plainEvents, plainKeys, plain := typedRun(t)
	limReqs, limEvents, limKeys, lim := typedRun(t, agent.WithLimitsBlock())
	if diff := cmp.Diff(plainReqs, limReqs); diff != "" {
		t.Errorf("requests differ (-unarmed +limits):\n%s", diff)
	}
	if diff := cmp.Diff(plainEvents, limEvents); diff != "" {
		t.Errorf("events differ (-unarmed +limits):\n%s", diff)
	}
	if diff := cmp.Diff(plainKeys, limKeys); diff != "" {
		t.Errorf("writes differ (-unarmed +limits):\n%s", diff)
	}
	for _, r := range []*agent.Result{plain, lim} {
		if _, ok := finalState(t, r, "answerCoverage"); ok {
			t.Error("answerCoverage written with nothing declared")
		}
		if r.AnswerCoverage != nil {
			t.Error("AnswerCoverage is not nil with nothing declared")
		}
		if r.Answer != `{"failures":0,"host":"h"}` {
			t.Errorf("answer = %q", r.Answer)
		}
	}
	for _, e := range limEvents {
		if strings.Contains(e, "answerCoverage") {
			t.Errorf("an event carries answerCoverage: %s", e)
		}
	}
	// A declaring tool without WithLimitsBlock: still no key, and no block.
	res, _, log := runResults(t, []scripted.Reply{oneCall("c1"), {Content: `{"failures":0,"host":"h"}`}},
		[]*tool.Tool{queueTool(t, "backup_runs", s1Absent(t, rlStale))}, agent.WithOutputSchema(json.RawMessage(failuresSchema)))
	if _, ok := finalState(t, res, "answerCoverage"); ok || res.AnswerCoverage != nil {
		t.Error("answerCoverage without WithLimitsBlock")
	}
	if te := log.of(event.AgentTurnEnd)[0].Payload.(event.TurnEnd); te.AnswerCoverage != nil {
		t.Errorf("turn_end carries answerCoverage: %s", mustJSON(t, te.AnswerCoverage))
	}
}

func TestOutputUntypedChartUnchanged(t *testing.T) {
	p := scripted.New(scripted.Reply{Content: "x"})
	a := must(agent.New(p))
	res, err := a.Run(context.Background(), agent.Input{Message: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(res.Record.Structure); strings.Contains(s, "output-correction") || strings.Contains(s, "outputViolations") {
		t.Errorf("an untyped chart has the typed answer's node or keys: %s", s)
	}
	if res.AnswerCoverage != nil {
		t.Error("untyped AnswerCoverage is not nil")
	}
}

func TestOutputSchemaRefused(t *testing.T) {
	for _, s := range []string{`{"type":`, `{"type":"nonsense"}`, `{"$ref":"https://example.invalid/x.json"}`} {
		if _, err := agent.New(scripted.New(), agent.WithOutputSchema(json.RawMessage(s))); err == nil || !strings.Contains(err.Error(), "output schema") {
			t.Errorf("schema %s: err = %v, want a refusal naming the output schema", s, err)
		}
	}
}

func ExampleWithOutputSchema() {
	type verdict struct {
		Failures int    `json:"failures"`
		Host     string `json:"host"`
	}
	s, err := jsonschema.For[verdict](nil)
	if err != nil {
		panic(err)
	}
	schema, _ := json.Marshal(s)
	p := scripted.New(scripted.Reply{Content: `{"failures":0,"host":"host-103"}`})
	a, err := agent.New(p, agent.WithOutputSchema(schema))
	if err != nil {
		panic(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Any failed backups on host-103?"})
	if err != nil {
		panic(err)
	}
	var v verdict
	_ = json.Unmarshal([]byte(res.Answer), &v)
	fmt.Println(v.Host, v.Failures)
	// Output: host-103 0
}

// FuzzOutputAnswer feeds any final answer to a typed agent: the turn either
// returns that answer unchanged or ends with an *OutputError naming at least
// one violation (a blank reply ends with ErrEmptyReply), never anything else.
func FuzzOutputAnswer(f *testing.F) {
	for _, s := range []string{`{"failures":0,"host":"h"}`, `{"failures":"x"}`, "", "null", `[1,2]`, "```json\n{}\n```", `{"failures":1e400,"host":"h"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		p := scripted.New(scripted.Reply{Content: answer}, scripted.Reply{Content: answer})
		a, err := agent.New(p, agent.WithOutputSchema(json.RawMessage(failuresSchema)))
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Run(context.Background(), agent.Input{Message: "q"})
		if err == nil {
			if res.Answer != answer {
				t.Fatalf("answer changed: %q -> %q", answer, res.Answer)
			}
			return
		}
		if strings.TrimSpace(answer) == "" && errors.Is(err, agent.ErrEmptyReply) {
			return // a blank reply ends the run before any answer exists to check
		}
		var oe *agent.OutputError
		if !errors.As(err, &oe) || len(oe.Violations) == 0 || oe.Answer != answer {
			t.Fatalf("err = %v, want an *OutputError with violations for %q", err, answer)
		}
	})
}
