// Reading a run record: opening its JSON, typed values as of a commit, and
// the commits the agent chart leaves behind.

package explain

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/internal/reqspans"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// State keys of the agent chart this package reads, by their wire names as
// package state declares them.
var (
	keyHistory       = state.KeyHistory.KeyName()
	keyCatalog       = state.KeyCatalog.KeyName()
	keyContextUnits  = state.KeyContextUnits.KeyName()
	keyLatestContent = state.KeyLatestContent.KeyName()
	keyToolCalls     = state.KeyLatestToolCalls.KeyName()
	keyLLMRequest    = state.KeyLLMRequest.KeyName()
	keyFinalContent  = state.KeyFinalContent.KeyName()
	keyToolResults   = state.KeyToolResults.KeyName()
	keyUserMessage   = state.KeyUserMessage.KeyName()
)

// Stage ids of the agent chart this package reads: wire facts of the record.
const (
	stageSeed         = "seed"
	stageContext      = "context"
	stageCallLLM      = "call-llm"
	stageToolCalls    = "tool-calls"
	stagePrepareFinal = "prepare-final"
)

// ErrNoRecord refuses a nil record or a record without a commit log.
var ErrNoRecord = errors.New("explain: the record is nil or has no commit log")

// Open reads a record: a JSON file written by record.Record.MarshalJSON
// (format agentfootprint-go.record/4, 3, 2 or 1, blobs inline as base64), or a
// directory written by WriteDir (record.json plus blobs/<sha256>). Every
// blob file is checked against its name. It refuses a path that cannot be
// read, a record that is not one, and a blob whose bytes do not hash to its
// name, naming the path.
func Open(path string) (*record.Record, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("explain: open record: %w", err)
	}
	file := path
	if st.IsDir() {
		file = filepath.Join(path, "record.json")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("explain: open record: %w", err)
	}
	rec, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("explain: %s: %w", file, err)
	}
	if !st.IsDir() {
		return rec, nil
	}
	dir := filepath.Join(path, "blobs")
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("explain: open record: %w", err)
	}
	if rec.Blobs == nil {
		rec.Blobs = map[string][]byte{}
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("explain: open record: %w", err)
		}
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) != e.Name() {
			return nil, fmt.Errorf("explain: %s: the blob's bytes do not hash to its name", filepath.Join(dir, e.Name()))
		}
		rec.Blobs[e.Name()] = b
	}
	return rec, nil
}

