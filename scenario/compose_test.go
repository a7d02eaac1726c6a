// Tests of composed scenario files: the loader's refusals by field path (the schema
// refuses the same), the keys the schema describes, and a composition's run.

package scenario

import (
	"context"
	"os"
	"strings"
	"testing"
)

const composedAgents = `"agents":[
  {"name":"a","replies":[{"content":"from a"}]},
  {"name":"b","replies":[{"content":"from b"}]}
]`

func TestComposedRefusals(t *testing.T) {
	s := compileSchema(t)
	const tl = `"turns":[{"user":"hi"}]`
	for _, tc := range []struct {
		in, path, problem string
		schemaToo         bool
	}{
		{`{` + composedAgents + `,"compose":{"agent":"c"},` + tl + `}`, "compose.agent", `no agent named "c"; the agents are a, b`, false},
		{`{"agents":[{"name":"a","replies":[]},{"name":"a","replies":[]}],"compose":{"agent":"a"},` + tl + `}`, "agents[1].name", `"a" is already the name of agents[0]`, false},
		{`{"agents":[{"replies":[]}],"compose":{"agent":"a"},` + tl + `}`, "agents[0].name", "missing", true},
		{`{` + composedAgents + `,"compose":{"loop":{"name":"l","body":{"agent":"a"}}},` + tl + `}`, "compose.loop.budget", "a loop needs a budget", true},
		{`{` + composedAgents + `,"compose":{"parallel":{"name":"p","branches":[{"agent":"a"}]}},` + tl + `}`, "compose.parallel.merge", "missing", true},
		{`{` + composedAgents + `,"compose":{"agent":"a","sequence":[]},` + tl + `}`, "compose", "a step is one of", true},
		{`{"agents":[{"name":"a","replies":[],"agentTools":[{"name":"ask_b","agent":"b"}]},{"name":"b","replies":[],"agentTools":[{"name":"ask_a","agent":"a"}]}],"compose":{"agent":"a"},` + tl + `}`, "agents[1].agentTools", "the agent tools ask in a circle: a → b → a", false},
		{`{"agents":[{"name":"a","replies":[{"contnet":"x"}]}],"compose":{"agent":"a"},` + tl + `}`, "agents[0].replies[0]", "", true},
		{`{` + composedAgents + `,"compose":{"agent":"a"}}`, "turns", "missing", true},
	} {
		_, err := Parse([]byte(tc.in))
		fe, ok := err.(*FieldError)
		if !ok || !strings.HasPrefix(fe.Path, tc.path) || !strings.Contains(fe.Problem, tc.problem) {
			t.Errorf("Parse(%s) = %v, want %s: …%s…", tc.in, err, tc.path, tc.problem)
		}
		if tc.schemaToo {
			if err := schemaAccepts(t, s, []byte(tc.in)); err == nil {
				t.Errorf("the schema accepts %s", tc.in)
			}
		}
	}
}

func TestComposedSchemaKeys(t *testing.T) {
	schema := string(Schema())
	for _, keys := range [][]string{composedKeys, composedAgentKeys, agentToolKeys, stepKinds, parallelKeys, branchKeys, mergeKeys, loopKeys, conditionalKeys, routeKeys} {
		for _, k := range keys {
			if !strings.Contains(schema, `"`+k+`":`) {
				t.Errorf("the schema does not describe %q", k)
			}
		}
	}
}

// TestComposedRun runs a sequence, a loop and a conditional from a file.
func TestComposedRun(t *testing.T) {
	in := `{"name":"c","agents":[
	  {"name":"a","replies":[{"content":"draft one"},{"content":"draft two, done"}]},
	  {"name":"db","replies":[{"content":"db says ok"}]},
	  {"name":"web","replies":[{"content":"web says ok"}]}
	],
	"compose":{"sequence":[
	  {"loop":{"name":"polish","budget":3,"body":{"agent":"a"},"untilContains":"done"}},
	  {"conditional":{"name":"pick","routes":[{"name":"db","contains":"database","step":{"agent":"db"}},{"name":"web","step":{"agent":"web"}}]}}
	]},
	"turns":[{"user":"write it"}],
	"expect":{"answer":"web says ok"}}`
	f, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if ms := rep.Check(); len(ms) != 0 {
		t.Errorf("check: %v", ms)
	}
	var ids []string
	for _, c := range rep.Record.Log.Commits {
		ids = append(ids, c.RuntimeStageID)
	}
	want := "input seed#0 loop:polish#1 agent:a#2 loop:polish:check#3 agent:a#4 loop:polish:check#5 route:pick#6 agent:web#7 answer#8"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("commits\n got %s\nwant %s", got, want)
	}
}

func TestTriageLeadExample(t *testing.T) {
	b, err := os.ReadFile("examples/triage-lead.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if f.composed == nil {
		t.Fatal("the example is not read as a composition")
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Standing == nil || rep.Standing.Standing != "not-sure" || rep.RollUp == nil || rep.RollUp.Reasons[0].Agent != "logs" {
		t.Errorf("standing %+v, roll-up %+v", rep.Standing, rep.RollUp)
	}
}

// TestComposedPauseResume: an inner agent's pause pauses the composed scenario, and the
// resume turn answers it through the composition; the next agent then runs.
func TestComposedPauseResume(t *testing.T) {
	in := `{"name":"c","agents":[
	  {"name":"ops","tools":[{"name":"approve","results":[{"pause":{"question":"Roll back?"}}]}],
	   "replies":[{"toolCalls":[{"id":"a1","name":"approve","args":{}}]},{"content":"rolled back"}]},
	  {"name":"writer","replies":[{"content":"Summary: rolled back."}]}
	],
	"compose":{"sequence":[{"agent":"ops"},{"agent":"writer"}]},
	"turns":[{"user":"roll back checkout"},{"resume":"yes"}],
	"expect":{"answer":"Summary: rolled back."}}`
	f, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if ms := rep.Check(); len(ms) != 0 {
		t.Errorf("check: %v", ms)
	}
	if len(rep.Turns) != 2 || !rep.Turns[0].Paused || rep.Turns[0].Pause == nil || rep.Turns[0].Pause.ToolName != "approve" || rep.Turns[1].Paused {
		t.Errorf("turns = %+v", rep.Turns)
	}
	if legs := rep.Record.Manifest.Legs; len(legs) != 2 {
		t.Errorf("legs = %+v", legs)
	}
}

// TestComposedAgentTools: an agent asks another named agent as a tool; the inner run is
// kept under the tool-call id inside the asking agent's run.
func TestComposedAgentTools(t *testing.T) {
	in := `{"name":"c","agents":[
	  {"name":"lead","agentTools":[{"name":"ask_logs","agent":"logs"}],
	   "replies":[{"toolCalls":[{"id":"t1","name":"ask_logs","args":{"question":"errors at 09:00?"}}]},{"content":"The logs agent found none."}]},
	  {"name":"logs","replies":[{"content":"none found"}]}
	],
	"compose":{"agent":"lead"},
	"turns":[{"user":"any errors?"}],
	"expect":{"answer":"The logs agent found none.","toolCalls":["ask_logs"]}}`
	f, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	if ms := rep.Check(); len(ms) != 0 {
		t.Errorf("check: %v", ms)
	}
	lead := rep.Record.Log.Subflows["agent:lead#1"]
	if lead == nil || lead.Subflows["t1"] == nil || len(lead.Subflows["t1"].Commits) == 0 {
		t.Fatalf("the logs agent's run is not under the tool-call id t1 inside the lead's run")
	}
}
