package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeModels answers the read-only calls doctor makes, for an OpenAI-compatible server
// (GET /v1/models), Ollama (GET /api/tags) and Anthropic (GET /v1/models/{model}).
func fakeModels(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/models":
			w.Write([]byte(`{"object":"list","data":[{"id":"m1","object":"model"},{"id":"m2","object":"model"}]}`))
		case "/api/tags":
			w.Write([]byte(`{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest"}]}`))
		case "/v1/models/claude-test":
			w.Write([]byte(`{"id":"claude-test","type":"model"}`))
		default:
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// clearProviderEnv makes the providers' defaults independent of the machine's environment.
func clearProviderEnv(t *testing.T) {
	for _, v := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OLLAMA_HOST"} {
		t.Setenv(v, "")
	}
}

func TestDoctor(t *testing.T) {
	clearProviderEnv(t)
	srv := fakeModels(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	cases := []struct {
		name string
		env  map[string]string
		args []string
		code int
	}{
		{"openai-ok", nil, []string{"--provider", "openai", "--model", "m1", "--base-url", srv.URL + "/v1"}, 0},
		// A server that lists no models: the model check could not run, which is SKIP, not OK,
		// and not a failure.
		{"openai-model-skipped", nil, []string{"--provider", "openai", "--model", "m1", "--base-url", srv.URL + "/nolist"}, 0},
		{"openai-unknown-model", nil, []string{"--provider", "openai", "--model", "m9", "--base-url", srv.URL + "/v1"}, 1},
		{"ollama-ok", nil, []string{"--provider", "ollama", "--model", "llama3.2", "--base-url", srv.URL}, 0},
		{"ollama-not-pulled", nil, []string{"--provider", "ollama", "--model", "qwen3", "--base-url", srv.URL}, 1},
		{"ollama-not-running", nil, []string{"--provider", "ollama", "--model", "llama3.2", "--base-url", closed.URL}, 1},
		{"anthropic-no-key", nil, []string{"--provider", "anthropic", "--model", "claude-test", "--base-url", srv.URL}, 1},
		{"anthropic-ok", map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test"}, []string{"--provider", "anthropic", "--model", "claude-test", "--base-url", srv.URL}, 0},
		{"no-model", nil, []string{"--provider", "ollama"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			out, errText, code := runCLI(t, "", append([]string{"doctor", "--timeout", "5s"}, c.args...)...)
			if code != c.code || errText != "" {
				t.Fatalf("exit %d (want %d), stderr %q:\n%s", code, c.code, errText, out)
			}
			out = strings.ReplaceAll(strings.ReplaceAll(out, srv.URL, "http://SERVER"), closed.URL, "http://CLOSED")
			goldenCLI(t, "testdata/doctor/"+c.name+".golden", out)
		})
	}
}

func TestDoctorFixes(t *testing.T) {
	clearProviderEnv(t)
	srv := fakeModels(t)
	// Each failure says what to do at a shell.
	for _, c := range []struct{ args []string }{
		{[]string{"--provider", "anthropic", "--model", "claude-test", "--base-url", srv.URL}},
		{[]string{"--provider", "ollama", "--model", "qwen3", "--base-url", srv.URL}},
	} {
		out, _, _ := runCLI(t, "", append([]string{"doctor"}, c.args...)...)
		want := map[string]string{"anthropic": "fix: export ANTHROPIC_API_KEY=<your key>", "ollama": "`ollama pull qwen3`"}[c.args[1]]
		if !strings.Contains(out, want) {
			t.Errorf("%s: output lacks %q:\n%s", c.args[1], want, out)
		}
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	out, _, _ := runCLI(t, "", "doctor", "--provider", "ollama", "--model", "llama3.2", "--base-url", closed.URL)
	if !strings.Contains(out, "`ollama serve`") {
		t.Errorf("a stopped Ollama does not say `ollama serve`:\n%s", out)
	}

	// --json: one report per provider; without --provider every provider is checked, each
	// at the server its environment variable names (all the fake here, so no network).
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL)
	t.Setenv("OLLAMA_HOST", srv.URL)
	out, _, code := runCLI(t, "", "doctor", "--json", "--model", "m1")
	var reports []doctorReport
	if err := json.Unmarshal([]byte(out), &reports); err != nil {
		t.Fatalf("--json: %v: %s", err, out)
	}
	var names []string
	for _, r := range reports {
		names = append(names, r.Provider)
	}
	if strings.Join(names, ",") != "anthropic,ollama,openai" || code != 1 {
		t.Errorf("providers %v, exit %d", names, code)
	}
	// m1 is listed by the OpenAI-compatible fake only; anthropic also lacks a key.
	failed := map[string][]string{}
	for _, r := range reports {
		if r.BaseURL == "" || !strings.HasPrefix(r.BaseURL, srv.URL) {
			t.Errorf("%s checked %q, not the fake", r.Provider, r.BaseURL)
		}
		for _, d := range r.Checks {
			if !d.OK {
				failed[r.Provider] = append(failed[r.Provider], d.Check)
			}
		}
	}
	want := map[string][]string{"anthropic": {"key", "model"}, "ollama": {"model"}}
	if d := cmp.Diff(want, failed); d != "" {
		t.Errorf("failed checks (-want +got):\n%s", d)
	}
}

func TestDoctorUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"doctor", "--base-url", "http://localhost:1234"}, "--base-url needs --provider"},
		{[]string{"doctor", "--provider", "ollama", "--timeout", "0s"}, "--timeout 0s"},
	} {
		out, errText, code := runCLI(t, "", c.args...)
		if code != 2 || out != "" || !strings.Contains(errText, c.err) {
			t.Errorf("%v: exit %d, out %q, stderr %q", c.args, code, out, errText)
		}
	}
}
