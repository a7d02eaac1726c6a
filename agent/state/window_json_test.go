// HistoryWindow's hand-read JSON gives what encoding/json gives.

package state

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func FuzzHistoryWindowJSON(f *testing.F) {
	for _, s := range []string{
		`{"sent":[0,1,2,3],"evicted":[]}`,
		`{"sent":[],"evicted":[{"index":4,"reason":"window"}]}`,
		`{"sent":[12,-3],"evicted":null}`,
		`{"sent":[01],"evicted":[]}`,
		`{"sent":[1,2],"evicted":[]} `,
		`{"sent":[1 ,2],"evicted":[]}`,
		`{"sent":[99999999999999999999],"evicted":[]}`,
		`{"sent":[1],"evicted":[],"x":1}`,
		`{"evicted":[],"sent":[5]}`,
		`null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		type plain HistoryWindow
		var fast HistoryWindow
		var slow plain
		errFast, errSlow := json.Unmarshal(data, &fast), json.Unmarshal(data, &slow)
		if (errFast == nil) != (errSlow == nil) {
			t.Fatalf("%q: hand-read error %v, encoding/json error %v", data, errFast, errSlow)
		}
		if errFast == nil {
			if d := cmp.Diff(HistoryWindow(slow), fast); d != "" {
				t.Fatalf("%q (-encoding/json +hand-read):\n%s", data, d)
			}
		}
	})
}

func TestHistoryWindowReadsTheRecordedForm(t *testing.T) {
	in := HistoryWindow{Sent: []int{0, 1, 2, 10, 11}, Evicted: []Evicted{{Index: 3, Reason: "window"}}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	sent, _, ok := cutWindow(b)
	if !ok {
		t.Fatalf("%s is not read by hand", b)
	}
	var out HistoryWindow
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(in, out); d != "" || len(sent) != 5 {
		t.Errorf("round trip (-in +out):\n%s", d)
	}
}
