// The check the hand readers' fuzz targets share.

package state

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sameAsEncodingJSON decodes data into copies of into three ways: through
// json.Unmarshal (so the type's UnmarshalJSON), by calling that method
// directly (as a reader of checked JSON calls it), and with plain, which
// decodes through the alias type named alias. The first must give the same
// value and error text as plain (alias read as name, as errors read before
// the type had the method); the direct call, on valid JSON, the same value
// and whether it fails.
func sameAsEncodingJSON[T any](t *testing.T, data []byte, into T, plain func([]byte, *T) error, alias, name string) {
	t.Helper()
	fast, direct, slow := into, into, into
	ferr := json.Unmarshal(data, &fast)
	serr := plain(data, &slow)
	want := ""
	if serr != nil {
		want = strings.ReplaceAll(serr.Error(), alias, name)
	}
	if got := fmt.Sprint(ferr); (ferr == nil) != (serr == nil) || (ferr != nil && got != want) {
		t.Fatalf("%q: errors differ: %v / %s", data, ferr, want)
	}
	if d := cmp.Diff(slow, fast); d != "" {
		t.Fatalf("%q reads differently (-encoding/json +UnmarshalJSON):\n%s", data, d)
	}
	if !json.Valid(data) {
		return
	}
	derr := any(&direct).(json.Unmarshaler).UnmarshalJSON(data)
	if (derr == nil) != (serr == nil) {
		t.Fatalf("%q: called directly: %v, encoding/json: %v", data, derr, serr)
	}
	if d := cmp.Diff(slow, direct); d != "" {
		t.Fatalf("%q reads differently called directly (-encoding/json +UnmarshalJSON):\n%s", data, d)
	}
}
