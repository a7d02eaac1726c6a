package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// runCLI runs the command tree with args and stdin, returning stdout, stderr and the exit status.
func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	code := 0
	if err := root.Execute(); err != nil {
		var e *exitError
		if errors.As(err, &e) {
			code = e.code
		} else {
			code = reportUnclassified(&errb, err) // as main does
		}
	}
	return out.String(), errb.String(), code
}

func goldenCLI(t *testing.T, path string, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n got: %s\nwant: %s", path, got, want)
	}
}

func TestMintGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/mint/*.json")
	if len(files) == 0 {
		t.Fatal("no mint cases")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		door := strings.SplitN(name, "-", 2)[0]
		t.Run(name, func(t *testing.T) {
			out, errText, code := runCLI(t, "", "mint", door, f)
			refused := strings.HasSuffix(name, "-refused")
			if refused != (code == 1) {
				t.Fatalf("exit %d, stderr %s", code, errText)
			}
			if refused && !strings.HasPrefix(errText, "refused: ") {
				t.Errorf("stderr %q", errText)
			}
			outJSON, _, codeJSON := runCLI(t, "", "mint", door, "--json", f)
			if codeJSON != code {
				t.Errorf("--json exit %d", codeJSON)
			}
			if refused {
				if !strings.HasPrefix(outJSON, `{"refused":{"field":"`) || !strings.Contains(outJSON, `"message":"refused: `) {
					t.Errorf("--json refusal %s", outJSON)
				}
				out = outJSON
			}
			goldenCLI(t, strings.TrimSuffix(f, ".json")+".golden", out)
			// Standard input reads the same.
			data, _ := os.ReadFile(f)
			outStdin, _, _ := runCLI(t, string(data), "mint", door, "--json", "-")
			if outStdin != outJSON {
				t.Error("stdin and file disagree")
			}
		})
	}
}

func TestCheckGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/check/*.json")
	if len(files) == 0 {
		t.Fatal("no check cases")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, errText, code := runCLI(t, "", "check", f, "--tool", "backup_runs", "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errText)
			}
			goldenCLI(t, strings.TrimSuffix(f, ".json")+".golden", out)
			text, _, code := runCLI(t, "", "check", f, "--tool", "backup_runs")
			if code != 0 || !strings.HasPrefix(text, "recognized: ") {
				t.Errorf("text report: %d %s", code, text)
			}
		})
	}
}

func TestCheckJSONKeys(t *testing.T) {
	out, _, _ := runCLI(t, "", "check", "testdata/check/wrap-absent.json", "--json")
	for _, k := range []string{`{"recognized":"ledger","status":"absent","declared":[`, `"verdict":"not-held","problems":[],"served":{`} {
		if !strings.Contains(out, k) {
			t.Errorf("report lacks %s: %s", k, out)
		}
	}
	out, _, _ = runCLI(t, "", "check", "testdata/check/data.json", "--json")
	if out != `{"recognized":"none","declared":[],"problems":[],"served":{"rows":[1,2,3]}}`+"\n" {
		t.Errorf("data: %s", out)
	}
}

func TestMintBadInput(t *testing.T) {
	cases := [][]string{
		{"not json", "mint", "absent"},
		{`{"declaration":{}, "extra":1}`, "mint", "coverage"},
		{`[]`, "mint", "coverage"},
		{`{}`, "mint", "nothing"},
		{`{`, "check"},
	}
	for _, c := range cases {
		_, errText, code := runCLI(t, c[0], c[1:]...)
		if code != 2 || errText == "" {
			t.Errorf("%v: exit %d %q", c, code, errText)
		}
	}
}
