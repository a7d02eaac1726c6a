// Reading a record's "requests" member, the request deltas by the hash of
// the body each rebuilds, in the form Record's encoder writes it, without
// reflection. Any other form goes to encoding/json; FuzzFastRequestsReading
// checks that the two readings agree wherever this one accepts.

package record

import "github.com/agentfootprint/agentfootprint-go/internal/fastjson"

// fastRequests reads data as the requests member; false when it is not in
// the form the reader takes.
func fastRequests(data []byte) (map[string]RequestDelta, bool) {
	r := fastjson.NewReader(data)
	out := map[string]RequestDelta{}
	ok := r.Map(func(key []byte) bool {
		var d RequestDelta
		ok := r.Object(func(name []byte) bool {
			var ok bool
			switch string(name) {
			case "base":
				d.Base, ok = r.Str()
			case "keep":
				d.Keep, ok = r.Int()
			case "tail":
				d.Tail, ok = r.Str()
			case "reuse":
				d.Reuse, ok = r.Int()
			}
			return ok
		})
		out[string(key)] = d
		return ok
	})
	return out, ok && r.Done()
}
