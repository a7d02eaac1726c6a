// WithExecute keeps every declaration and the site, swaps only the function.

package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

func TestWithExecuteKeepsDeclarations(t *testing.T) {
	orig, err := tool.New("lookup", "Look a thing up.", siteFn,
		tool.WithValidation(tool.ModeWarn), tool.WithResultCeiling(50, "ask for one thing"),
		tool.WithCheckIn(tool.CheckInAlways))
	if err != nil {
		t.Fatal(err)
	}
	var gotArgs string
	frozen, err := orig.WithExecute(func(_ context.Context, args json.RawMessage) (any, error) {
		gotArgs = string(args)
		return tool.Result{Content: "recorded", Status: tool.StatusPartial}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	type view struct {
		Name, Desc, Schema string
		Mode               tool.Mode
		Ceiling            tool.Ceiling
		CheckIn            bool
		Site               tool.Site
	}
	look := func(x *tool.Tool) view {
		c, _ := x.ResultCeiling()
		return view{x.Name(), x.Description(), string(x.InputSchema()), x.ValidationMode(), c, x.HasCheckIn(), x.DefinedAt()}
	}
	if diff := cmp.Diff(look(orig), look(frozen)); diff != "" {
		t.Errorf("copy differs (-orig +copy):\n%s", diff)
	}

	tests := []struct {
		name     string
		tl       *tool.Tool
		args     string
		want     tool.Output
		wantArgs string
	}{
		{"copy runs the replacement", frozen, `{"q":"x"}`, tool.Output{Value: "recorded", Status: tool.StatusPartial, Wrapped: true}, `{"q":"x"}`},
		{"empty arguments become {}", frozen, ``, tool.Output{Value: "recorded", Status: tool.StatusPartial, Wrapped: true}, `{}`},
		{"original untouched", orig, `{"q":"x"}`, tool.Output{Value: "ok"}, ``},
	}
	for _, tc := range tests {
		gotArgs = ""
		out, err := tc.tl.Execute(context.Background(), json.RawMessage(tc.args))
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
	if _, err := frozen.Execute(context.Background(), json.RawMessage(`{not json`)); !errors.As(err, new(*tool.DecodeError)) {
		t.Errorf("invalid JSON: err = %v, want a DecodeError", err)
	}
	var de *tool.DefinitionError
	if _, err := orig.WithExecute(nil); !errors.As(err, &de) || de.Path != "fn" {
		t.Errorf("nil fn: err = %v", err)
	}
}
