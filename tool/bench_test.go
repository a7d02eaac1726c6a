package tool

import (
	"context"
	"encoding/json"
	"testing"
)

var benchArgs = json.RawMessage(`{"customer":{"id":"c-1042","email":"a@example.com"},"lines":[{"sku":"A-1","quantity":2},{"sku":"B-7","quantity":1},{"sku":"C-3","quantity":5}],"priority":3,"note":"leave at the door"}`)

func BenchmarkValidateValid(b *testing.B) {
	tl, err := New("place_order", "Place an order.", func(_ context.Context, in orderIn) (string, error) { return "", nil })
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if rej := tl.Validate(benchArgs, ""); rej != nil {
			b.Fatal(rej.Text())
		}
	}
}

func BenchmarkValidateInvalid(b *testing.B) {
	tl, err := New("place_order", "Place an order.", func(_ context.Context, in orderIn) (string, error) { return "", nil })
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"customer":{"id":7},"lines":[{"sku":1,"quantity":"2"}],"extra":true}`)
	b.ReportAllocs()
	for b.Loop() {
		if rej := tl.Validate(args, ""); rej == nil || rej.Total != 4 {
			b.Fatal("expected 4 issues")
		}
	}
}

func BenchmarkInvokeTyped(b *testing.B) {
	tl, err := New("place_order", "Place an order.", func(_ context.Context, in orderIn) (Result, error) {
		return Result{Content: len(in.Lines), Status: StatusSuccess}, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx := WithCall(context.Background(), Call{ID: "c1", Name: "place_order", Iteration: 1, Turn: 1})
	b.ReportAllocs()
	for b.Loop() {
		o := tl.Invoke(ctx, benchArgs, "")
		if o.Err != nil || o.Rejection != nil {
			b.Fatal(o)
		}
	}
}

func BenchmarkNewTyped(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New("place_order", "Place an order.", func(_ context.Context, in orderIn) (string, error) { return "", nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParsePeriod(b *testing.B) {
	inputs := []struct {
		s  string
		sp PeriodSpelling
	}{
		{"24h", SpellingLookback},
		{"-40m", SpellingSignedLookback},
		{"2026-10-09T08:00:00-07:00..2026-10-09T08:40:59.123Z", SpellingISORange},
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, in := range inputs {
			if !ParsesUnder(in.s, in.sp, "") {
				b.Fatal(in.s)
			}
		}
	}
}
