// Benchmarks: folding the S1 record, and building its Input from JSON.

package assess

import (
	"testing"

	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
)

func BenchmarkFoldS1(b *testing.B) {
	s, err := InputFromJSON([]byte(s1))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if a := Fold(s); a.Standing != assess.StandingNotSure {
			b.Fatal(a.Standing)
		}
	}
}

func BenchmarkInputFromJSONS1(b *testing.B) {
	data := []byte(s1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := InputFromJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}
