// Benchmarks of validating and invoking a typed tool.

package toolrun

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

var benchArgs = json.RawMessage(`{"customer":{"id":"c-1042","email":"a@example.com"},"lines":[{"sku":"A-1","quantity":2},{"sku":"B-7","quantity":1},{"sku":"C-3","quantity":5}],"priority":3,"note":"leave at the door"}`)

func BenchmarkValidateValid(b *testing.B) {
	tl, err := tool.New("place_order", "Place an order.", func(_ context.Context, in orderIn) (string, error) { return "", nil })
	if err != nil {
		b.Fatal(err)
	}
	d := tl.Declaration()
	b.ReportAllocs()
	for b.Loop() {
		if rej := Validate(d, benchArgs, ""); rej != nil {
			b.Fatal(rej.Text())
		}
	}
}

func BenchmarkValidateInvalid(b *testing.B) {
	tl, err := tool.New("place_order", "Place an order.", func(_ context.Context, in orderIn) (string, error) { return "", nil })
	if err != nil {
		b.Fatal(err)
	}
	d := tl.Declaration()
	args := json.RawMessage(`{"customer":{"id":7},"lines":[{"sku":1,"quantity":"2"}],"extra":true}`)
	b.ReportAllocs()
	for b.Loop() {
		if rej := Validate(d, args, ""); rej == nil || rej.Total != 4 {
			b.Fatal("expected 4 issues")
		}
	}
}

func BenchmarkInvokeTyped(b *testing.B) {
	tl, err := tool.New("place_order", "Place an order.", func(_ context.Context, in orderIn) (tool.Result, error) {
		return tool.Result{Content: len(in.Lines), Status: tool.StatusSuccess}, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	d := tl.Declaration()
	ctx := WithCall(context.Background(), tool.Call{ID: "c1", Name: "place_order", Iteration: 1, Turn: 1})
	b.ReportAllocs()
	for b.Loop() {
		o := Invoke(ctx, d, benchArgs, "")
		if o.Err != nil || o.Rejection != nil {
			b.Fatal(o)
		}
	}
}
