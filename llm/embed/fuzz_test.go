// Fuzzing the two reply decoders: any bytes give vectors of the asked count
// and one length, or an error; never a panic.

package embed

import "testing"

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[3,4]}]}`), 2)
	f.Add([]byte(`{"embeddings":[[0.5],[0.25]]}`), 2)
	f.Add([]byte(`{"data":[{"index":7,"embedding":[1]}]}`), 1)
	f.Fuzz(func(t *testing.T, body []byte, n int) {
		if n < 0 || n > 64 {
			return
		}
		for _, dec := range []func([]byte, int) ([][]float32, error){decodeOpenAI, decodeOllama} {
			vs, err := dec(body, n)
			if err != nil {
				continue
			}
			if len(vs) != n {
				t.Fatalf("%d vectors for %d texts", len(vs), n)
			}
			for _, v := range vs {
				if len(v) == 0 || len(v) != len(vs[0]) {
					t.Fatalf("ragged or empty vectors accepted: %v", vs)
				}
			}
		}
	})
}
