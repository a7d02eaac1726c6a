// This file tests export: the golden segment of a scripted run, genesis records, bounding,
// chaining across runs and drains.

package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

func exportScripted(t testing.TB, iterations int, opts Options) *Segment {
	t.Helper()
	if opts.Now == nil {
		opts.Now = fixedNow
	}
	if opts.LibraryVersion == "" {
		opts.LibraryVersion = "v0.0.0-test"
	}
	seg, err := ExportRun(scriptedRun("run-1", iterations), opts)
	if err != nil {
		t.Fatalf("ExportRun: %v", err)
	}
	return seg
}

func segmentBytes(t testing.TB, seg *Segment) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := seg.WriteTo(&buf); err != nil {
		t.Fatalf("WriteTo: %v", err)
	}
	return buf.Bytes()
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", name, diff)
	}
}

func TestExportGolden(t *testing.T) {
	for _, mode := range []payloadMode{modeBounded, modeVerbatim} {
		seg := exportScripted(t, 2, Options{Verbatim: mode == modeVerbatim})
		checkGolden(t, "segment-"+string(mode)+".json", segmentBytes(t, seg))
	}
}

func TestExportShape(t *testing.T) {
	seg := exportScripted(t, 10, Options{})
	if got, want := len(seg.Records), 1+2+5*10; got != want {
		t.Fatalf("%d records, want %d (genesis + one per event)", got, want)
	}
	g := seg.Records[0]
	if g.eventType() != GenesisType || g.prevHash() != zeroHash {
		t.Fatalf("first record = %v, want the genesis linked to the zero hash", g)
	}
	wantPayload := map[string]any{
		"runId": "run-1", "agent": map[string]any{"id": "refunds"}, "payloadMode": "bounded",
		"library":  map[string]any{"name": "agentfootprint-go", "version": "v0.0.0-test"},
		"versions": map[string]any{"audit": Format, "canonicalization": "rfc8785", "bounding": boundingVersion, "record": "agentfootprint-go.record/1"},
	}
	if diff := cmp.Diff(wantPayload, g["payload"]); diff != "" {
		t.Errorf("genesis payload (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(int64(fixedStart.UnixMilli()), mustInt(t, g["timestamp"])); diff != "" {
		t.Errorf("genesis timestamp: %s", diff)
	}
	for k, r := range seg.Records {
		if seq, _ := r.seq(); seq != int64(k) {
			t.Errorf("record %d has seq %d", k, seq)
		}
		if k > 0 && r.prevHash() != seg.Records[k-1].hash() {
			t.Errorf("record %d does not link to record %d", k, k-1)
		}
	}
	if want, _ := seal(seg.Header, seg.Records[len(seg.Records)-1].hash()); seg.FinalHash != want {
		t.Error("finalHash does not seal the header and the last record's hash")
	}
	// meta keeps runId and runtimeStageId only: the caller's session id does not leave.
	if diff := cmp.Diff(map[string]any{"runId": "run-1", "runtimeStageId": "seed#0"}, seg.Records[1]["meta"]); diff != "" {
		t.Errorf("meta (-want +got):\n%s", diff)
	}
	if res := Verify([]*Segment{seg}, VerifyOptions{}); !res.Valid || res.RecordsChecked != int64(len(seg.Records)) {
		t.Errorf("Verify(fresh export) = %v", res)
	}
}

func mustInt(t *testing.T, v any) int64 {
	t.Helper()
	switch x := v.(type) {
	case json.Number:
		n, err := x.Int64()
		if err != nil {
			t.Fatal(err)
		}
		return n
	case int64:
		return x
	}
	t.Fatalf("%v (%T) is not an integer", v, v)
	return 0
}

func TestBounding(t *testing.T) {
	long := strings.Repeat("x", 300)
	many := make([]any, 40)
	for i := range many {
		many[i] = i
	}
	deep := any("bottom")
	for range 10 {
		deep = map[string]any{"d": deep}
	}
	in := map[string]any{
		"args":          map[string]any{"orderId": "7", "amount": 3},
		"arguments":     "scalar input",
		"usage":         map[string]any{"input": 3, "output": 4},
		"result":        []any{1, 2},
		"content":       "héllo 😀",
		"error":         map[string]any{"kind": "x", "detail": "y"},
		"history":       []any{1, 2, 3},
		"payload":       map[string]any{"b": 1, "a": 2},
		"requestSha256": "ab" + long,
		"contentHash":   "sha256:" + long,
		"label":         long,
		"list":          many,
		"deep":          deep,
		"big":           json.Number("12345678901234567890"),
		"bigNeg":        json.Number("-9007199254740993"),
		"safe":          json.Number("9007199254740992"),
		"huge":          json.Number("1e400"),
		"float":         json.Number("0.5"),
		"goBig":         int64(1) << 60,
		"nan":           []float64{1.5},
		"badUTF8":       "a\xffb",
		"bad\xffkey":    true,
	}
	got, err := bounder{mode: modeBounded}.bound(in)
	if err != nil {
		t.Fatal(err)
	}
	wantList := make([]any, 0, 32)
	for i := range 31 {
		wantList = append(wantList, json.Number(strings.TrimSpace(string(rune('0'+i/10))+string(rune('0'+i%10)))))
	}
	for i := range wantList {
		n := string(wantList[i].(json.Number))
		wantList[i] = json.Number(strings.TrimPrefix(n, "0"))
		if n == "00" {
			wantList[i] = json.Number("0")
		}
	}
	wantList = append(wantList, "[+9 more]")
	wantDeep := any("[keys: d]")
	for range 7 {
		wantDeep = map[string]any{"d": wantDeep}
	}
	want := map[string]any{
		"args":          "[keys: amount, orderId]",
		"arguments":     "[type: string]",
		"usage":         map[string]any{"input": json.Number("3"), "output": json.Number("4")},
		"result":        "[type: array]",
		"content":       "[8 chars]",
		"error":         "[keys: detail, kind]",
		"history":       "[3 messages]",
		"payload":       "[keys: a, b]",
		"requestSha256": "ab" + long,
		"contentHash":   "sha256:" + long,
		"label":         strings.Repeat("x", 240) + "…[300 chars]",
		"list":          wantList,
		"deep":          wantDeep,
		"big":           "12345678901234567890",
		"bigNeg":        "-9007199254740993",
		"safe":          json.Number("9007199254740992"),
		"huge":          "1e400",
		"float":         json.Number("0.5"),
		"goBig":         "1152921504606846976",
		"nan":           []any{json.Number("1.5")},
		"badUTF8":       "a\uFFFDb",
		"bad\uFFFDkey":  true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bounded (-want +got):\n%s", diff)
	}

	verb, err := bounder{mode: modeVerbatim}.bound(in)
	if err != nil {
		t.Fatal(err)
	}
	vm := verb.(map[string]any)
	if vm["label"] != long || vm["content"] != "héllo 😀" || vm["big"] != "12345678901234567890" || len(vm["list"].([]any)) != 40 {
		t.Errorf("verbatim changed content: label %d chars, content %v, big %v", len(vm["label"].(string)), vm["content"], vm["big"])
	}
}

func TestExporterChainsRunsAndDrains(t *testing.T) {
	e, err := NewExporter(Options{Now: fixedNow, LibraryVersion: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Drain(); !errors.Is(err, ErrNothingToDrain) {
		t.Errorf("Drain on nothing = %v, want ErrNothingToDrain", err)
	}
	for _, id := range []string{"run-a", "run-b"} {
		run, err := FromStore(scriptedRun(id, 1))
		if err != nil {
			t.Fatal(err)
		}
		if err := e.AddRun(run); err != nil {
			t.Fatal(err)
		}
	}
	first, err := e.Drain()
	if err != nil {
		t.Fatal(err)
	}
	// a nested runner's events name their own run id: it gets its own genesis
	nested := Run{ID: "run-c", AgentID: "outer", Events: []Event{
		{Type: "agentfootprint.agent.turn_start", Meta: map[string]any{"runId": "run-c"}},
		{Type: "agentfootprint.agent.turn_start", Meta: map[string]any{"runId": "inner-1", "wallClockMs": 5}},
		{Type: "agentfootprint.agent.turn_end", Meta: map[string]any{"runId": "inner-1"}},
	}}
	if err := e.AddRun(nested); err != nil {
		t.Fatal(err)
	}
	second, err := e.Drain()
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, r := range second.Records {
		types = append(types, r.eventType())
	}
	wantTypes := []string{GenesisType, "agentfootprint.agent.turn_start", GenesisType, "agentfootprint.agent.turn_start", "agentfootprint.agent.turn_end"}
	if diff := cmp.Diff(wantTypes, types); diff != "" {
		t.Errorf("second segment (-want +got):\n%s", diff)
	}
	if got := second.Records[2]["payload"].(map[string]any)["agent"]; !cmp.Equal(got, map[string]any{}) {
		t.Errorf("nested genesis agent = %v, want {} (its id is not known)", got)
	}
	if first.Header.FirstSeq != 0 || second.Header.FirstSeq != int64(len(first.Records)) || second.Header.ChainHead != first.FinalHash {
		t.Errorf("segments do not chain: %+v / %+v", first.Header, second.Header)
	}
	if res := Verify([]*Segment{first, second}, VerifyOptions{}); !res.Valid || res.RecordsChecked != int64(len(first.Records)+len(second.Records)) {
		t.Errorf("Verify(two drains) = %v", res)
	}
	// A failing run adds nothing.
	bad := Run{ID: "run-d", Events: []Event{{Type: "ok"}, {Type: ""}}}
	if err := e.AddRun(bad); err == nil {
		t.Fatal("AddRun accepted an event without a type")
	}
	if _, err := e.Drain(); !errors.Is(err, ErrNothingToDrain) {
		t.Errorf("after a refused run Drain = %v, want nothing pending", err)
	}
	if err := e.AddRun(Run{ID: "run-d", Events: []Event{{Type: "ok"}}}); err != nil {
		t.Fatal(err)
	}
	third, _ := e.Drain()
	if third.Records[0].eventType() != GenesisType {
		t.Error("the refused run's genesis was remembered")
	}
}

func TestFromStoreReadsEventsInsideTheRecord(t *testing.T) {
	r := scriptedRun("run-1", 1)
	withEvents, err := FromStore(r)
	if err != nil {
		t.Fatal(err)
	}
	r.Record = json.RawMessage(`{"format":"agentfootprint-go.record/1","manifest":{},"events":` + string(r.Events) + `}`)
	r.Events = nil
	inside, err := FromStore(r)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(withEvents, inside); diff != "" {
		t.Errorf("events read from the record differ (-separate +inside):\n%s", diff)
	}
	r.Record = json.RawMessage(`{"events":{"type":"x"}}`)
	if _, err := FromStore(r); err == nil || !strings.Contains(err.Error(), "record.events") {
		t.Errorf("FromStore(bad record.events) = %v, want an error naming record.events", err)
	}
}

func TestExportRefuses(t *testing.T) {
	if _, err := NewExporter(Options{SigningKey: make([]byte, 12)}); err == nil {
		t.Error("short signing key accepted")
	}
	r := scriptedRun("x", 1)
	for _, events := range []string{`{"type":"x"}`, `[{"type":1}]`, `[{"type":"a","meta":[]}]`, `[{"type":"a","type":"b"}]`, `[1]`, `[`} {
		r.Events = json.RawMessage(events)
		if _, err := ExportRun(r, Options{}); err == nil {
			t.Errorf("ExportRun(events %s) succeeded", events)
		}
	}
}
