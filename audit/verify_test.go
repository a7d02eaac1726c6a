// This file tampers with exported segments in every way the spec lists and checks that the
// verifier never says valid and names the right record and reason.

package audit

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// n=10 iterations: 1 genesis + 2 + 50 events = 53 records (scenario 8 asks for ≥ 50).
const tamperIterations = 10

func testKey(seed byte) (ed25519.PublicKey, ed25519.PrivateKey) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize))
	return priv.Public().(ed25519.PublicKey), priv
}

// reread returns an independent copy of seg, as a verifier would read it from a file.
func reread(t *testing.T, seg *Segment) *Segment {
	t.Helper()
	out, err := ReadSegment(segmentBytes(t, seg))
	if err != nil {
		t.Fatalf("ReadSegment(own export): %v", err)
	}
	return out
}

func ptr(n int64) *int64 { return &n }

type verdict struct {
	valid     bool
	reason    Reason
	brokenAt  *int64
	segment   int
	signature SignatureState
}

func check(t *testing.T, name string, got Result, want verdict) {
	t.Helper()
	if got.Valid != want.valid || got.Reason != want.reason {
		t.Errorf("%s: got %v, want valid=%v reason=%q", name, got, want.valid, want.reason)
		return
	}
	if (got.BrokenAt == nil) != (want.brokenAt == nil) || (got.BrokenAt != nil && *got.BrokenAt != *want.brokenAt) {
		t.Errorf("%s: brokenAt = %v, want %v (%v)", name, deref(got.BrokenAt), deref(want.brokenAt), got)
	}
	if !want.valid && (got.Segment == nil || *got.Segment != want.segment) {
		t.Errorf("%s: segment = %v, want %d", name, got.Segment, want.segment)
	}
	if want.signature != "" && got.Signature != want.signature {
		t.Errorf("%s: signature = %s, want %s", name, got.Signature, want.signature)
	}
	if !want.valid && strings.HasPrefix(got.String(), "valid") {
		t.Errorf("%s: String() = %q says valid", name, got)
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestVerifyTampering(t *testing.T) {
	pub, priv := testKey(1)
	otherPub, _ := testKey(2)
	pristine := exportScripted(t, tamperIterations, Options{})
	signed := exportScripted(t, tamperIterations, Options{SigningKey: priv})
	n := int64(len(pristine.Records))
	if n < 50 {
		t.Fatalf("only %d records", n)
	}
	const k = 17

	cases := []struct {
		name   string
		signed bool
		opts   VerifyOptions
		tamper func(s *Segment)
		want   verdict
	}{
		{"pristine", false, VerifyOptions{}, func(*Segment) {}, verdict{valid: true, signature: SignatureAbsent}},
		{"pristine signed, key given", true, VerifyOptions{PublicKey: pub}, func(*Segment) {}, verdict{valid: true, signature: SignatureValid}},
		{"pristine signed, no key", true, VerifyOptions{}, func(*Segment) {}, verdict{valid: true, signature: SignatureUnverified}},
		{"payload value edited", false, VerifyOptions{}, func(s *Segment) {
			s.Records[k]["payload"].(map[string]any)["iteration"] = json.Number("9")
		}, verdict{reason: HashMismatch, brokenAt: ptr(k)}},
		{"event type edited", false, VerifyOptions{}, func(s *Segment) {
			s.Records[k]["eventType"] = "agentfootprint.agent.turn_end"
		}, verdict{reason: HashMismatch, brokenAt: ptr(k)}},
		{"field added", false, VerifyOptions{}, func(s *Segment) {
			s.Records[k]["note"] = "added later"
		}, verdict{reason: HashMismatch, brokenAt: ptr(k)}},
		{"field removed", false, VerifyOptions{}, func(s *Segment) {
			delete(s.Records[k], "timestamp")
		}, verdict{reason: HashMismatch, brokenAt: ptr(k)}},
		{"hash edited", false, VerifyOptions{}, func(s *Segment) {
			s.Records[k]["hash"] = strings.Repeat("a", 64)
		}, verdict{reason: HashMismatch, brokenAt: ptr(k)}},
		{"record rehashed after edit", false, VerifyOptions{}, func(s *Segment) {
			r := s.Records[k]
			r["payload"] = map[string]any{}
			h, _, _ := r.computeHash(nil)
			r["hash"] = h
		}, verdict{reason: PrevHashMismatch, brokenAt: ptr(k + 1)}},
		{"prevHash edited", false, VerifyOptions{}, func(s *Segment) {
			s.Records[k]["prevHash"] = zeroHash
		}, verdict{reason: PrevHashMismatch, brokenAt: ptr(k)}},
		{"seq edited", false, VerifyOptions{}, func(s *Segment) {
			s.Records[k]["seq"] = json.Number("99")
		}, verdict{reason: SeqMismatch, brokenAt: ptr(k)}},
		{"seq not a number", false, VerifyOptions{}, func(s *Segment) {
			s.Records[k]["seq"] = "17"
		}, verdict{reason: SeqMismatch, brokenAt: ptr(k)}},
		{"record deleted", false, VerifyOptions{}, func(s *Segment) {
			s.Records = slices.Delete(s.Records, k, k+1)
		}, verdict{reason: SeqMismatch, brokenAt: ptr(k)}},
		{"record deleted, count fixed", false, VerifyOptions{}, func(s *Segment) {
			s.Records = slices.Delete(s.Records, k, k+1)
			s.Header.RecordCount--
		}, verdict{reason: SeqMismatch, brokenAt: ptr(k)}},
		{"records reordered", false, VerifyOptions{}, func(s *Segment) {
			s.Records[k], s.Records[k+1] = s.Records[k+1], s.Records[k]
		}, verdict{reason: SeqMismatch, brokenAt: ptr(k)}},
		{"record duplicated", false, VerifyOptions{}, func(s *Segment) {
			s.Records = slices.Insert(s.Records, k, s.Records[k])
		}, verdict{reason: SeqMismatch, brokenAt: ptr(k + 1)}},
		{"head truncated", false, VerifyOptions{}, func(s *Segment) {
			s.Records = s.Records[3:]
		}, verdict{reason: HeadTruncated, brokenAt: ptr(0)}},
		{"head truncated, header rewritten", false, VerifyOptions{}, func(s *Segment) {
			s.Header.ChainHead = s.Records[2].hash()
			s.Records = s.Records[3:]
			s.Header.FirstSeq, s.Header.RecordCount = 3, s.Header.RecordCount-3
		}, verdict{reason: HeadTruncated, brokenAt: ptr(0)}},
		{"head truncated, seqs renumbered from 0", false, VerifyOptions{}, func(s *Segment) {
			s.Records = s.Records[3:]
			for i, r := range s.Records {
				r["seq"] = json.Number(fmt.Sprint(i))
			}
		}, verdict{reason: HeadTruncated, brokenAt: ptr(0)}},
		{"genesis dropped, later piece claimed as start", false, VerifyOptions{}, func(s *Segment) {
			s.Header.FirstSeq = 3
		}, verdict{reason: HeadTruncated, brokenAt: ptr(0)}},
		{"tail truncated", false, VerifyOptions{}, func(s *Segment) {
			s.Records = s.Records[:n-2]
		}, verdict{reason: CountMismatch, brokenAt: ptr(n - 2)}},
		{"tail truncated, count fixed", false, VerifyOptions{}, func(s *Segment) {
			s.Records = s.Records[:n-2]
			s.Header.RecordCount = n - 2
		}, verdict{reason: FinalHashMismatch, brokenAt: ptr(n - 3)}},
		{"tail truncated, count and final hash fixed, signed", true, VerifyOptions{PublicKey: pub}, func(s *Segment) {
			s.Records = s.Records[:n-2]
			s.Header.RecordCount = n - 2
			s.FinalHash, _ = seal(s.Header, s.Records[n-3].hash())
		}, verdict{reason: SignatureInvalid, signature: SignatureStateInvalid}},
		{"suffix recomputed, signed", true, VerifyOptions{PublicKey: pub}, func(s *Segment) {
			s.Records[n-1]["payload"] = map[string]any{"finalContent": "DENIED"}
			h, _, _ := s.Records[n-1].computeHash(nil)
			s.Records[n-1]["hash"] = h
			s.FinalHash, _ = seal(s.Header, h)
		}, verdict{reason: SignatureInvalid, signature: SignatureStateInvalid}},
		{"signature value edited", true, VerifyOptions{PublicKey: pub}, func(s *Segment) {
			v := []byte(s.Header.Signature.Value)
			v[5] ^= 'A' ^ 'B'
			s.Header.Signature.Value = string(v)
		}, verdict{reason: SignatureInvalid, signature: SignatureStateInvalid}},
		{"signature not base64", true, VerifyOptions{PublicKey: pub}, func(s *Segment) {
			s.Header.Signature.Value = "!!"
		}, verdict{reason: SignatureInvalid}},
		{"signed with another key", true, VerifyOptions{PublicKey: otherPub}, func(*Segment) {}, verdict{reason: SignatureInvalid}},
		{"signature stripped, signature required", true, VerifyOptions{PublicKey: pub, RequireSignature: true}, func(s *Segment) {
			s.Header.Signature = nil
		}, verdict{reason: SignatureInvalid}},
		{"signature stripped, not required", true, VerifyOptions{PublicKey: pub}, func(s *Segment) {
			s.Header.Signature = nil
		}, verdict{valid: true, signature: SignatureAbsent}},
		{"unsupported format", false, VerifyOptions{}, func(s *Segment) {
			s.Header.Format = "afp-cjson/1"
		}, verdict{reason: UnsupportedFormat}},
		{"unsupported canonicalization", false, VerifyOptions{}, func(s *Segment) {
			s.Header.Canonicalization = "afp-cjson/1"
		}, verdict{reason: UnsupportedFormat}},
		{"zero chain head with later seq", false, VerifyOptions{AllowPartial: true}, func(s *Segment) {
			s.Header.FirstSeq = 5
		}, verdict{reason: HeadTruncated, brokenAt: ptr(0)}},
	}
	for _, tc := range cases {
		src := pristine
		if tc.signed {
			src = signed
		}
		seg := reread(t, src)
		tc.tamper(seg)
		check(t, tc.name, Verify([]*Segment{seg}, tc.opts), tc.want)
	}
}

// TestVerifyByteFlips flips one byte inside each record line of the file in turn: the
// verifier must never say valid, and when the file still decodes it must name that record.
func TestVerifyByteFlips(t *testing.T) {
	data := segmentBytes(t, exportScripted(t, tamperIterations, Options{}))
	lines := bytes.Split(data, []byte("\n"))
	r := rand.New(rand.NewPCG(3, 4))
	first := 2 // line 0 header, line 1 `"records":[`
	for k := range len(lines) - first - 3 {
		line := lines[first+k]
		for range 4 {
			pos := r.IntN(len(line) - 2)
			tampered := slices.Clone(data)
			off := bytes.Index(data, line) + pos
			tampered[off] ^= 0x01
			res := VerifyFiles(VerifyOptions{}, tampered)
			if res.Valid {
				t.Fatalf("record %d byte %d flipped (%q → %q): verifier says valid", k, pos, data[off], tampered[off])
			}
			if res.Reason == Malformed {
				continue // the flip broke the JSON itself: refused before any hashing
			}
			if res.BrokenAt == nil || *res.BrokenAt != int64(k) {
				t.Errorf("record %d byte %d flipped: %v, want brokenAt %d", k, pos, res, k)
			}
		}
	}
}

func TestVerifySegments(t *testing.T) {
	pub, priv := testKey(1)
	e, err := NewExporter(Options{Now: fixedNow, LibraryVersion: "v1", SigningKey: priv})
	if err != nil {
		t.Fatal(err)
	}
	var segs []*Segment
	for i := range 3 {
		run, _ := FromStore(scriptedRun(fmt.Sprintf("run-%d", i), 2))
		if err := e.AddRun(run); err != nil {
			t.Fatal(err)
		}
		seg, err := e.Drain()
		if err != nil {
			t.Fatal(err)
		}
		segs = append(segs, seg)
	}
	files := make([][]byte, len(segs))
	for i, s := range segs {
		files[i] = segmentBytes(t, s)
	}
	res := VerifyFiles(VerifyOptions{PublicKey: pub}, files...)
	check(t, "three segments", res, verdict{valid: true, signature: SignatureValid})
	if res.RecordsChecked != int64(3*len(segs[0].Records)) {
		t.Errorf("RecordsChecked = %d", res.RecordsChecked)
	}
	next := segs[1].Header.FirstSeq
	check(t, "swapped", VerifyFiles(VerifyOptions{PublicKey: pub}, files[1], files[0], files[2]),
		verdict{reason: SegmentGap, brokenAt: ptr(next + segs[1].Header.RecordCount), segment: 1})
	check(t, "swapped, partial allowed", VerifyFiles(VerifyOptions{PublicKey: pub, AllowPartial: true}, files[0], files[2], files[1]),
		verdict{reason: SegmentGap, brokenAt: ptr(next), segment: 1})
	check(t, "middle run dropped", VerifyFiles(VerifyOptions{}, files[0], files[2]),
		verdict{reason: SegmentGap, brokenAt: ptr(next), segment: 1})
	check(t, "later piece alone", VerifyFiles(VerifyOptions{PublicKey: pub}, files[1]),
		verdict{reason: HeadTruncated, brokenAt: ptr(0)})
	check(t, "later pieces, partial allowed", VerifyFiles(VerifyOptions{PublicKey: pub, AllowPartial: true}, files[1], files[2]),
		verdict{valid: true, signature: SignatureValid})
	if res := VerifyFiles(VerifyOptions{}); res.Valid || res.Reason != Malformed || res.Segment != nil {
		t.Errorf("no segments: %v, want invalid (malformed) naming no segment", res)
	}
	check(t, "truncated file", VerifyFiles(VerifyOptions{}, files[0], files[1][:len(files[1])/2]), verdict{reason: Malformed, segment: 1})
	check(t, "not json", VerifyFiles(VerifyOptions{}, []byte("hello")), verdict{reason: Malformed})
}

func TestReadSegmentRefuses(t *testing.T) {
	good := string(segmentBytes(t, exportScripted(t, 1, Options{})))
	cases := map[string]string{
		"array":              `[]`,
		"no header":          `{"records":[],"finalHash":""}`,
		"header not object":  `{"header":1,"records":[],"finalHash":""}`,
		"firstSeq string":    strings.Replace(good, `"firstSeq":0`, `"firstSeq":"0"`, 1),
		"firstSeq negative":  strings.Replace(good, `"firstSeq":0`, `"firstSeq":-1`, 1),
		"firstSeq fraction":  strings.Replace(good, `"firstSeq":0`, `"firstSeq":0.5`, 1),
		"records not array":  strings.Replace(good, `"records":[`, `"records":{"x":[`, 1),
		"record not object":  strings.Replace(good, "\"records\":[\n", "\"records\":[1,\n", 1),
		"duplicate key":      strings.Replace(good, `"firstSeq":0`, `"firstSeq":0,"firstSeq":0`, 1),
		"final hash missing": strings.Replace(good, `"finalHash"`, `"finalHashX"`, 1),
		"signature not obj":  strings.Replace(good, `"firstSeq":0`, `"signature":"x","firstSeq":0`, 1),
		"signature no value": strings.Replace(good, `"firstSeq":0`, `"signature":{"alg":"ed25519","keyId":"x"},"firstSeq":0`, 1),
	}
	for name, in := range cases {
		if _, err := ReadSegment([]byte(in)); err == nil {
			t.Errorf("%s: ReadSegment accepted it", name)
		}
	}
	if _, err := ReadSegment([]byte(good)); err != nil {
		t.Errorf("ReadSegment(good): %v", err)
	}
}
