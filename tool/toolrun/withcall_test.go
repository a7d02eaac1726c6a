package toolrun_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

type otherKey struct{}

// The context WithCall returns carries the call for tool.CallFrom and is its
// parent in every other way: values, deadline, cancellation, and contexts
// derived from it.
func TestWithCallKeepsTheParent(t *testing.T) {
	parent, cancel := context.WithTimeout(context.WithValue(context.Background(), otherKey{}, "kept"), time.Hour)
	var reported []any
	ctx := toolrun.WithCall(parent, tool.Call{ID: "c1", Name: "lookup", Iteration: 2, Turn: 3,
		Progress: func(p any) { reported = append(reported, p) }})

	c, err := tool.CallFrom(ctx)
	if err != nil || c.ID != "c1" || c.Name != "lookup" || c.Iteration != 2 || c.Turn != 3 {
		t.Fatalf("CallFrom = %+v, %v", c, err)
	}
	c.Progress("half way")
	if len(reported) != 1 || reported[0] != "half way" {
		t.Errorf("progress reached %v", reported)
	}
	// A copy, not the context's own: changing it changes nothing there.
	c.ID = "changed"
	if again, _ := tool.CallFrom(ctx); again.ID != "c1" {
		t.Errorf("CallFrom after a change to a copy = %q", again.ID)
	}
	if v := ctx.Value(otherKey{}); v != "kept" {
		t.Errorf("parent's value = %v", v)
	}
	if d, ok := ctx.Deadline(); !ok || time.Until(d) < 59*time.Minute {
		t.Errorf("deadline = %v, %v", d, ok)
	}
	child, stop := context.WithCancel(ctx)
	defer stop()
	fired := make(chan struct{})
	context.AfterFunc(ctx, func() { close(fired) })
	cancel()
	select {
	case <-child.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a context derived from the call's did not end with the parent")
	}
	<-fired
	if !errors.Is(ctx.Err(), context.Canceled) || !errors.Is(child.Err(), context.Canceled) {
		t.Errorf("Err = %v, child %v", ctx.Err(), child.Err())
	}
	if c, _ := tool.CallFrom(child); c.ID != "c1" {
		t.Errorf("CallFrom through a derived context = %q", c.ID)
	}
	// Outside a call: the error, and a Progress that does nothing.
	if c, err := tool.CallFrom(parent); err == nil || c.Progress == nil {
		t.Errorf("CallFrom outside a call = %+v, %v", c, err)
	}
}

// PauseData of no error is no pause, and costs nothing.
func TestPauseDataOfNoError(t *testing.T) {
	if d, ok := toolrun.PauseData(nil); ok || d != nil {
		t.Errorf("PauseData(nil) = %v, %v", d, ok)
	}
	if n := testing.AllocsPerRun(100, func() { toolrun.PauseData(nil) }); n != 0 {
		t.Errorf("PauseData(nil) allocates %v times", n)
	}
	err := tool.Pause(map[string]any{"ask": "go on?"})
	if d, ok := toolrun.PauseData(err); !ok || d == nil {
		t.Errorf("PauseData(a pause) = %v, %v", d, ok)
	}
}
