// This file holds the golden tests of what a new user meets in the first hour: the
// backtrack's text, the ablation report, the three provider faults, a file of the wrong kind,
// an unknown id and a missing store. (The help's table is TestHelpNamesTheTable's.)

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// scrubFirstHour replaces what changes from run to run and machine to machine.
func scrubFirstHour(s string, paths ...string) string {
	for _, p := range paths {
		s = strings.ReplaceAll(s, p, "DIR")
	}
	if wd, err := os.Getwd(); err == nil {
		s = strings.ReplaceAll(s, filepath.Dir(filepath.Dir(wd)), "MODULE")
	}
	s = regexp.MustCompile(`run-[0-9a-f]{16}`).ReplaceAllString(s, "run-ID")
	s = regexp.MustCompile(`127\.0\.0\.1:\d+`).ReplaceAllString(s, "127.0.0.1:PORT")
	// Definition lines and content hashes follow the code that built the agent, not the CLI.
	s = regexp.MustCompile(`\.go:\d+`).ReplaceAllString(s, ".go:LINE")
	s = regexp.MustCompile(`\b[0-9a-f]{12}\b`).ReplaceAllString(s, "HASH")
	return s
}

func TestFirstHourGoldens(t *testing.T) {
	clearProviderEnv(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	demo, _, code := runCLI(t, "", "demo", "--part", "1", "--store", db)
	m := regexp.MustCompile(`Stored as run (run-[0-9a-f]{16})`).FindStringSubmatch(demo)
	if code != 0 || m == nil {
		t.Fatalf("demo: exit %d", code)
	}
	id := m[1]
	scenarioFile := filepath.Join(dir, "scenario.json")
	file, _, _ := runCLI(t, "", "demo", "--scenario")
	os.WriteFile(scenarioFile, []byte(file), 0o600)

	cases := []struct {
		name string
		args []string
		code int
	}{
		{"explain", []string{"explain", id, "--store", db}, 0},
		{"ablate", []string{"ablate", id, "--store", db, "--without", "history/4", "--without", "unit:empty-logs", "--samples", "2"}, 0},
		{"ablate-unknown-name", []string{"ablate", id, "--store", db, "--without", "history/9"}, 2},
		{"provider-unknown", []string{"demo", "--provider", "opneai", "--model", "gpt-x"}, 2},
		{"doctor-provider-unknown", []string{"doctor", "--provider", "mistral", "--model", "m1"}, 2},
		{"provider-no-key", []string{"demo", "--provider", "openai"}, 2},
		{"provider-no-model", []string{"demo", "--provider", "ollama"}, 2},
		{"provider-unreachable", []string{"demo", "--provider", "ollama", "--model", "llama3.2", "--base-url", "http://127.0.0.1:1"}, 1},
		{"verify-not-an-export", []string{"audit", "verify", scenarioFile}, 2},
		{"show-unknown-id", []string{"show", "run-0000000000000000", "--store", db}, 2},
		{"explain-missing-store", []string{"explain", id, "--store", filepath.Join(dir, "none.db")}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errText, code := runCLI(t, "", c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, c.code, errText)
			}
			got := "exit " + string(rune('0'+code)) + "\n--- stdout\n" + out + "--- stderr\n" + errText
			goldenCLI(t, "testdata/firsthour/"+c.name+".golden", scrubFirstHour(got, dir))
		})
	}
}
