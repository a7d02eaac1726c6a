// WithExecute keeps every declaration and the site, swaps only the function.

package toolrun_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

type lookupIn struct {
	Q string `json:"q"`
}

func lookupFn(context.Context, lookupIn) (string, error) { return "ok", nil }

func TestWithExecuteKeepsDeclarations(t *testing.T) {
	orig, err := tool.New("lookup", "Look a thing up.", lookupFn,
		tool.WithValidation(tool.ModeWarn), tool.WithResultCeiling(50, "ask for one thing"),
		tool.WithCheckIn(func(json.RawMessage) bool { return true }))
	if err != nil {
		t.Fatal(err)
	}
	var gotArgs string
	frozen, err := toolrun.WithExecute(orig, func(_ context.Context, args json.RawMessage) (any, error) {
		gotArgs = string(args)
		return tool.Result{Content: "recorded", Status: tool.StatusPartial}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Everything but the funcs (and RawResults: the copy reads a typed
	// tool's return value as data by its own means).
	type view struct {
		tool.Declaration
		HasCheckIn bool
	}
	look := func(x *tool.Tool) view {
		v := view{Declaration: x.Declaration(), HasCheckIn: x.Declaration().CheckIn != nil}
		v.Check, v.CheckArgument, v.Func, v.CheckIn, v.RawResults = nil, nil, nil, nil, false
		return v
	}
	if diff := cmp.Diff(look(orig), look(frozen)); diff != "" {
		t.Errorf("copy differs (-orig +copy):\n%s", diff)
	}

	tests := []struct {
		name     string
		tl       *tool.Tool
		args     string
		want     toolrun.Output
		wantArgs string
	}{
		{"copy runs the replacement", frozen, `{"q":"x"}`, toolrun.Output{Value: "recorded", Status: tool.StatusPartial, Wrapped: true}, `{"q":"x"}`},
		{"empty arguments become {}", frozen, ``, toolrun.Output{Value: "recorded", Status: tool.StatusPartial, Wrapped: true}, `{}`},
		{"original untouched", orig, `{"q":"x"}`, toolrun.Output{Value: "ok"}, ``},
	}
	for _, tc := range tests {
		gotArgs = ""
		out, err := toolrun.Execute(context.Background(), tc.tl.Declaration(), json.RawMessage(tc.args))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, out); diff != "" {
			t.Errorf("%s output (-want +got):\n%s", tc.name, diff)
		}
		if gotArgs != tc.wantArgs {
			t.Errorf("%s: replacement saw %q, want %q", tc.name, gotArgs, tc.wantArgs)
		}
	}
	if _, err := toolrun.Execute(context.Background(), frozen.Declaration(), json.RawMessage(`{not json`)); err == nil || !strings.Contains(err.Error(), "the arguments are not valid JSON") {
		t.Errorf("invalid JSON: err = %v, want the decode error", err)
	}
	var de *tool.DefinitionError
	if _, err := toolrun.WithExecute(orig, nil); !errors.As(err, &de) || de.Path != "fn" {
		t.Errorf("nil fn: err = %v", err)
	}
}
