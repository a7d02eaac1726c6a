package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/spf13/cobra"
)

// An existing file survives a write that fails part way, and no temporary file is left.
func TestWriteFileAtomicKeepsTheOldFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.audit")
	if err := os.WriteFile(path, []byte("the old, valid export\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeFileAtomic(path, 0o644, func(w io.Writer) error {
		io.WriteString(w, "half of a new exp")
		return errors.New("the store went away")
	})
	if err == nil || !strings.Contains(err.Error(), "the store went away") {
		t.Fatalf("err = %v, want the writer's failure", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "the old, valid export\n" {
		t.Errorf("the existing file became %q", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
	// A write that succeeds replaces the file whole, with the mode asked for.
	if err := writeFileAtomic(path, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(got) != "new\n" || st.Mode().Perm() != 0o600 {
		t.Errorf("after a good write: %q mode %v", got, st.Mode().Perm())
	}
}

// A process killed (SIGKILL) while writing leaves the existing file as it was: the attack
// in issue 12 item 2 emptied or half-wrote 3 of 100 exports.
func TestWriteFileAtomicSurvivesAKill(t *testing.T) {
	if path := os.Getenv("AF_TEST_HALF_WRITE"); path != "" {
		writeFileAtomic(path, 0o644, func(w io.Writer) error {
			io.WriteString(w, "half of a new export")
			os.WriteFile(path+".ready", nil, 0o644)
			time.Sleep(time.Minute) // killed here
			return nil
		})
		os.Exit(0)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "run.audit")
	if err := os.WriteFile(path, []byte("the old, valid export\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	child := exec.Command(os.Args[0], "-test.run=^TestWriteFileAtomicSurvivesAKill$")
	child.Env = append(os.Environ(), "AF_TEST_HALF_WRITE="+path)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(path + ".ready"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			child.Process.Kill()
			child.Wait()
			t.Fatal("the child never started writing")
		}
		time.Sleep(10 * time.Millisecond)
	}
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	got, _ := os.ReadFile(path)
	if string(got) != "the old, valid export\n" {
		t.Errorf("after a kill mid-write the file is %q", got)
	}
}

// The input cap refuses, by name and before parsing, anything larger than --max-input.
func TestMaxInput(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"rows": "`+strings.Repeat("x", 2000)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"check file over the cap", "", []string{"check", "--max-input", "1KiB", big}, 2, big + " is larger than the 1 KiB input limit; nothing was read (raise the limit with --max-input)"},
		{"check stdin over the cap", strings.Repeat(" ", 1025) + "{}", []string{"check", "--max-input", "1KiB"}, 2, "standard input is larger than the 1 KiB input limit"},
		{"check under a raised cap", "", []string{"check", "--max-input", "4096", big}, 0, ""},
		{"mint over the cap", "", []string{"mint", "absent", "--max-input", "100", big}, 2, "is larger than the 100 bytes input limit"},
		{"audit verify over the cap", "", []string{"audit", "verify", "--max-input", "1KiB", big}, 2, "is larger than the 1 KiB input limit"},
		{"a bad size", "", []string{"check", "--max-input", "lots", big}, 2, "--max-input lots: want a positive size"},
		{"a zero size", "", []string{"check", "--max-input", "0", big}, 2, "--max-input 0: want a positive size"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errText, code := runCLI(t, c.stdin, c.args...)
			if code != c.code || !strings.Contains(errText, c.want) {
				t.Errorf("exit %d, stderr %q; want exit %d containing %q", code, errText, c.code, c.want)
			}
		})
	}
}

// Scenario files are read under the default cap even though the command has no flag for it.
func TestScenarioInputCap(t *testing.T) {
	cmd := &cobra.Command{}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, defaultMaxInput+1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readCapped(cmd, big)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != defaultMaxInput || strings.Contains(err.Error(), "--max-input") {
		t.Errorf("err = %v, want a *TooLargeError at 8 MiB that names no flag", err)
	}
}

// jsonOut writes exactly what wire.Marshal writes, compact, and what json.Indent makes of
// it, indented: empty containers, escapes, brackets inside strings, numbers kept as sent.
func TestJSONOutMatchesMarshal(t *testing.T) {
	for _, src := range []string{
		`{}`, `[]`, `"x"`, `1.5e3`, `null`, `1e999`,
		`{"a":1,"b":[1,2,{}],"c":{"d":[]},"e":"{[,:]}\"\\"}`,
		`[{"k":"v"},[],[[]],{"x":{"y":{"z":true}}}]`,
		`{"unicode":"é ✓","html":"<b>&</b>","ctl":"\u0001"}`,
	} {
		checkJSONOut(t, []byte(src))
	}
	// A value that is not a decoded tree (a report's problems) is laid out too.
	checkJSONOutValue(t, wire.Object{{Key: "problems", Value: []boundary.Problem{{Field: "f", Message: "m"}}}, {Key: "n", Value: 3}})
}

func checkJSONOut(t *testing.T, src []byte) {
	t.Helper()
	v, err := wire.DecodeJSON(src)
	if err != nil {
		return
	}
	checkJSONOutValue(t, v)
}

func checkJSONOutValue(t *testing.T, v any) {
	t.Helper()
	want, err := wire.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var wantIndented bytes.Buffer
	if err := json.Indent(&wantIndented, want, "", "  "); err != nil {
		t.Fatal(err)
	}
	for _, indent := range []bool{false, true} {
		var got bytes.Buffer
		bw := bufio.NewWriter(&got)
		if err := newJSONOut(bw, indent).write(v, 0); err != nil {
			t.Fatal(err)
		}
		bw.Flush()
		w := string(want)
		if indent {
			w = wantIndented.String()
		}
		if got.String() != w {
			t.Fatalf("indent=%v:\n got %s\nwant %s", indent, got.String(), w)
		}
	}
}

func FuzzJSONOut(f *testing.F) {
	f.Add([]byte(`{"a":[1,{}],"b":"x\"]","c":{"d":null}}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkJSONOut(t, data) })
}
