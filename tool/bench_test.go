// Benchmark of defining a typed tool (schema inference and compilation).

package tool

import (
	"context"
	"testing"
)

func BenchmarkNewTyped(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New("place_order", "Place an order.", func(_ context.Context, in benchOrder) (string, error) { return "", nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// benchOrder is an order with nested objects and an array, a typical input.
type benchOrder struct {
	Customer struct {
		ID    string `json:"id"`
		Email string `json:"email,omitempty"`
	} `json:"customer"`
	Lines []struct {
		SKU      string `json:"sku"`
		Quantity int    `json:"quantity"`
	} `json:"lines"`
	Priority uint8  `json:"priority,omitempty"`
	Note     string `json:"note,omitempty"`
}
