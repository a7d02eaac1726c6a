package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// exitCase is one command's three faults: an unknown run id, a file of the wrong kind and a
// usage error. A nil slice means the command takes no such input.
type exitCase struct {
	unknownID []string
	wrongKind []string
	usage     []string
}

// TestExitStatusTable walks every command of the tree with an unknown id, a wrong file kind
// and a usage error: each is exit 2 with one line naming the command on standard error and
// nothing on standard output. A command added to the tree without a case here fails the test.
func TestExitStatusTable(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	if out, errText, code := runCLI(t, "", "demo", "--part", "1", "--store", db); code != 0 {
		t.Fatalf("demo: exit %d: %s\n%s", code, errText, out)
	}
	notJSON := filepath.Join(dir, "notes.txt")
	scenarioFile := filepath.Join(dir, "scenario.json")
	file, _, _ := runCLI(t, "", "demo", "--scenario")
	for name, data := range map[string]string{notJSON: "these are notes, not JSON\n", scenarioFile: file} {
		if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const id = "run-0000000000000000"
	cases := map[string]exitCase{
		"mint":              {wrongKind: []string{"mint", "absent", notJSON}, usage: []string{"mint"}},
		"check":             {wrongKind: []string{"check", notJSON}, usage: []string{"check", notJSON, "--bogus"}},
		"demo":              {usage: []string{"demo", "--part", "9", "--no-store"}},
		"scenario run":      {wrongKind: []string{"scenario", "run", notJSON}, usage: []string{"scenario", "run"}},
		"scenario validate": {wrongKind: []string{"scenario", "validate", notJSON}, usage: []string{"scenario", "validate", "a", "b"}},
		"scenario schema":   {usage: []string{"scenario", "schema", "extra"}},
		"explain":           {unknownID: []string{"explain", id, "--store", db}, wrongKind: []string{"explain", scenarioFile}, usage: []string{"explain", scenarioFile, "--bogus"}},
		"ablate":            {unknownID: []string{"ablate", id, "--store", db, "--without", "unit:x"}, wrongKind: []string{"ablate", scenarioFile, "--without", "unit:x"}, usage: []string{"ablate", "--without", "unit:x"}},
		"doctor":            {usage: []string{"doctor", "--timeout", "0s"}},
		"runs":              {usage: []string{"runs", "--store", db, "--limit", "-1"}},
		"show":              {unknownID: []string{"show", id, "--store", db}, usage: []string{"show"}},
		"audit export":      {unknownID: []string{"audit", "export", id, "--store", db}, usage: []string{"audit", "export"}},
		"audit verify":      {wrongKind: []string{"audit", "verify", scenarioFile}, usage: []string{"audit", "verify"}},
		"trace":             {unknownID: []string{"trace", id, "--store", db}, wrongKind: []string{"trace", scenarioFile}, usage: []string{"trace"}},
		"mcp tools":         {usage: []string{"mcp", "tools"}},
		"mcp call":          {usage: []string{"mcp", "call"}},
		"mcp serve":         {wrongKind: []string{"mcp", "serve", "--scenario", notJSON}, usage: []string{"mcp", "serve"}},
		"serve":             {wrongKind: []string{"serve", "--agent", notJSON, "--store", filepath.Join(dir, "host.db")}, usage: []string{"serve", "--bogus"}},
		"lens":              {unknownID: []string{"lens", id, "--store", db, "-o", filepath.Join(dir, "x.html")}, wrongKind: []string{"lens", "--record", scenarioFile, "-o", filepath.Join(dir, "y.html")}, usage: []string{"lens"}},
	}
	for _, path := range leafCommands(newRootCmd()) {
		c, ok := cases[path]
		if !ok {
			t.Errorf("command %q has no exit-status case: add one to TestExitStatusTable", path)
			continue
		}
		prefix := "agentfootprint " + path + ": "
		check := func(kind string, args []string) {
			t.Helper()
			if args == nil {
				return
			}
			out, errText, code := runCLI(t, "", args...)
			if code != exitUsage || out != "" || errText == "" {
				t.Errorf("%s %v: exit %d, stdout %q, stderr %q; want exit 2, a message, no output", kind, args, code, out, errText)
				return
			}
			// cobra's own refusals (a wrong argument count) name no command; ours do.
			if !strings.HasPrefix(errText, prefix) && !strings.HasPrefix(errText, "agentfootprint: ") {
				t.Errorf("%s %v: stderr %q does not start %q", kind, args, errText, prefix)
			}
		}
		check("unknown id", c.unknownID)
		check("wrong kind", c.wrongKind)
		check("usage", c.usage)
		// Every command refuses an unknown flag the same way.
		check("unknown flag", append(strings.Fields(path), "--no-such-flag"))
		delete(cases, path)
	}
	for path := range cases {
		t.Errorf("case for %q, which is not a command", path)
	}
}

// TestReadOnlyCommandsCreateNoStore: a command that only reads, pointed at a store that does
// not exist, exits 2 naming the path and leaves no file behind.
func TestReadOnlyCommandsCreateNoStore(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	for _, args := range [][]string{
		{"runs", "--store", missing},
		{"show", "run-x", "--store", missing},
		{"explain", "run-x", "--store", missing},
		{"ablate", "run-x", "--without", "unit:x", "--store", missing},
		{"audit", "export", "run-x", "--store", missing},
	} {
		out, errText, code := runCLI(t, "", args...)
		if code != exitUsage || out != "" || !strings.Contains(errText, "no run store at "+missing) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errText)
		}
		if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%v created %s", args, missing)
		}
	}
}

