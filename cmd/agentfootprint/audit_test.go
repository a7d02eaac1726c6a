package main

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/audit"
)

// exportStored stores one scripted run and exports it with extra args; it returns the
// segment file's path and the run id.
func exportStored(t *testing.T, extra ...string) (string, string) {
	t.Helper()
	path, results := storedRuns(t, "Checkout is degraded since 09:04 UTC.")
	seg := filepath.Join(t.TempDir(), "segment.json")
	args := append([]string{"audit", "export", results[0].RunID, "--store", path, "-o", seg}, extra...)
	out, errText, code := runCLI(t, "", args...)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errText)
	}
	if !strings.HasPrefix(out, "wrote "+seg+": run "+results[0].RunID+", ") {
		t.Errorf("export summary %q", out)
	}
	return seg, results[0].RunID
}

// tamper rewrites the record line holding seq n, replacing old with repl once.
func tamper(t *testing.T, file string, n int, old, repl string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	marker := `"seq":` + itoa(n) + `,`
	for i, l := range lines {
		if strings.HasPrefix(l, "{") && strings.Contains(l, marker) && strings.Contains(l, old) {
			lines[i] = strings.Replace(l, old, repl, 1)
			out := filepath.Join(t.TempDir(), "tampered.json")
			if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			return out
		}
	}
	t.Fatalf("no record with %s holding %q", marker, old)
	return ""
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestAuditExportVerify(t *testing.T) {
	seg, id := exportStored(t)
	data, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := audit.ReadSegment(data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Records[0]["eventType"] != audit.GenesisType || s.Header.RecordCount != int64(len(s.Records)) || s.Header.Signature != nil {
		t.Errorf("segment: first %q, count %d of %d, signature %v", s.Records[0]["eventType"], s.Header.RecordCount, len(s.Records), s.Header.Signature)
	}
	out, errText, code := runCLI(t, "", "audit", "verify", seg)
	if want := "valid: " + itoa(len(s.Records)) + " records, signature absent\n"; code != 0 || out != want {
		t.Errorf("verify: exit %d, %q (stderr %q), want %q", code, out, errText, want)
	}

	// Flip one byte of record 2's event type: the verifier names that record.
	bad := tamper(t, seg, 2, `"eventType":"agentfootprint.`, `"eventType":"agentfootprinT.`)
	out, _, code = runCLI(t, "", "audit", "verify", bad)
	if code != 1 || !strings.HasPrefix(out, "INVALID (hash-mismatch) in segment 0 at record 2: ") || !strings.HasSuffix(out, "(file "+bad+")\n") {
		t.Errorf("tampered: exit %d, %q", code, out)
	}
	out, _, code = runCLI(t, "", "audit", "verify", "--json", bad)
	var res audit.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 1 {
		t.Fatalf("--json: exit %d, %v: %s", code, err, out)
	}
	if res.Valid || res.BrokenAt == nil || *res.BrokenAt != 2 || res.Reason != audit.HashMismatch {
		t.Errorf("--json verdict %+v", res)
	}

	// Standard input reads the same as the file.
	out, _, code = runCLI(t, string(data), "audit", "verify", "-")
	if code != 0 || !strings.HasPrefix(out, "valid: ") {
		t.Errorf("stdin: exit %d, %q", code, out)
	}
	// A store without the run: exit 2 naming the id, nothing on standard output.
	other := filepath.Join(t.TempDir(), "other.db")
	if _, _, code := runCLI(t, "", "demo", "--part", "1", "--store", other); code != 0 {
		t.Fatalf("demo: exit %d", code)
	}
	stdout, errText, code := runCLI(t, "", "audit", "export", id, "--store", other)
	if code != 2 || stdout != "" || !strings.HasPrefix(errText, `agentfootprint audit export: no run "`+id+`"`) {
		t.Errorf("export from a store without the run: exit %d, %q, %q", code, stdout, errText)
	}
}

func TestAuditExportToStdout(t *testing.T) {
	path, results := storedRuns(t, "Checkout is healthy.")
	out, errText, code := runCLI(t, "", "audit", "export", results[0].RunID, "--store", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errText)
	}
	s, err := audit.ReadSegment([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	// A genesis record, then one record per event of the run.
	if want := results[0].Record.Events.Len() + 1; len(s.Records) != want {
		t.Errorf("%d records, want %d", len(s.Records), want)
	}
	if r := audit.Verify([]*audit.Segment{s}, audit.VerifyOptions{}); !r.Valid {
		t.Errorf("stdout export does not verify: %s", r)
	}
}

func TestAuditSigned(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	keyFile, pubFile, otherFile := filepath.Join(dir, "key.pem"), filepath.Join(dir, "key.pub"), filepath.Join(dir, "other.pub")
	privPEM := keyPEM(t, "PRIVATE KEY", priv)
	pubPEM := keyPEM(t, "PUBLIC KEY", pub)
	other, _, _ := ed25519.GenerateKey(nil)
	otherPEM := keyPEM(t, "PUBLIC KEY", other)
	for f, b := range map[string][]byte{keyFile: privPEM, pubFile: pubPEM, otherFile: otherPEM} {
		if err := os.WriteFile(f, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	seg, _ := exportStored(t, "--key", keyFile)
	cases := []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"right key", []string{"--pubkey", pubFile}, 0, "signature valid"},
		{"no key", nil, 0, "signature unverified"},
		{"other key", []string{"--pubkey", otherFile}, 1, "INVALID (signature-invalid)"},
	}
	for _, c := range cases {
		out, errText, code := runCLI(t, "", append(append([]string{"audit", "verify"}, c.args...), seg)...)
		if code != c.code || !strings.Contains(out, c.out) {
			t.Errorf("%s: exit %d, %q (stderr %q), want %d and %q", c.name, code, out, errText, c.code, c.out)
		}
	}
	// The signature covers the final hash: a tampered record fails even with the right key.
	bad := tamper(t, seg, 1, `"eventType":"agentfootprint.`, `"eventType":"agentfootprinT.`)
	if out, _, code := runCLI(t, "", "audit", "verify", "--pubkey", pubFile, bad); code != 1 || strings.HasPrefix(out, "valid") {
		t.Errorf("tampered signed segment: exit %d, %q", code, out)
	}
}

func TestAuditUsage(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.pub")
	os.WriteFile(junk, []byte("not a key"), 0o600)
	notJSON := filepath.Join(dir, "notes.txt")
	os.WriteFile(notJSON, []byte("hello"), 0o600)
	cases := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no file", []string{"audit", "verify"}, 2, "name at least one segment file"},
		{"missing file", []string{"audit", "verify", filepath.Join(dir, "nope.json")}, 2, "nope.json"},
		{"bad flag", []string{"audit", "verify", "--bogus", "x"}, 2, "unknown flag: --bogus"},
		{"bad pubkey", []string{"audit", "verify", "--pubkey", junk, notJSON}, 2, "--pubkey " + junk},
		{"bad signing key", []string{"audit", "export", "run-1", "--key", junk}, 2, "--key " + junk},
	}
	for _, c := range cases {
		out, errText, code := runCLI(t, "", c.args...)
		if code != c.code || !strings.Contains(errText, c.err) || out != "" {
			t.Errorf("%s: exit %d, out %q, stderr %q; want %d naming %q", c.name, code, out, errText, c.code, c.err)
		}
	}
	// A file that is not an export is not judged: it is named, exit 2. A damaged export is
	// judged: INVALID (malformed), exit 1.
	out, errText, code := runCLI(t, "", "audit", "verify", notJSON)
	if code != 2 || out != "" || !strings.Contains(errText, notJSON+": not an audit export") || !strings.Contains(errText, "it is not JSON") {
		t.Errorf("not a segment: exit %d, %q, %q", code, out, errText)
	}
	cut := filepath.Join(dir, "cut.json")
	os.WriteFile(cut, []byte(`{"header":{"format":"agentfootprint-go.audit/1"},"records":[{"seq":0`), 0o600)
	out, _, code = runCLI(t, "", "audit", "verify", cut)
	if code != 1 || !strings.HasPrefix(out, "INVALID (malformed)") {
		t.Errorf("a cut export: exit %d, %q", code, out)
	}
}

// keyPEM writes key as openssl does: a PKCS #8 "PRIVATE KEY" or a PKIX "PUBLIC KEY" block.
func keyPEM(t *testing.T, kind string, key any) []byte {
	t.Helper()
	marshal := x509.MarshalPKIXPublicKey
	if kind == "PRIVATE KEY" {
		marshal = x509.MarshalPKCS8PrivateKey
	}
	der, err := marshal(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
}
