// This file is the audit tamper scenario, step by step on a
// bundle of more than 50 records from a scripted run.

package audit

import (
	"bytes"
	"testing"
)

func TestScenario8AuditTamper(t *testing.T) {
	pub, priv := testKey(9)
	seg := exportScripted(t, tamperIterations, Options{})
	n := int64(len(seg.Records))
	if n < 50 {
		t.Fatalf("bundle has %d records, the scenario needs at least 50", n)
	}
	file := segmentBytes(t, seg)
	lines := bytes.Split(file, []byte("\n")) // line 0 header, 1 `"records":[`, 2+k record k
	const k = 23

	// pristine: valid
	check(t, "pristine", VerifyFiles(VerifyOptions{}, file), verdict{valid: true, signature: SignatureAbsent})

	// one byte flipped in record k → brokenAt k, hash-mismatch
	flipped := bytes.Clone(file)
	recordK := bytes.Index(file, lines[2+k])
	at := recordK + bytes.Index(lines[2+k], []byte(`"payload":{`)) + len(`"payload":{"`)
	flipped[at] ^= 0x01
	check(t, "byte flipped", VerifyFiles(VerifyOptions{}, flipped), verdict{reason: HashMismatch, brokenAt: ptr(k)})

	// record k deleted → brokenAt k, seq-mismatch
	deleted := bytes.Join(append(append([][]byte{}, lines[:2+k]...), lines[3+k:]...), []byte("\n"))
	check(t, "record deleted", VerifyFiles(VerifyOptions{}, deleted), verdict{reason: SeqMismatch, brokenAt: ptr(k)})

	// first 3 records dropped → rejected
	headless := bytes.Join(append(append([][]byte{}, lines[:2]...), lines[5:]...), []byte("\n"))
	if res := VerifyFiles(VerifyOptions{}, headless); res.Valid || (res.Reason != HeadTruncated && res.Reason != SeqMismatch) {
		t.Errorf("first 3 records dropped: %v, want head-truncated or seq-mismatch", res)
	}

	// two drained segments verify together; swapped they fail with segment-gap
	e, _ := NewExporter(Options{Now: fixedNow, LibraryVersion: "v1", SigningKey: priv})
	run, _ := FromStore(scriptedRun("run-a", 5))
	e.AddRun(run)
	first, _ := e.Drain()
	run, _ = FromStore(scriptedRun("run-b", 5))
	e.AddRun(run)
	second, _ := e.Drain()
	a, b := segmentBytes(t, first), segmentBytes(t, second)
	check(t, "two segments", VerifyFiles(VerifyOptions{PublicKey: pub}, a, b), verdict{valid: true, signature: SignatureValid})
	check(t, "two segments swapped", VerifyFiles(VerifyOptions{PublicKey: pub}, b, a),
		verdict{reason: SegmentGap, brokenAt: ptr(int64(len(first.Records) + len(second.Records))), segment: 1})

	// signed bundle: signature valid; header edited → signature-invalid
	signed := exportScripted(t, tamperIterations, Options{SigningKey: priv})
	check(t, "signed", VerifyFiles(VerifyOptions{PublicKey: pub}, segmentBytes(t, signed)), verdict{valid: true, signature: SignatureValid})
	edited := reread(t, signed)
	edited.Records = edited.Records[:n-1] // the header is rewritten to match the shorter chain
	edited.Header.RecordCount = n - 1
	edited.FinalHash, _ = seal(edited.Header, edited.Records[n-2].hash())
	check(t, "signed, header edited", VerifyFiles(VerifyOptions{PublicKey: pub}, segmentBytes(t, edited)),
		verdict{reason: SignatureInvalid, signature: SignatureStateInvalid})
	// The canonical JSON goldens are held against the ECMAScript implementation in
	// internal/jcs (TestFixturesAgainstReference, TestRandomAgainstReference).
}
