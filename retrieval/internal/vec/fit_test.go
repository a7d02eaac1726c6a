package vec

import "testing"

// A vector of the wrong length or one that cannot be normalized is refused with the passage or the
// query named; a good one comes back unit length.
func TestEntryAndQuery(t *testing.T) {
	if _, err := Entry("a", []float32{1, 2}, 3); err == nil || err.Error() != `retrieval: passage "a": vector has 2 dimensions, the index 3` {
		t.Errorf("short entry: %v", err)
	}
	if _, err := Entry("a", []float32{0, 0}, 2); err == nil || err.Error() != `retrieval: passage "a": the vector is all zeros` {
		t.Errorf("zero entry: %v", err)
	}
	if _, err := Query([]float32{1}, 2); err == nil || err.Error() != "retrieval: query vector has 1 dimensions, the index 2" {
		t.Errorf("short query: %v", err)
	}
	v, err := Query([]float32{3, 4}, 2)
	if err != nil || v[0] != 0.6 || v[1] != 0.8 {
		t.Errorf("query %v %v", v, err)
	}
}
