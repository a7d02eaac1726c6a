// Reading a ContextUnits' JSON without encoding/json's scan of the whole
// value: a stored run has one per model call, each listing the history it
// sent, and explain reads them all back.

package state

import (
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/internal/fastjson"
)

// UnmarshalJSON reads a context evaluation. The form the record writes
// (exact member names, each once) into an empty ContextUnits is read by
// hand, its units through encoding/json and its history window through
// HistoryWindow's own reader; any other input, or a ContextUnits that holds
// something already, goes through encoding/json, with the same result and
// the same errors.
func (c *ContextUnits) UnmarshalJSON(data []byte) error {
	if c.Iteration == 0 && c.Units == nil && c.History.Sent == nil && c.History.Evicted == nil {
		if fast, ok := readContextUnits(data); ok {
			*c = fast
			return nil
		}
	}
	type plain ContextUnits // the same fields, without this method
	return fastjson.NameAs[plain, ContextUnits](json.Unmarshal(data, (*plain)(c)))
}

// readContextUnits reads data in the written form; false when it is not.
func readContextUnits(data []byte) (ContextUnits, bool) {
	var c ContextUnits
	r := fastjson.NewReader(data)
	ok := r.Object(func(name []byte) bool {
		switch string(name) {
		case "iteration":
			n, ok := r.Int()
			c.Iteration = n
			return ok
		case "units":
			span, ok := r.Span()
			var units []inject.Entry
			if !ok || json.Unmarshal(span, &units) != nil {
				return false
			}
			c.Units = units
			return true
		case "history":
			span, ok := r.Span()
			return ok && c.History.UnmarshalJSON(span) == nil
		}
		return false
	})
	return c, ok && r.Done()
}
