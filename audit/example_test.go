// This file shows export, signing and verification as a runnable example.

package audit_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/audit"
	"github.com/agentfootprint/agentfootprint-go/store"
)

func ExampleExportRun() {
	run := &store.Run{
		RunInfo: store.RunInfo{ID: "run-1", AgentID: "refunds", Status: store.StatusComplete,
			StartedAt: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)},
		Record: json.RawMessage(`{"format":"agentfootprint-go.record/1"}`),
		Events: json.RawMessage(`[
			{"type":"agentfootprint.llm.response","payload":{"iteration":1,"content":"APPROVED: refund issued"},"meta":{"runId":"run-1","runtimeStageId":"call-llm#2","wallClockMs":1795953600100}},
			{"type":"agentfootprint.agent.turn_end","payload":{"finalContent":"APPROVED: refund issued","iterationCount":1},"meta":{"runId":"run-1","runtimeStageId":"prepare-final#3","wallClockMs":1795953600200}}
		]`),
	}
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	seg, err := audit.ExportRun(run, audit.Options{SigningKey: key, LibraryVersion: "v1.0.0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	var file bytes.Buffer
	seg.WriteTo(&file)

	// Content is bounded: the export shows the answer's length, not the answer.
	fmt.Println(seg.Records[1]["eventType"], seg.Records[1]["payload"])

	pub := key.Public().(ed25519.PublicKey)
	fmt.Println(audit.VerifyFiles(audit.VerifyOptions{PublicKey: pub}, file.Bytes()))

	tampered := bytes.Replace(file.Bytes(), []byte(`"iterationCount":1`), []byte(`"iterationCount":2`), 1)
	fmt.Println(audit.VerifyFiles(audit.VerifyOptions{PublicKey: pub}, tampered))
	// Output:
	// agentfootprint.llm.response map[content:[23 chars] iteration:1]
	// valid: 3 records, signature valid
	// INVALID (hash-mismatch) in segment 0 at record 2: stored hash 2660d1e737fc…, content hashes to 64cdaf7a0d28…
}
