// This file holds the vector checks every index applies before storing or searching: the
// dimension the index was opened with, then normalization.

package vec

import "fmt"

// Entry checks the vector of passage id against an index of dims dimensions and returns it
// normalized. The passage itself is checked by retrieval.Passage.Validate.
func Entry(id string, v []float32, dims int) ([]float32, error) {
	if len(v) != dims {
		return nil, fmt.Errorf("retrieval: passage %q: vector has %d dimensions, the index %d", id, len(v), dims)
	}
	out, err := Normalize(v)
	if err != nil {
		return nil, fmt.Errorf("retrieval: passage %q: %w", id, err)
	}
	return out, nil
}

// Query checks a query vector against an index of dims dimensions and returns it normalized.
func Query(q []float32, dims int) ([]float32, error) {
	if len(q) != dims {
		return nil, fmt.Errorf("retrieval: query vector has %d dimensions, the index %d", len(q), dims)
	}
	out, err := Normalize(q)
	if err != nil {
		return nil, fmt.Errorf("retrieval: query: %w", err)
	}
	return out, nil
}
