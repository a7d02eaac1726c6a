// Where each history message was placed: one walk of the log's history ops
// for a call, instead of one walk per message asked about.

package explain

import (
	"reflect"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// historyBirths returns, for every element of history as of commit asOf,
// the commit that put it there (the same answer flow.ElementBirth gives
// one element at a time). It returns nil when an op's value is not a typed
// list (a record decoded without key types, or a merge): the caller then
// asks flow element by element.
func historyBirths(log *flow.Record, asOf int) []int {
	table := []int{}
	for ci := 0; ci <= asOf && ci < len(log.Commits); ci++ {
		for _, op := range log.Commits[ci].Ops {
			if op.Key != keyHistory {
				continue
			}
			switch op.Verb {
			case flow.VerbSet, flow.VerbAppend:
				n, ok := typedLen(op.Value)
				if !ok {
					return nil
				}
				if op.Verb == flow.VerbSet {
					table = table[:0]
				}
				for range n {
					table = append(table, ci)
				}
			case flow.VerbDelete:
				table = table[:0]
			default:
				return nil
			}
		}
	}
	return table
}

// typedLen is the length of a typed slice value; raw JSON and anything
// else reports false.
func typedLen(v any) (int, bool) {
	if v == nil {
		return 0, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice || rv.Type().Elem().Kind() == reflect.Uint8 {
		return 0, false // json.RawMessage and []byte are not lists of elements
	}
	return rv.Len(), true
}

// birth returns the commit that placed history element i as the call saw
// it (before its own commit); the error is flow's, for a history value that
// is not a list.
func (ci *callInfo) birth(log *flow.Record, i int) (int, bool, error) {
	if !ci.birthsRead {
		ci.births, ci.birthsRead = historyBirths(log, ci.commit-1), true
	}
	if ci.births != nil {
		if i < 0 || i >= len(ci.births) {
			return 0, false, nil
		}
		return ci.births[i], true, nil
	}
	return flow.ElementBirth(log, keyHistory, i, ci.commit-1)
}