// WriteDir writes rec for sharing as dir/record.json (without inline blobs)
// and dir/blobs/<sha256>, creating dir. Open reads it back.
func WriteDir(rec *record.Record, dir string) error {
	if rec == nil || rec.Log == nil {
		return ErrNoRecord
	}
	bare := *rec
	bare.Blobs = nil
	data, err := json.Marshal(&bare)
	if err != nil {
		return fmt.Errorf("explain: write record: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "blobs"), 0o755); err != nil {
		return fmt.Errorf("explain: write record: %w", err)
	}
	for name, b := range rec.Blobs {
		if err := os.WriteFile(filepath.Join(dir, "blobs", filepath.Base(name)), b, 0o644); err != nil {
			return fmt.Errorf("explain: write record: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "record.json"), data, 0o644); err != nil {
		return fmt.Errorf("explain: write record: %w", err)
	}
	return nil
}

// decode is record.Decode that also refuses a record without a commit log.
func decode(data []byte) (*record.Record, error) {
	rec, err := record.Decode(data)
	if err != nil {
		return nil, err
	}
	if rec.Log == nil {
		return nil, ErrNoRecord
	}
	return rec, nil
}

// valueAt returns key as of commit i converted to T. A value that is not
// already a T (a record decoded without key types) is converted through its
// JSON form.
func valueAt[T any](log *flow.Record, i int, key string) (T, bool, error) {
	var zero T
	v, ok, err := flow.ValueAt(log, i, key)
	if err != nil || !ok {
		return zero, ok, err
	}
	if t, ok := v.(T); ok {
		return t, true, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return zero, false, fmt.Errorf("explain: %s at commit %d: %w", key, i, err)
	}
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		return zero, false, fmt.Errorf("explain: %s at commit %d is not the expected shape: %w", key, i, err)
	}
	return out, true, nil
}

// writes reports whether commit c writes key.
func writes(c *flow.Commit, key string) bool {
	for _, op := range c.Ops {
		if op.Key == key {
			return true
		}
	}
	return false
}

// commitsOf returns the indices of the commits of a stage, in order.
func commitsOf(log *flow.Record, stage string) []int {
	var out []int
	for i, c := range log.Commits {
		if c.StageID == stage {
			out = append(out, i)
		}
	}
	return out
}

// findStep resolves a runtime stage id to its commit index.
func findStep(log *flow.Record, step string) (int, error) {
	if i, ok := log.Find(step); ok {
		return i, nil
	}
	return 0, fmt.Errorf("explain: the record has no step %q", step)
}

// runID returns the runtime stage id of commit i.
func runID(log *flow.Record, i int) string {
	if c, ok := log.Commit(i); ok {
		return c.RuntimeStageID
	}
	return ""
}

// catalog returns the contextCatalog as written by seed, with its commit.
func catalog(log *flow.Record) ([]inject.CatalogEntry, int, error) {
	for i, c := range log.Commits {
		if writes(c, keyCatalog) {
			cat, _, err := valueAt[[]inject.CatalogEntry](log, i, keyCatalog)
			return cat, i, err
		}
	}
	return nil, -1, errors.New("explain: the record has no contextCatalog (not an agent run?)")
}

// unitText returns a catalog entry's text: inline, or from its blob.
func unitText(rec *record.Record, e inject.CatalogEntry) (string, bool) {
	if e.Content != "" || e.ContentRef == "" {
		return e.Content, e.Content != "" || e.Chars == 0
	}
	b, ok := rec.Blob(e.ContentRef)
	return string(b), ok
}

// callInfo is what the record says about one model call.
type callInfo struct {
	commit  int // the call-llm commit
	context int // the context commit it read contextUnits from (-1 if none)
	req     state.LLMRequest
	units   state.ContextUnits
	history []llm.Message // history as the call saw it (before its own append)
	content string        // the reply's content
	calls   []llm.ToolCall

	births     []int // the commit that placed each history element; see birth
	birthsRead bool
}

// readCall gathers one call-llm commit's evidence.
func readCall(log *flow.Record, ci int) (*callInfo, error) {
	c, ok := log.Commit(ci)
	if !ok || c.StageID != stageCallLLM {
		return nil, fmt.Errorf("explain: commit %d is not a model call", ci)
	}
	info := &callInfo{commit: ci, context: -1}
	var err error
	if info.req, _, err = valueAt[state.LLMRequest](log, ci, keyLLMRequest); err != nil {
		return nil, err
	}
	// Every span of the request, the ones it shares with earlier calls too.
	info.req.Spans, info.req.SpansKept = reqspans.Of(log, info.req), 0
	if w, ok := flow.LastWriter(log, keyContextUnits, ci); ok {
		info.context = w
		if info.units, _, err = valueAt[state.ContextUnits](log, w, keyContextUnits); err != nil {
			return nil, err
		}
	}
	if ci > 0 {
		if info.history, _, err = valueAt[[]llm.Message](log, ci-1, keyHistory); err != nil {
			return nil, err
		}
	}
	if info.content, _, err = valueAt[string](log, ci, keyLatestContent); err != nil {
		return nil, err
	}
	if info.calls, _, err = valueAt[[]llm.ToolCall](log, ci, keyToolCalls); err != nil {
		return nil, err
	}
	return info, nil
}

// span returns the span of unit in the call's request.
func (ci *callInfo) span(unit string) (llm.Span, bool) {
	for _, s := range ci.req.Spans {
		if s.Unit == unit {
			return s, true
		}
	}
	return llm.Span{}, false
}

// historyUnit is the unit id of history message i.
func historyUnit(i int) string { return "history/" + strconv.Itoa(i) }

// parseHistoryUnit reads "history/<i>".
func parseHistoryUnit(id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, "history/")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n >= 0
}

// bytesReader reads b.
func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
