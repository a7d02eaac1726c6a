package flow_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// sameRecord compares two readings of one log: every exported field, the
// raw values byte for byte.
var sameRecord = cmp.Options{cmpopts.IgnoreUnexported(flow.Record{}, flow.Decision{})}

// everyField is a log with every member a commit can have, each value kind
// and a subflow.
const everyField = `{"runId":"r","chartId":"c","resumedFrom":"p","commits":[{"idx":0,"stage":"input","stageId":"input","runtimeStageId":"input","reads":[],"ops":[{"key":"k","verb":"set","value":{"a":[1,-2.5e+3,true,false,null,"\u00e9\n"]},"readsBefore":0}],"untracked":["u"],"redacted":[],"error":"boom","control":{"decider":"d#1","branch":"b","rule":"r","ruleIndex":-1},"decision":{"chosen":["x","y"],"default":true,"rules":[{"index":0,"branch":"x","label":"a rule","matched":true,"reads":["k"],"conditions":[{"key":"k","op":"gt","threshold":"1","actual":"2","pass":true}]},{"index":1,"branch":"y","label":"","matched":false,"reads":[],"error":"no"}]},"subflow":{"path":"p","run":"p#1"}}],"subflows":{"p#1":{"runId":"s","commits":[]}}}`

// writtenLogs are logs as Record's encoder writes them: a run with tool
// rounds and a decider, a paused run and its resumption, a subflow mount,
// and the agent's log in testdata (indented).
func writtenLogs(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	c := agentChart(t, 2, -1)
	res, err := c.Run(bg(), map[string]any{"userMessage": "héllo \"quoted\"\n", "maxIterations": 4}, flow.WithRunID("r1"))
	if err != nil {
		t.Fatal(err)
	}
	out["tool rounds"] = mustJSON(t, res.Record)
	pc := agentChart(t, 3, 2)
	paused, err := pc.Run(bg(), map[string]any{"userMessage": "hi", "maxIterations": 5}, flow.WithRunID("r2"))
	if err != nil || !paused.Paused {
		t.Fatalf("pause run: %v", err)
	}
	out["paused"] = mustJSON(t, paused.Record)
	resumed, err := pc.Resume(bg(), paused.Checkpoint, json.RawMessage(`"approved"`), flow.WithRunID("r3"))
	if err != nil {
		t.Fatal(err)
	}
	out["resumed"] = mustJSON(t, resumed.Record)
	mounted, err := mountChart(t, judgeChart(t, nil), judgeMount).Run(bg(), nil, flow.WithRunID("r4"))
	if err != nil {
		t.Fatal(err)
	}
	out["subflow"] = mustJSON(t, mounted.Record)
	agentLog, err := os.ReadFile("testdata/agent-record.json")
	if err != nil {
		t.Fatal(err)
	}
	out["agent, indented"] = agentLog
	out["every field"] = []byte(everyField)
	out["a value of null"] = []byte(`{"commits":[{"idx":0,"runtimeStageId":"input","stageId":"input","ops":[{"key":"k","verb":"set","value":null}]}]}`)
	return out
}

// The encoder's own output is read without encoding/json, and reads the
// same as encoding/json reads it.
func TestFastReadingOfWrittenLogs(t *testing.T) {
	for name, data := range writtenLogs(t) {
		fast, ok, fastErr, slow, slowErr := flow.ReadRecordBothWays(data)
		if !ok {
			t.Errorf("%s: the fast reader gave up on the encoder's own output", name)
			continue
		}
		if fastErr != nil || slowErr != nil {
			t.Errorf("%s: fast error %v, encoding/json error %v", name, fastErr, slowErr)
			continue
		}
		if d := cmp.Diff(slow, fast, sameRecord); d != "" {
			t.Errorf("%s: readings differ (-encoding/json +fast):\n%s", name, d)
		}
	}
}

// Forms the encoder does not write go to encoding/json, which reads them
// (or refuses them) as before.
func TestFastReaderLeavesOtherFormsToEncodingJSON(t *testing.T) {
	for _, tt := range []struct{ name, data string }{
		{"a name in another case", `{"RunID":"r","commits":[]}`},
		{"an unknown member", `{"runId":"r","extra":1,"commits":[]}`},
		{"a member twice", `{"commits":[{"idx":0,"idx":1,"runtimeStageId":"input","stageId":"input"}]}`},
		{"an escape in a field", `{"runId":"r\u0031","commits":[]}`},
		{"a null field", `{"runId":null,"commits":[]}`},
		{"a null commit", `{"commits":[null]}`},
		{"a fraction in idx", `{"commits":[{"idx":1.0,"runtimeStageId":"input","stageId":"input"}]}`},
		{"an exponent in idx", `{"commits":[{"idx":1e0,"runtimeStageId":"input","stageId":"input"}]}`},
		{"idx past int", `{"commits":[{"idx":99999999999999999999,"runtimeStageId":"input","stageId":"input"}]}`},
		{"not UTF-8 in a field", "{\"runId\":\"r\xff\",\"commits\":[]}"},
		{"a bad escape in a value", `{"commits":[{"idx":0,"runtimeStageId":"input","stageId":"input","ops":[{"key":"k","verb":"set","value":"\x","readsBefore":0}]}]}`},
		{"a leading zero in a value", `{"commits":[{"idx":0,"runtimeStageId":"input","stageId":"input","ops":[{"key":"k","verb":"set","value":01,"readsBefore":0}]}]}`},
		{"trailing bytes", `{"commits":[]} x`},
		{"a cut record", `{"commits":[{"idx":0`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, ok, _, _, _ := flow.ReadRecordBothWays([]byte(tt.data))
			if ok {
				t.Errorf("the fast reader took %s", tt.data)
			}
		})
	}
}

// FuzzFastRecordReading checks the fast reader against encoding/json:
// wherever it accepts, encoding/json accepts the bytes too and reads the
// same record, and the same refusal (a missing key) comes out of both.
func FuzzFastRecordReading(f *testing.F) {
	for _, data := range writtenLogs(f) {
		f.Add(data)
	}
	f.Add([]byte(`{"commits":[{"idx":0,"runtimeStageId":"input","stageId":"input","ops":[{"verb":"set","value":1}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok, fastErr, slow, slowErr := flow.ReadRecordBothWays(data)
		if !ok {
			return
		}
		if slowErr != nil && fastErr == nil {
			t.Fatalf("the fast reader took what encoding/json refuses (%v):\n%q", slowErr, data)
		}
		if (fastErr == nil) != (slowErr == nil) || (fastErr != nil && fastErr.Error() != slowErr.Error()) {
			t.Fatalf("refusals differ: fast %v, encoding/json %v\n%q", fastErr, slowErr, data)
		}
		if d := cmp.Diff(slow, fast, sameRecord); d != "" {
			t.Fatalf("readings differ (-encoding/json +fast):\n%s\n%q", d, data)
		}
		if !json.Valid(data) {
			t.Fatalf("the fast reader took bytes that are not JSON:\n%q", data)
		}
	})
}