// TestHelpNamesTheTable: the root help carries the table, every subcommand's help its
// one-line summary, and no help text names an internal function.
func TestHelpNamesTheTable(t *testing.T) {
	out, _, code := runCLI(t, "", "--help")
	if code != 0 || !strings.Contains(out, exitTable) {
		t.Errorf("root help lacks the exit-status table:\n%s", out)
	}
	internal := regexp.MustCompile(`\b(rebuildAgent|parseSpec|loadRecord|openStore|saveReport|runScenario|[a-z]+[A-Z][A-Za-z]*\(\))`)
	for _, path := range leafCommands(newRootCmd()) {
		help, _, code := runCLI(t, "", append(strings.Fields(path), "--help")...)
		if code != 0 || !strings.Contains(help, exitLine) {
			t.Errorf("%s --help lacks the exit-status line", path)
		}
		if m := internal.FindString(help); m != "" {
			t.Errorf("%s --help names the internal %q", path, m)
		}
	}
}

// leafCommands lists the runnable commands of the tree by path without the root's name,
// sorted.
func leafCommands(root *cobra.Command) []string {
	var out []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			if sub.Runnable() {
				out = append(out, strings.TrimPrefix(sub.CommandPath(), root.Name()+" "))
			}
			walk(sub)
		}
	}
	walk(root)
	slices.Sort(out)
	return out
}

// TestNegativeVerdictsExitOne: every "no" to a question the caller asked is exit 1, the
// table's one status for it, whichever command gives it.
func TestNegativeVerdictsExitOne(t *testing.T) {
	clearProviderEnv(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	demo, _, code := runCLI(t, "", "demo", "--part", "1", "--store", db)
	m := regexp.MustCompile(`Stored as run (run-[0-9a-f]{16})`).FindStringSubmatch(demo)
	if code != 0 || m == nil {
		t.Fatalf("demo: exit %d", code)
	}
	seg := filepath.Join(dir, "seg.json")
	if _, errText, code := runCLI(t, "", "audit", "export", m[1], "--store", db, "-o", seg); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errText)
	}
	data, _ := os.ReadFile(seg)
	tampered := filepath.Join(dir, "tampered.json")
	os.WriteFile(tampered, []byte(strings.Replace(string(data), `"seq":1,`, `"seq":7,`, 1)), 0o600)
	for _, args := range [][]string{
		{"audit", "verify", tampered},
		{"scenario", "run", "testdata/scenario/expect-fails.json"},
		{"scenario", "run", "testdata/scenario/script-runs-out.json"},
		{"mint", "absent", "testdata/mint/absent-refused.json"},
		{"doctor", "--provider", "ollama", "--model", "m", "--base-url", "http://127.0.0.1:1"},
		{"demo", "--provider", "ollama", "--model", "m", "--base-url", "http://127.0.0.1:1", "--no-store"},
	} {
		_, errText, code := runCLI(t, "", args...)
		if code != exitNegative {
			t.Errorf("%v: exit %d, want 1 (stderr %q)", args, code, errText)
		}
	}
}

// TestCLIDocShowsTheTable: docs/CLI.md holds the same three statuses as the help.
func TestCLIDocShowsTheTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/CLI.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{
		"| 0 | done, and every verdict asked about is positive |",
		"| 1 | a verdict you asked about is negative: an invalid audit chain",
		"| 2 | nothing to judge: a usage error",
	} {
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/CLI.md lacks the row %q", row)
		}
	}
	for _, line := range strings.Split(exitTable, "\n")[1:] {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "0" || f[0] == "1" || f[0] == "2") && !strings.Contains(string(doc), "| "+f[0]+" | ") {
			t.Errorf("docs/CLI.md has no row for status %s", f[0])
		}
	}
}

// TestCLIDocListsEveryCommand: the command table of docs/CLI.md, which the
// README calls the list of every command, has a row for each command the
// root command has (cobra's own help and completion aside).
func TestCLIDocListsEveryCommand(t *testing.T) {
	doc, err := os.ReadFile("../../docs/CLI.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "| `") {
			rows = append(rows, strings.SplitN(line, " | ", 2)[0])
		}
	}
	for _, c := range newRootCmd().Commands() {
		name := c.Name()
		if name == "help" || name == "completion" {
			continue
		}
		found := false
		for _, r := range rows {
			if strings.Contains(r, "`"+name+" ") || strings.Contains(r, "`"+name+"`") {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("docs/CLI.md's command table has no row for %q", name)
		}
	}
}
