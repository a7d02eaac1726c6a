// Seams cannot be overwritten: a second layer that provides a step only one
// layer may own is refused naming both, and a step many layers may provide
// runs every provider in order.

package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// fakeLayer is a layer for these tests: it appends its name to every
// request, and comes after the layers named in deps.
type fakeLayer struct {
	n    string
	deps []string
}

func (f *fakeLayer) name() string       { return f.n }
func (f *fakeLayer) requires() []string { return nil }
func (f *fakeLayer) arm(*config) error  { return nil }
func (f *fakeLayer) after() []string    { return f.deps }
func (f *fakeLayer) shapeRequest(_ *flow.Scope, req *llm.Request) {
	req.Messages = append(req.Messages, llm.Message{Role: llm.RoleSystem, Content: "shaped by " + f.n})
}

// clockLayer is a fakeLayer that also provides the call clock.
type clockLayer struct{ fakeLayer }

func (c *clockLayer) callTime(_ *flow.Scope, _ llm.ToolCall, args json.RawMessage) (*tool.CallTime, json.RawMessage) {
	return nil, args
}

func withLayer(l layer) Option { return func(c *config) { c.addLayer(l) } }

func TestSecondOwnerOfASeamIsRefused(t *testing.T) {
	_, err := New(scripted.New(), withLayer(&clockLayer{fakeLayer{n: "first"}}), withLayer(&clockLayer{fakeLayer{n: "second"}}))
	if err == nil || !strings.Contains(err.Error(), "the first and second layers both provide the call clock step") {
		t.Fatalf("New = %v, want the second call-clock provider refused naming both", err)
	}
	// The time layer owns the call clock too: a layer that would take it
	// over is refused the same way.
	_, err = New(scripted.New(), WithTimeLayer("UTC"), withLayer(&clockLayer{fakeLayer{n: "rogue", deps: []string{layerTime}}}))
	if err == nil || !strings.Contains(err.Error(), "the time and rogue layers both provide the call clock step") {
		t.Fatalf("New = %v, want the rogue call clock refused", err)
	}
}

func TestSameLayerTwiceIsRefused(t *testing.T) {
	_, err := New(scripted.New(), WithTimeLayer("UTC"), WithTimeLayer("Europe/Berlin"))
	if err == nil || !strings.Contains(err.Error(), "the time layer is configured twice") {
		t.Fatalf("New = %v, want the second time layer refused", err)
	}
	// A plain switch given twice is harmless.
	a, err := New(scripted.New(), WithResultsLayer(), WithResultsLayer())
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Layers(); len(got) != 1 || got[0] != layerResults {
		t.Errorf("layers = %v, want [results]", got)
	}
}

func TestSharedSeamRunsEveryLayerInOrder(t *testing.T) {
	var seen *llm.Request
	p := scripted.Func(func(req *llm.Request, _ int, _ int64) scripted.Reply {
		seen = req.Clone() // a provider must not keep req itself
		return scripted.Reply{Content: "ok"}
	})
	a, err := New(p, withLayer(&fakeLayer{n: "late", deps: []string{"early"}}), withLayer(&fakeLayer{n: "early"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Layers(); strings.Join(got, ",") != "early,late" {
		t.Fatalf("layers = %v, want early before late", got)
	}
	if _, err := a.Run(t.Context(), Input{Message: "hi"}); err != nil {
		t.Fatal(err)
	}
	var shaped []string
	for _, m := range seen.Messages {
		if strings.HasPrefix(m.Content, "shaped by ") {
			shaped = append(shaped, strings.TrimPrefix(m.Content, "shaped by "))
		}
	}
	if strings.Join(shaped, ",") != "early,late" {
		t.Errorf("request shaped by %v, want both layers, early first", shaped)
	}
}

func TestLayerCycleIsRefused(t *testing.T) {
	_, err := New(scripted.New(), withLayer(&fakeLayer{n: "a", deps: []string{"b"}}), withLayer(&fakeLayer{n: "b", deps: []string{"a"}}))
	if err == nil || !strings.Contains(err.Error(), "the layers a, b each wait for another") {
		t.Fatalf("New = %v, want the cycle refused naming a and b", err)
	}
}
