// Tests of definition sites: the line of the New/NewRaw call, moved up by
// CallerSkip for helpers, and CallerSkip's range.

package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

type siteIn struct {
	Q string `json:"q"`
}

func siteFn(context.Context, siteIn) (string, error) { return "ok", nil }

func rawFn(context.Context, json.RawMessage) (any, error) { return "ok", nil }

// defineForCaller is a helper that defines a tool on its caller's behalf.
func defineForCaller(skip int) (*tool.Tool, error) {
	return tool.New("helped", "A tool a helper defined.", siteFn, tool.WithCallerSkip(skip))
}

// here returns this file, the caller's line and function.
func here() tool.Site {
	pc, file, line, _ := runtime.Caller(1)
	return tool.Site{File: file, Line: line, Function: runtime.FuncForPC(pc).Name()}
}

func TestDefinedAt(t *testing.T) {
	at := func(s tool.Site, delta int) tool.Site { s.Line += delta; return s }

	h := here()
	typed, err := tool.New("typed", "A typed tool.", siteFn)
	if err != nil {
		t.Fatal(err)
	}
	wantTyped := at(h, 1)

	h = here()
	raw, err := tool.NewRaw("raw", "A raw tool.", json.RawMessage(`{"type":"object"}`), rawFn)
	if err != nil {
		t.Fatal(err)
	}
	wantRaw := at(h, 1)

	h = here()
	helped, err := defineForCaller(1)
	if err != nil {
		t.Fatal(err)
	}
	wantHelped := at(h, 1)

	inHelper, err := defineForCaller(0)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		got  tool.Site
		want tool.Site
	}{
		{"New", typed.Declaration().DefinedAt, wantTyped},
		{"NewRaw", raw.Declaration().DefinedAt, wantRaw},
		{"WithCallerSkip(1) names the helper's caller", helped.Declaration().DefinedAt, wantHelped},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	if got := inHelper.Declaration().DefinedAt; filepath.Base(got.File) != "site_test.go" || got.Function != "github.com/agentfootprint/agentfootprint-go/tool_test.defineForCaller" {
		t.Errorf("without CallerSkip the site is the helper: %+v", got)
	}
}

func TestCallerSkipRange(t *testing.T) {
	for _, n := range []int{-1, 16} {
		_, err := tool.New("skipper", "A tool.", siteFn, tool.WithCallerSkip(n))
		var de *tool.DefinitionError
		if !errors.As(err, &de) || de.Path != "callerSkip" {
			t.Errorf("WithCallerSkip(%d): err = %v, want a DefinitionError on callerSkip", n, err)
		}
	}
	// A skip deeper than the stack leaves the site empty rather than failing.
	tl, err := tool.New("deep", "A tool.", siteFn, tool.WithCallerSkip(15))
	if err != nil {
		t.Fatal(err)
	}
	if got := tl.Declaration().DefinedAt; got != (tool.Site{}) {
		t.Errorf("deep site = %+v", got)
	}
}

func TestWithDefinitionSite(t *testing.T) {
	want := tool.Site{File: "mcp stdio: node server.js", Function: "echo"}
	tl, err := tool.NewRaw("echo", "Echoes.", json.RawMessage(`{"type":"object"}`), rawFn, tool.WithDefinitionSite(want))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, tl.Declaration().DefinedAt); diff != "" {
		t.Errorf("site (-want +got):\n%s", diff)
	}
	_, err = tool.NewRaw("echo", "Echoes.", json.RawMessage(`{"type":"object"}`), rawFn, tool.WithDefinitionSite(tool.Site{Function: "echo"}))
	var de *tool.DefinitionError
	if !errors.As(err, &de) || de.Path != "definitionSite.file" {
		t.Errorf("blank file: err = %v, want a DefinitionError on definitionSite.file", err)
	}
}

func TestSitePlace(t *testing.T) {
	for _, tc := range []struct {
		site tool.Site
		want string
	}{
		{tool.Site{File: "example.com/ops/tools.go", Line: 42, Function: "ops.Tools"}, "example.com/ops/tools.go:42"},
		{tool.Site{File: "mcp server echoer (http: http://127.0.0.1:9)", Function: "tool echo"}, "mcp server echoer (http: http://127.0.0.1:9)"},
	} {
		if got := tc.site.Place(); got != tc.want {
			t.Errorf("%+v.Place() = %q, want %q", tc.site, got, tc.want)
		}
	}
}
