// Content the history already holds: a tool result the model was served is
// a tool message of history, so the record's JSON (since format 3) does not
// write it again as the raw-output blob or inside the tools.result event; it
// names it by SHA-256 and the decoder puts it back.

package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// minHeldResult is the shortest tools.result text written as a reference:
// a shorter one costs fewer bytes inline than its "sha256:<hex>" name.
const minHeldResult = 96

// heldContent is every distinct tool message content of a log's history
// (the subflow logs' included), by content and by SHA-256 (hex).
type heldContent struct {
	byText map[string]string // content → hex
	byHash map[string]string // hex → content
}

// heldIn reads the history ops of log and of its subflows. A value the
// decoder left as JSON (a composition's inner log) is read as messages; one
// that is not a list of messages holds nothing.
func heldIn(log *flow.Record) heldContent {
	h := heldContent{byText: map[string]string{}, byHash: map[string]string{}}
	h.add(log, 0)
	return h
}

// maxSubflowDepth bounds the walk into nested subflow logs.
const maxSubflowDepth = 32

func (h heldContent) add(log *flow.Record, depth int) {
	if log == nil || depth > maxSubflowDepth {
		return
	}
	key := state.KeyHistory.KeyName()
	for _, c := range log.Commits {
		for _, op := range c.Ops {
			if op.Key != key || op.Verb == flow.VerbDelete {
				continue
			}
			var msgs []llm.Message
			switch v := op.Value.(type) {
			case []llm.Message:
				msgs = v
			case json.RawMessage:
				if json.Unmarshal(v, &msgs) != nil {
					continue
				}
			}
			for _, m := range msgs {
				// A text that is not UTF-8 does not survive JSON (each bad
				// byte reads back as U+FFFD), so history cannot hold it for
				// the decoder: it is written where it stands.
				if m.Role != llm.RoleTool || m.Content == "" || !utf8.ValidString(m.Content) {
					continue
				}
				if _, seen := h.byText[m.Content]; seen {
					continue
				}
				// Hashed where the string is: Sum256 only reads its input, so a
				// copy of each result (kilobytes a call) would be garbage at once.
				sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(m.Content), len(m.Content)))
				hx := hex.EncodeToString(sum[:])
				h.byText[m.Content], h.byHash[hx] = hx, m.Content
			}
		}
	}
	for _, sub := range log.Subflows {
		h.add(sub, depth+1)
	}
}

// storedBlobs splits blobs into those the JSON writes and the sorted
// digests of those history holds (written as blobsInHistory).
func (h heldContent) storedBlobs(blobs map[string][]byte) (map[string][]byte, []string) {
	var held []string
	for d := range blobs {
		if _, ok := h.byHash[d]; ok {
			held = append(held, d)
		}
	}
	if len(held) == 0 {
		return blobs, nil
	}
	out := make(map[string][]byte, len(blobs)-len(held))
	for d, b := range blobs {
		if _, ok := h.byHash[d]; !ok {
			out[d] = b
		}
	}
	slices.Sort(held)
	return out, held
}

// restoreBlobs puts the blobs named in held back into blobs from history,
// returning the map (made when blobs is nil). A digest history does not
// hold stays missing: Record.Blob then reports it absent.
func (h heldContent) restoreBlobs(blobs map[string][]byte, held []string) map[string][]byte {
	for _, d := range held {
		text, ok := h.byHash[d]
		if !ok {
			continue
		}
		if blobs == nil {
			blobs = make(map[string][]byte, len(held))
		}
		blobs[d] = []byte(text)
	}
	return blobs
}

// storedToolsResult is the tools.result payload as a record (format 3 and later) writes
// it when history holds the result: event.ToolsResultPayload with the text
// replaced by its name. The fields follow ToolsResultPayload's order.
type storedToolsResult struct {
	ToolCallID string `json:"toolCallId"`
	ResultRef  string `json:"resultRef"`
	Error      bool   `json:"error,omitempty"`
	DurationMs int64  `json:"durationMs"`
	Status     string `json:"status,omitempty"`
}

// storedEvents returns evs as the record writes them: a tools.result event
// whose result is a tool message of history names it ("sha256:<hex>")
// instead of repeating it. evs itself is not changed.
func (h heldContent) storedEvents(evs []event.Event) []event.Event {
	var out []event.Event
	for i, e := range evs {
		if e.Type != event.ToolsResult {
			continue
		}
		p, ok := toolsResultOf(e.Payload)
		if !ok || len(p.Result) < minHeldResult {
			continue
		}
		hx, held := h.byText[p.Result]
		if !held {
			continue
		}
		if out == nil {
			out = slices.Clone(evs)
		}
		out[i].Payload = storedToolsResult{ToolCallID: p.ToolCallID, ResultRef: "sha256:" + hx, Error: p.Error, DurationMs: p.DurationMs, Status: p.Status}
	}
	if out == nil {
		return evs
	}
	return out
}

// toolsResultOf reads a tools.result payload: the typed value a run emits,
// or JSON a decoder kept, which must encode back to the same bytes so that
// rewriting it loses nothing.
func toolsResultOf(payload any) (event.ToolsResultPayload, bool) {
	switch v := payload.(type) {
	case event.ToolsResultPayload:
		return v, true
	case json.RawMessage:
		var p event.ToolsResultPayload
		if json.Unmarshal(v, &p) != nil {
			return p, false
		}
		again, err := json.Marshal(p)
		return p, err == nil && string(again) == string(v)
	}
	return event.ToolsResultPayload{}, false
}

// restoreEvent puts the result back into a tools.result payload written
// with a resultRef history holds; any other payload is returned unchanged.
func (h heldContent) restoreEvent(t event.Name, payload json.RawMessage) json.RawMessage {
	if t != event.ToolsResult || !bytes.Contains(payload, []byte(`"resultRef":`)) {
		return payload
	}
	var s storedToolsResult
	if json.Unmarshal(payload, &s) != nil || len(s.ResultRef) != len("sha256:")+2*sha256.Size || s.ResultRef[:7] != "sha256:" {
		return payload
	}
	text, ok := h.byHash[s.ResultRef[7:]]
	if !ok {
		return payload // kept as written: the reference is not lost
	}
	out, err := json.Marshal(event.ToolsResultPayload{ToolCallID: s.ToolCallID, Result: text, Error: s.Error, DurationMs: s.DurationMs, Status: s.Status})
	if err != nil {
		return payload
	}
	return out
}
