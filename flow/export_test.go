package flow

// ReadRecordBothWays reads a commit log's JSON as DecodeRecord does before
// typing its values, once by the reader of the form Record writes (fastOK
// false when it gives up) and once through encoding/json.
func ReadRecordBothWays(data []byte) (fast *Record, fastOK bool, fastErr error, slow *Record, slowErr error) {
	if w, ok := fastRecordWire(data); ok {
		fast, fastErr = w.record()
		fastOK = true
	}
	slow, slowErr = slowRecordJSON(data)
	return fast, fastOK, fastErr, slow, slowErr
}
