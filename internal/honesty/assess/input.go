// This file holds Input, the one typed shape the fold reads, and the constructors that build it
// from a live run, a stored record, a JSON object of state keys, or a checkpoint's ledger.

package assess

import (
	"encoding/json"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Input is the committed state of one turn as the fold reads it, each value in its Go type. Every
// witness pointer the fold returns names a value in it by the state key and the index the record
// keeps it under.
type Input struct {
	// Turn is the turn folded: only ledger rows stamped with it are read, so rows carried from
	// earlier turns are record, not folded. Below 1, every row is read.
	Turn int
	// Findings is the findings ledger (findingsLedger), rows of earlier turns included.
	Findings []ledger.Row
	// Coverage is the run's coverageDeclared rows.
	Coverage []coverage.DeclaredCoverage
	// History is the conversation's messages (history). The turn's tool results are the tool
	// messages after the person's message.
	History []llm.Message
	// UserMessage is the person's message of this turn (userMessage), "" when unknown.
	UserMessage string
	// ArgumentAsk is the inputs layer's question about a batch's arguments (argumentAsk); its
	// Waiting is set while the question is out.
	ArgumentAsk state.ArgumentAsk
}

// InputFromReader builds an Input from a live scope or any other flow.Reader holding the agent's
// typed values. On a scope, each key is a tracked read, in the order turnNumber, findingsLedger,
// coverageDeclared, history, userMessage, argumentAsk. A key that is absent, or holds a value of
// another type, is left at its zero value.
func InputFromReader(r flow.Reader) Input {
	var in Input
	if t, ok := state.KeyTurnNumber.Get(r); ok {
		in.Turn = t
	}
	in.Findings = state.KeyFindingsLedger.Get(r)
	in.Coverage = state.KeyCoverageDeclared.Get(r)
	in.History = state.KeyHistory.Get(r)
	in.UserMessage, _ = state.KeyUserMessage.Get(r)
	in.ArgumentAsk, _ = state.KeyArgumentAsk.Get(r)
	return in
}

// InputFromRecord builds an Input from a run's record as of its last commit. A record decoded
// with its chart holds typed values; one decoded with encoding/json alone holds raw JSON, which
// is decoded here key by key into the typed fields (see InputFromJSON for what a value that does
// not decode becomes).
func InputFromRecord(rec *flow.Record) (Input, error) {
	if rec == nil || len(rec.Commits) == 0 {
		return Input{}, fmt.Errorf("assess: empty record")
	}
	last := len(rec.Commits) - 1
	values := map[string]any{}
	for _, k := range foldKeys {
		v, ok, err := flow.ValueAt(rec, last, k)
		if err != nil {
			return Input{}, fmt.Errorf("assess: %w", err)
		}
		if ok {
			values[k] = v
		}
	}
	return inputOf(values)
}

// InputFromJSON builds an Input from a JSON object whose members are state keys, such as a
// snapshot of committed state or a conversation checkpoint (which carries history and
// findingsLedger at its top level). Members the fold does not read are ignored. A member that
// does not decode into its key's type is left at its zero value, and so is each element of a
// list that does not decode, so the indices of the others still match the JSON; the fold then
// skips it, as it skips a row of a kind it does not read. Only data that is not a JSON object,
// or a member that is not JSON at all, is an error.
func InputFromJSON(data []byte) (Input, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return Input{}, fmt.Errorf("assess: state is not a JSON object: %w", err)
	}
	values := make(map[string]any, len(foldKeys))
	for _, k := range foldKeys {
		if v, ok := members[k]; ok {
			values[k] = v
		}
	}
	return inputOf(values)
}

// InputFromLedger builds an Input from a findings ledger alone, such as a checkpoint's, folded
// for the given turn. A turn below 1 folds every row.
func InputFromLedger(rows []ledger.Row, turn int) Input {
	return Input{Turn: turn, Findings: rows}
}

// foldKeys are the wire names of the keys the fold reads.
var foldKeys = []string{
	state.KeyTurnNumber.KeyName(), state.KeyFindingsLedger.KeyName(), state.KeyCoverageDeclared.KeyName(),
	state.KeyHistory.KeyName(), state.KeyUserMessage.KeyName(), state.KeyArgumentAsk.KeyName(),
}

// inputOf fills an Input from values that are each typed or raw JSON.
func inputOf(values map[string]any) (Input, error) {
	var in Input
	var err error
	if v, ok := values[state.KeyTurnNumber.KeyName()]; ok {
		in.Turn, err = turnOf(v)
	}
	if err == nil {
		in.Findings, err = decodeList[ledger.Row](values[state.KeyFindingsLedger.KeyName()])
	}
	if err == nil {
		in.Coverage, err = decodeList[coverage.DeclaredCoverage](values[state.KeyCoverageDeclared.KeyName()])
	}
	if err == nil {
		in.History, err = decodeList[llm.Message](values[state.KeyHistory.KeyName()])
	}
	if err == nil {
		in.UserMessage, err = decodeValue[string](values[state.KeyUserMessage.KeyName()])
	}
	if err == nil {
		in.ArgumentAsk, err = decodeValue[state.ArgumentAsk](values[state.KeyArgumentAsk.KeyName()])
	}
	if err != nil {
		return Input{}, fmt.Errorf("assess: %w", err)
	}
	return in, nil
}

// turnOf reads turnNumber: an int, or a JSON number without fraction. Anything else folds every
// row.
func turnOf(v any) (int, error) {
	switch t := v.(type) {
	case int:
		return t, nil
	case json.RawMessage:
		if !json.Valid(t) {
			return 0, fmt.Errorf("%s is not JSON", state.KeyTurnNumber.KeyName())
		}
		var f float64
		if json.Unmarshal(t, &f) == nil {
			if n, ok := whole(f); ok {
				return n, nil
			}
		}
	}
	return 0, nil
}

// decodeValue reads a value that is typed or raw JSON; raw JSON that does not decode into T is T's
// zero value.
func decodeValue[T any](v any) (T, error) {
	var out T
	switch t := v.(type) {
	case T:
		return t, nil
	case json.RawMessage:
		if !json.Valid(t) {
			return out, fmt.Errorf("a state value is not JSON")
		}
		if json.Unmarshal(t, &out) != nil {
			var zero T
			return zero, nil
		}
	}
	return out, nil
}

// decodeList reads a list that is typed or raw JSON. Raw JSON is decoded element by element; an
// element that does not decode into E is E's zero value, so every other element keeps its index.
// A value that is not a list is no list.
func decodeList[E any](v any) ([]E, error) {
	switch t := v.(type) {
	case []E:
		return t, nil
	case json.RawMessage:
		if !json.Valid(t) {
			return nil, fmt.Errorf("a state value is not JSON")
		}
		var all []E
		if json.Unmarshal(t, &all) == nil {
			return all, nil
		}
		var elems []json.RawMessage
		if json.Unmarshal(t, &elems) != nil {
			return nil, nil
		}
		out := make([]E, len(elems))
		for i, el := range elems {
			var e E
			if json.Unmarshal(el, &e) == nil {
				out[i] = e
			}
		}
		return out, nil
	}
	return nil, nil
}
