package main

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/audit"
)

// FuzzIsSegmentFile: whatever the bytes, a file the audit package decodes as a segment is
// never refused as another kind of file, so the verifier always judges an export.
func FuzzIsSegmentFile(f *testing.F) {
	for _, s := range []string{
		`{"header":{"format":"agentfootprint-go.audit/1"},"records":[],"finalHash":""}`,
		`{"header":{"format":"x"},"records":[{"seq":0`,
		`{"format":"agentfootprint-go.record/1"}`,
		`{"name":"ops","turns":[]}`,
		`[1,2]`, `not json`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := isSegmentFile(data)
		if _, decodeErr := audit.ReadSegment(data); decodeErr == nil && err != nil {
			t.Fatalf("a decodable segment was refused: %v", err)
		}
	})
}

func TestIsSegmentFileNamesTheKind(t *testing.T) {
	for data, want := range map[string]string{
		`not json`: `it is not JSON`,
		`{"format":"agentfootprint-go.record/1"}`: `it is a file of format agentfootprint-go.record/1`,
		`{"name":"ops","turns":[]}`:               `it looks like a scenario file`,
		`{"other":1}`:                             `it has neither a header nor records`,
	} {
		err := isSegmentFile([]byte(data))
		if err == nil || err.Error() != errNotExport.Error()+": "+want {
			t.Errorf("%s: %v, want %q", data, err, want)
		}
	}
	for _, ok := range []string{`{"header":{}}`, `{"records":[]}`, `{"header":{"format":"x"},"records":[{"seq":0`} {
		if err := isSegmentFile([]byte(ok)); err != nil {
			t.Errorf("%s was refused: %v", ok, err)
		}
	}
}
