// This file fuzzes the segment decoder and the verifier: arbitrary bytes never panic, and
// any change to a byte of the records or the final hash is never reported valid.

package audit

import (
	"bytes"
	"testing"
)

func FuzzReadSegment(f *testing.F) {
	f.Add(segmentBytes(f, exportScripted(f, 1, Options{})))
	_, priv := testKey(1)
	f.Add(segmentBytes(f, exportScripted(f, 1, Options{SigningKey: priv, Verbatim: true})))
	f.Add([]byte(`{"header":{},"records":[],"finalHash":""}`))
	f.Add([]byte(`{"header":{"format":"agentfootprint.audit/1","hashAlgorithm":"sha-256","canonicalization":"rfc8785","chainHead":"0","firstSeq":0,"recordCount":1,"exportedAt":""},"records":[{"seq":0}],"finalHash":""}`))
	pub, _ := testKey(1)
	f.Fuzz(func(t *testing.T, data []byte) {
		seg, err := ReadSegment(data)
		if err != nil {
			return
		}
		res := Verify([]*Segment{seg}, VerifyOptions{PublicKey: pub})
		if res.Valid && res.RecordsChecked != int64(len(seg.Records)) {
			t.Fatalf("valid with %d of %d records checked", res.RecordsChecked, len(seg.Records))
		}
		if !res.Valid && res.Reason == "" {
			t.Fatalf("invalid without a reason: %+v", res)
		}
		// Whatever decoded must re-encode and decode to the same verdict.
		var buf bytes.Buffer
		if _, err := seg.WriteTo(&buf); err != nil {
			return // a value with no canonical form (e.g. a number overflowing a double)
		}
		again, err := ReadSegment(buf.Bytes())
		if err != nil {
			t.Fatalf("re-encoded segment does not decode: %v", err)
		}
		if res2 := Verify([]*Segment{again}, VerifyOptions{PublicKey: pub}); res2.Valid != res.Valid || res2.Reason != res.Reason {
			t.Fatalf("verdict changed after re-encoding: %v then %v", res, res2)
		}
	})
}

func FuzzVerifyTamper(f *testing.F) {
	pristine := segmentBytes(f, exportScripted(f, 2, Options{}))
	start := bytes.Index(pristine, []byte(`"records":[`)) + len(`"records":[`)
	f.Add(uint16(0), byte(1))
	f.Add(uint16(500), byte(0x20))
	f.Add(uint16(2000), byte(0x80))
	f.Fuzz(func(t *testing.T, at uint16, xor byte) {
		if xor == 0 {
			return
		}
		off := start + int(at)%(len(pristine)-start)
		switch pristine[off] {
		case ' ', '\n', '\r', '\t':
			return // whitespace between tokens may become other whitespace
		}
		data := bytes.Clone(pristine)
		data[off] ^= xor
		if res := VerifyFiles(VerifyOptions{}, data); res.Valid {
			t.Fatalf("byte %d changed from %q to %q: verifier says valid", off, pristine[off], data[off])
		}
	})
}

// FuzzExportVerify decodes arbitrary bytes as an events array; whatever decodes must export
// in both payload modes to a segment whose file verifies.
func FuzzExportVerify(f *testing.F) {
	f.Add([]byte(scriptedRun("r", 1).Events))
	f.Add([]byte(`[{"type":"t","payload":{"args":{"a":1},"n":12345678901234567890,"s":"\u2028<&>"},"meta":{"runId":"other","wallClockMs":1e400}}]`))
	f.Add([]byte(`[{"type":"t","payload":[[[[[[[[[[[["deep"]]]]]]]]]]]],"meta":null}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		events, err := decodeEvents(data)
		if err != nil {
			return
		}
		for _, verbatim := range []bool{false, true} {
			e, _ := NewExporter(Options{Verbatim: verbatim, Now: fixedNow, LibraryVersion: "v1"})
			if err := e.AddRun(Run{ID: "run", AgentID: "a", Events: events}); err != nil {
				return // an event without a type
			}
			seg, err := e.Drain()
			if err != nil {
				t.Fatalf("Drain: %v", err)
			}
			var buf bytes.Buffer
			if _, err := seg.WriteTo(&buf); err != nil {
				t.Fatalf("WriteTo: %v", err)
			}
			if res := VerifyFiles(VerifyOptions{}, buf.Bytes()); !res.Valid {
				t.Fatalf("verbatim %v export of %q does not verify: %v", verbatim, data, res)
			}
		}
	})
}
