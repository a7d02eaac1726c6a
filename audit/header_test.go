package audit

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// No single-bit flip anywhere in a segment's header verifies valid, signed or not: the
// header is sealed into finalHash and signed whole (issue 12 item 6: 66 of 10,366 flips of a
// format /1 export verified valid, all in exportedAt and library).
func TestEveryHeaderBitFlipIsCaught(t *testing.T) {
	pub, priv := testKey(3)
	cases := []struct {
		name string
		opts Options
		vo   VerifyOptions
	}{
		{"unsigned, chain only", Options{Now: fixedNow, LibraryVersion: "v1.2.3"}, VerifyOptions{}},
		{"signed, signature required", Options{Now: fixedNow, LibraryVersion: "v1.2.3", SigningKey: priv}, VerifyOptions{PublicKey: pub, RequireSignature: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := segmentBytes(t, exportScripted(t, 2, c.opts))
			if res := VerifyFiles(c.vo, data); !res.Valid || res.Note != "" {
				t.Fatalf("the export itself: %s", res)
			}
			end := bytes.Index(data, []byte(",\n\"records\":"))
			if end < 0 || !bytes.Contains(data[:end], []byte(`"exportedAt"`)) || !bytes.Contains(data[:end], []byte(`"library"`)) {
				t.Fatalf("no header found in:\n%s", data)
			}
			flips := 0
			for i := 0; i < end; i++ {
				for bit := 0; bit < 8; bit++ {
					flipped := bytes.Clone(data)
					flipped[i] ^= 1 << bit
					flips++
					if res := VerifyFiles(c.vo, flipped); res.Valid {
						t.Errorf("byte %d (%q) bit %d flipped verifies valid: %s", i, data[i], bit, res)
					}
				}
			}
			if flips < 8*200 {
				t.Errorf("only %d flips tried; the header is shorter than expected", flips)
			}
		})
	}
}

// An export in the earlier format still verifies, and the verdict says what it does not
// cover; editing its exportedAt is exactly what that note warns about.
func TestLegacyExportVerifiesWithANote(t *testing.T) {
	data, err := os.ReadFile("testdata/segment-legacy-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	res := VerifyFiles(VerifyOptions{}, data)
	if !res.Valid || res.Note != legacyNote {
		t.Fatalf("legacy export: %s (note %q)", res, res.Note)
	}
	if !strings.Contains(res.String(), "(note: format agentfootprint.audit/1: the header's exportedAt and library are not covered") {
		t.Errorf("the verdict line does not carry the note: %s", res)
	}
	edited := bytes.Replace(data, []byte(`"exportedAt":"2026-11-29T12:30:00.000Z"`), []byte(`"exportedAt":"2020-01-01T00:00:00.000Z"`), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("the legacy fixture has no exportedAt to edit")
	}
	if res := VerifyFiles(VerifyOptions{}, edited); !res.Valid || res.Note == "" {
		t.Errorf("a legacy export with its exportedAt edited: %s; want valid with the note (the gap /2 closes)", res)
	}
}

// A format /2 header refuses members the format does not have, and a library that is not
// {name, version} strings.
func TestSealedHeaderIsReadStrictly(t *testing.T) {
	good := string(segmentBytes(t, exportScripted(t, 1, Options{Now: fixedNow, LibraryVersion: "v1"})))
	for name, data := range map[string]string{
		"extra member":    strings.Replace(good, `"header":{`, `"header":{"comment":"x",`, 1),
		"library extra":   strings.Replace(good, `"library":{`, `"library":{"vendor":"x",`, 1),
		"library missing": strings.Replace(good, `"library"`, `"librarz"`, 1),
		"version number":  strings.Replace(good, `"version":"v1"`, `"version":1`, 1),
	} {
		if data == good {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		if res := VerifyFiles(VerifyOptions{}, []byte(data)); res.Valid || res.Reason != Malformed {
			t.Errorf("%s: %s, want malformed", name, res)
		}
	}
}
