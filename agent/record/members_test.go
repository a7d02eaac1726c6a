// The one-pass reader of the record's members accepts what encoding/json
// accepts, and the blobs reader decodes what encoding/json decodes.

package record

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func FuzzDecodeBlobs(f *testing.F) {
	for _, s := range []string{
		`{"ab":"AQI=","cd":""}`,
		`{"ab":"AQI"}`,
		`{"a\u0062":"AQI=","ab":"AA=="}`,
		`{"ab":"A\/I="}`,
		`{"ab":null}`,
		`null`,
		`{}`,
		` { "ab" : "AQI=" } `,
		`{"ab":"AQI="`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, errFast := decodeBlobs(data)
		var slow map[string][]byte
		errSlow := json.Unmarshal(data, &slow)
		if (errFast == nil) != (errSlow == nil) {
			t.Fatalf("%q: blobs reader error %v, encoding/json error %v", data, errFast, errSlow)
		}
		if errFast == nil {
			if d := cmp.Diff(slow, fast); d != "" {
				t.Fatalf("%q (-encoding/json +blobs reader):\n%s", data, d)
			}
		}
	})
}

func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"b":[1,{"c":"\""}],"d":"x\\"}`, `{"a":1,}`, `{"a" 1}`, `{"a":1} x`, `[1]`, `{"a":tru}`, ` {"\u00e9":{}} `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := members(data, func(key string, val []byte) error {
			if !json.Valid(val) {
				return errNotPlain
			}
			return nil
		})
		var m map[string]json.RawMessage
		errJSON := json.Unmarshal(data, &m)
		if (err == nil) != (errJSON == nil && m != nil) {
			t.Fatalf("%q: members error %v, encoding/json error %v", data, err, errJSON)
		}
	})
}
