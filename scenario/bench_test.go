// Benchmarks: loading the demo scenario, and running it end to end.

package scenario

import (
	"context"
	"testing"
)

func BenchmarkParseDemo(b *testing.B) {
	data := DemoFile()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRunDemo(b *testing.B) {
	f, err := Demo()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(context.Background(), f); err != nil {
			b.Fatal(err)
		}
	}
}
