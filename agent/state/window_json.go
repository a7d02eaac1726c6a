// Reading a HistoryWindow's JSON fast: every model call's contextUnits
// lists the indices of the history it sent, so a long run's record holds
// hundreds of thousands of small integers, which encoding/json reads one
// reflective literal at a time.

package state

import (
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/internal/fastjson"
)

// UnmarshalJSON reads {"sent":[…],"evicted":[…]}. The form the record
// writes (no spaces, sent before evicted) is read by hand; any other input
// goes through encoding/json, with the same result and the same errors.
func (w *HistoryWindow) UnmarshalJSON(data []byte) error {
	if sent, evicted, ok := cutWindow(data); ok {
		var ev []Evicted
		if json.Unmarshal(evicted, &ev) == nil {
			w.Sent, w.Evicted = sent, ev
			return nil
		}
	}
	type plain HistoryWindow // without this method
	return fastjson.NameAs[plain, HistoryWindow](json.Unmarshal(data, (*plain)(w)))
}

// cutWindow reads `{"sent":[ints],"evicted":` and returns the indices and
// the evicted value's bytes (the rest but the closing brace), or false.
func cutWindow(data []byte) ([]int, []byte, bool) {
	const head, mid = `{"sent":[`, `,"evicted":`
	if len(data) < len(head)+len(mid)+3 || string(data[:len(head)]) != head || data[len(data)-1] != '}' {
		return nil, nil, false
	}
	i := len(head)
	sent := []int{}
	if data[i] == ']' {
		i++
	} else {
		// Count the commas first so the list is made once.
		n := 1
		for j := i; j < len(data) && data[j] != ']'; j++ {
			if data[j] == ',' {
				n++
			}
		}
		sent = make([]int, 0, n)
		for {
			v, next, ok := readInt(data, i)
			if !ok {
				return nil, nil, false
			}
			sent = append(sent, v)
			i = next
			if i >= len(data) {
				return nil, nil, false
			}
			if data[i] == ']' {
				i++
				break
			}
			if data[i] != ',' {
				return nil, nil, false
			}
			i++
		}
	}
	if len(data)-i < len(mid)+1 || string(data[i:i+len(mid)]) != mid {
		return nil, nil, false
	}
	return sent, data[i+len(mid) : len(data)-1], true
}

// readInt reads a JSON integer of at most 18 digits at i (no leading zero,
// an optional minus sign), returning it and the offset after it.
func readInt(data []byte, i int) (int, int, bool) {
	neg := false
	if i < len(data) && data[i] == '-' {
		neg, i = true, i+1
	}
	start := i
	v := 0
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		v = v*10 + int(data[i]-'0')
		i++
	}
	switch d := i - start; {
	case d == 0 || d > 18:
		return 0, 0, false
	case d > 1 && data[start] == '0':
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, i, true
}
