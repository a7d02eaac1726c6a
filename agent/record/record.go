// Package record holds the run record: one value holding everything a turn
// (or a composition's run) left behind, with one JSON encoding (Format,
// "agentfootprint-go.record/4"): the manifest, the chart's structure, the
// commit log, the blobs, the request deltas and the events. Package agent
// builds records; explain, lens, the stores and the exporters read them with
// this package alone, without the agent's machinery.
package record

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/agentfootprint/agentfootprint-go/agent/internal/keys"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/internal/reqspans"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Format is the format id of the record's JSON encoding. Format 4 lets a
// request delta end with bytes of the body before it (reuse): what follows
// the new messages of a call (the tool declarations, the settings) is the
// previous call's, and is no longer stored again in every tail. Format 3
// writes a tool result the model was served once, as the tool message of
// history: its raw-output blob, when the bytes are the same, is listed by
// digest in blobsInHistory instead of written, and a tools.result event
// names it with resultRef ("sha256:<hex>") instead of repeating it; Decode
// puts both back. Format 2 keeps each model call's request as the bytes it
// shares with the call before it plus its own tail (Record.Requests), and
// each call's spans after the ones it shares; format 1 kept every request
// whole. All four decode.
const Format = "agentfootprint-go.record/4"

// formatV3 is the format before a request delta could reuse the end of its
// base body.
const formatV3 = "agentfootprint-go.record/3"

// formatV2 is the format before blobsInHistory and resultRef.
const formatV2 = "agentfootprint-go.record/2"

// formatV1 is the earlier format, still read by Decode.
const formatV1 = "agentfootprint-go.record/1"

// LibraryVersion is the version of agentfootprint-go stamped on records.
const LibraryVersion = "0.1.0"

// MaxEvents caps the events a record keeps; later ones are counted in
// DroppedEvents.
const MaxEvents = 10000

// Capture is the policy for keeping the exact request bytes of each model
// call (the agent option WithCapture sets it; Settings.Capture records it).
// The hash and the per-unit byte spans are always kept.
type Capture string

// The capture policies implemented here.
const (
	// CaptureFull keeps the exact bytes as a blob of the record (default).
	CaptureFull Capture = "full"
	// CaptureHashOnly keeps the hashes and spans only.
	CaptureHashOnly Capture = "hash-only"
)

// Record is the evidence of one run: the manifest, the chart's structure,
// the commit log with every subflow's log, the content-addressed blobs
// (request and response bodies, raw tool outputs) and the events. It is
// read-only once returned.
type Record struct {
	Manifest  Manifest
	Structure json.RawMessage
	// Log holds the commits and the subflow logs.
	Log *flow.Record
	// Blobs maps a SHA-256 (hex) to the bytes it hashes.
	Blobs map[string][]byte
	// Requests maps the SHA-256 (hex) of a request body that is not a
	// blob of its own to how it is rebuilt from the body before it; Blob
	// rebuilds it. Empty in a format 1 record.
	Requests map[string]RequestDelta
	// Events are the run's events, kept compactly (Events.At rebuilds one).
	Events        Events
	DroppedEvents int
}

// RequestDelta rebuilds a model call's exact request body: the first Keep
// bytes of the body whose SHA-256 is Base, then the blob Tail, then the last
// Reuse bytes of the base body. A call's request repeats the conversation
// the call before it sent and usually ends as that one did (the tool
// declarations, the settings), so the record keeps each byte once and grows
// linearly with the run. Keep and Reuse never cover a byte of the base body
// twice.
type RequestDelta struct {
	Base  string `json:"base"`
	Keep  int    `json:"keep"`
	Tail  string `json:"tail"`
	Reuse int    `json:"reuse,omitempty"`
}

// Manifest describes a run: its id, its legs, who ran it with what, when, and
// whether Run returned normally (Complete is never guessed).
type Manifest struct {
	RunID      string   `json:"runId"`
	Legs       []Leg    `json:"legs"`
	AgentID    string   `json:"agentId"`
	Provider   string   `json:"provider"`
	Model      string   `json:"model"`
	Library    string   `json:"library"`
	Options    Settings `json:"options"`
	StartedAt  string   `json:"startedAt"`
	EndedAt    string   `json:"endedAt"`
	Complete   bool     `json:"complete"`
	TurnNumber int      `json:"turnNumber"`
	ToolNames  []string `json:"tools"`
	UnitIDs    []string `json:"units"`
	// AbandonedPause names the paused run dropped with AbandonPause just
	// before this turn, when one was.
	AbandonedPause string `json:"abandonedPause,omitempty"`
}

// Leg is one run leg; a resumed run adds a leg naming the one it resumed.
type Leg struct {
	RunID       string `json:"runId"`
	ResumedFrom string `json:"resumedFrom,omitempty"`
}

// Settings are the agent options that shape a run.
type Settings struct {
	MaxIterations int      `json:"maxIterations"`
	WrapUp        bool     `json:"wrapUp"`
	Capture       Capture  `json:"capture"`
	Temperature   *float64 `json:"temperature,omitempty"`
	MaxTokens     int      `json:"maxTokens,omitempty"`
}

// MarshalJSON writes the record in the current Format:
// format, manifest and structure, then the commit log's own fields (runId,
// chartId, resumedFrom, commits, subflows), then blobs (base64 strings keyed
// by their SHA-256) but those history holds, blobsInHistory (their sorted
// digests, when there are any), requests, events and droppedEvents.
func (r *Record) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		Format    string          `json:"format"`
		Manifest  Manifest        `json:"manifest"`
		Structure json.RawMessage `json:"structure"`
	}{Format, r.Manifest, r.Structure})
	if err != nil {
		return nil, err
	}
	log := r.Log
	if log == nil {
		log = &flow.Record{}
	}
	logJSON, err := json.Marshal(log)
	if err != nil {
		return nil, err
	}
	blobs, events := r.Blobs, r.Events.Slice()
	var inHistory []string
	if len(blobs) > 0 || len(events) > 0 {
		held := heldIn(log)
		blobs, inHistory = held.storedBlobs(blobs)
		events = held.storedEvents(events)
	}
	if blobs == nil {
		blobs = map[string][]byte{}
	}
	if events == nil {
		events = []event.Event{}
	}
	tail, err := json.Marshal(struct {
		Blobs          map[string][]byte       `json:"blobs"`
		BlobsInHistory []string                `json:"blobsInHistory,omitempty"`
		Requests       map[string]RequestDelta `json:"requests,omitempty"`
		Events         []event.Event           `json:"events"`
		DroppedEvents  int                     `json:"droppedEvents"`
	}{blobs, inHistory, r.Requests, events, r.DroppedEvents})
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(head)+len(logJSON)+len(tail))
	out = append(out, head[:len(head)-1]...)
	out = append(out, ',')
	out = append(out, logJSON[1:len(logJSON)-1]...)
	out = append(out, ',')
	out = append(out, tail[1:]...)
	return out, nil
}

// Decode reads a record written by MarshalJSON and turns the values of
// the agent's state keys back into their Go types (keys it does not know
// stay raw JSON). It refuses another format or a malformed log, naming the
// field.
func Decode(data []byte) (*Record, error) {
	// One pass over the bytes: each member is checked and decoded by its
	// own decoder, and the log's fields are handed to the flow decoder as
	// an object of their own.
	var j struct {
		Format        string
		Manifest      Manifest
		Structure     json.RawMessage
		Blobs         map[string][]byte
		InHistory     []string
		Requests      map[string]RequestDelta
		Events        Events
		restore       []int // the events Decode restores once the log is read
		DroppedEvents int
		RunID         string
		ChartID       string
		ResumedFrom   string
		Commits       []byte
		Subflows      map[string]json.RawMessage
	}
	fields := []struct {
		name string
		into any
	}{
		{"format", &j.Format}, {"manifest", &j.Manifest}, {"structure", &j.Structure},
		{"blobs", &j.Blobs}, {"blobsInHistory", &j.InHistory}, {"requests", &j.Requests},
		{"events", &j.Events}, {"droppedEvents", &j.DroppedEvents}, {"runId", &j.RunID},
		{"chartId", &j.ChartID}, {"resumedFrom", &j.ResumedFrom}, {"commits", nil}, {"subflows", &j.Subflows},
	}
	err := members(data, func(key string, val []byte) error {
		for _, f := range fields {
			// Names match as encoding/json matches them: exactly, or
			// else without regard to case.
			if f.name != key && !strings.EqualFold(f.name, key) {
				continue
			}
			switch f.into.(type) {
			case nil:
				// The commit log is checked by the flow decoder it
				// goes to.
				j.Commits = val
				return nil
			case *Events:
				evs, restore, err := decodeEvents(val)
				if err != nil {
					return fmt.Errorf("%s: %w", f.name, err)
				}
				j.Events, j.restore = evs, restore
				return nil
			case *map[string]RequestDelta:
				// The form the encoder writes is read without
				// reflection (requests_fast.go); any other by
				// encoding/json below.
				if m, ok := fastRequests(val); ok {
					j.Requests = m
					return nil
				}
			case *map[string][]byte:
				b, err := decodeBlobs(val)
				if err != nil {
					return fmt.Errorf("%s: %w", f.name, err)
				}
				j.Blobs = b
				return nil
			}
			if err := json.Unmarshal(val, f.into); err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
			return nil
		}
		if !json.Valid(val) {
			return fmt.Errorf("%s: not a JSON value", key)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("agent: record: %w", err)
	}
	if j.Format != Format && j.Format != formatV3 && j.Format != formatV2 && j.Format != formatV1 {
		return nil, fmt.Errorf("agent: record: format %q is not %q (or %q, %q, %q)", j.Format, Format, formatV3, formatV2, formatV1)
	}
	logJSON, err := logObject(j.RunID, j.ChartID, j.ResumedFrom, j.Commits, j.Subflows)
	if err != nil {
		return nil, err
	}
	log, err := decodeChart().DecodeRecord(logJSON)
	if err != nil {
		return nil, fmt.Errorf("agent: record: %w", err)
	}
	// What history holds is read from the log only when the record
	// names some of it (since format 3).
	var held *heldContent
	heldOnce := func() *heldContent {
		if held == nil {
			h := heldIn(log)
			held = &h
		}
		return held
	}
	blobs := j.Blobs
	if len(j.InHistory) > 0 {
		blobs = heldOnce().restoreBlobs(blobs, j.InHistory)
	}
	evs := j.Events
	for _, i := range j.restore {
		c := &evs.list[evs.order[i].ref]
		if p, ok := c.payload.(json.RawMessage); ok {
			c.payload = heldOnce().restoreEvent(c.typ, p)
		}
	}
	return &Record{Manifest: j.Manifest, Structure: j.Structure, Log: log, Blobs: blobs, Requests: j.Requests, Events: evs, DroppedEvents: j.DroppedEvents}, nil
}

// eventBytesGuess is about the fewest bytes one event takes in the form
// the encoder writes (its meta alone names the run, stage and times), so
// the "events" member's length over it sizes the list without a count.
const eventBytesGuess = 256

// decodeEvents reads the record's "events" member into an event list, and
// notes which events are tools.result events that name their result by
// reference, for Decode to restore once it has read the log. The form the
// encoder writes is read without reflection (events_fast.go); any other
// goes through encoding/json.
func decodeEvents(data []byte) (Events, []int, error) {
	var evs Events
	var restore []int
	add := func(e rawEvent) {
		if e.Type == event.ToolsResult && bytes.Contains(e.Payload, []byte(`"resultRef":`)) {
			restore = append(restore, evs.Len())
		}
		evs.Append(event.Event{Type: e.Type, Payload: e.Payload, Meta: e.Meta})
	}
	evs.Grow(min(len(data)/eventBytesGuess+1, MaxEvents))
	if fastEvents(data, add) {
		return evs, restore, nil
	}
	var raw []rawEvent
	if err := json.Unmarshal(data, &raw); err != nil {
		return Events{}, nil, err
	}
	evs, restore = Events{}, nil
	evs.Grow(len(raw))
	for _, e := range raw {
		add(e)
	}
	return evs, restore, nil
}

// logObject writes the flow log's fields as one JSON object. The raw parts
// were checked by the decoder that cut them out, so they are copied as they
// are rather than re-encoded.
func logObject(runID, chartID, resumedFrom string, commits json.RawMessage, subflows map[string]json.RawMessage) ([]byte, error) {
	out := make([]byte, 0, len(commits)+len(runID)+len(chartID)+len(resumedFrom)+96)
	str := func(key, v string) {
		q, _ := json.Marshal(v) // a string always encodes
		out = append(out, key...)
		out = append(out, q...)
	}
	str(`{"runId":`, runID)
	str(`,"chartId":`, chartID)
	if resumedFrom != "" {
		str(`,"resumedFrom":`, resumedFrom)
	}
	out = append(out, `,"commits":`...)
	if len(commits) == 0 {
		out = append(out, "null"...)
	} else {
		out = append(out, commits...)
	}
	if len(subflows) > 0 {
		sub, err := json.Marshal(subflows)
		if err != nil {
			return nil, err
		}
		out = append(out, `,"subflows":`...)
		out = append(out, sub...)
	}
	return append(out, '}'), nil
}

// rawEvent decodes an event keeping its payload as the JSON it was written
// as, so a decoded record encodes back byte for byte.
type rawEvent struct {
	Type    event.Name      `json:"type"`
	Payload json.RawMessage `json:"payload"`
	Meta    event.Meta      `json:"meta"`
}

// decodeChart is a chart with the agent's keys, used only to decode records.
// Its construction is fixed at compile time, so it cannot fail.
var decodeChart = sync.OnceValue(func() *flow.Chart {
	return flow.NewBuilder(keys.ChartID).Keys(keys.All()...).
		Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) { return nil, nil }).MustBuild()
})

// Blob returns the bytes stored under ref ("sha256:<hex>" or the bare hex).
func (r *Record) Blob(ref string) ([]byte, bool) {
	ref = strings.TrimPrefix(ref, "sha256:")
	if b, ok := r.Blobs[ref]; ok {
		return b, true
	}
	if _, ok := r.Requests[ref]; !ok {
		return nil, false
	}
	b, ok := r.rebuild(ref)
	if !ok || hashHex(b) != ref {
		return nil, false // a broken chain or a tampered tail rebuilds nothing
	}
	return b, true
}

// rebuild assembles the request body ref from its chain of deltas, one body
// down the chain at a time. It holds the ranges of the current body still
// to copy, each with where its bytes go in the result: the part of a range
// inside the delta's tail is copied, and what lies before or after the tail
// becomes a range of the base body. Each wanted byte is copied once, each
// body of the chain is looked up once, and no body is built whole.
func (r *Record) rebuild(ref string) ([]byte, bool) {
	cur, ok := r.body(ref)
	if !ok {
		return nil, false
	}
	out := make([]byte, cur.n)
	type piece struct{ lo, hi, at int } // bytes [lo, hi) of cur go to out[at:]
	todo, next := []piece{{0, cur.n, 0}}, []piece(nil)
	for steps := 0; len(todo) > 0; steps++ {
		if cur.whole != nil || cur.n == 0 {
			for _, p := range todo {
				copy(out[p.at:], cur.whole[p.lo:p.hi])
			}
			return out, true
		}
		if steps > len(r.Requests) {
			return nil, false // a cycle
		}
		base, ok := r.body(cur.base)
		if !ok || cur.keep+cur.reuse > base.n {
			return nil, false
		}
		mid := cur.keep + len(cur.tail) // where the reused end starts
		next = next[:0]
		for _, p := range todo {
			if hi := min(p.hi, cur.keep); p.lo < hi {
				next = append(next, piece{p.lo, hi, p.at})
			}
			if lo, hi := max(p.lo, cur.keep), min(p.hi, mid); lo < hi {
				copy(out[p.at+lo-p.lo:], cur.tail[lo-cur.keep:hi-cur.keep])
			}
			if lo := max(p.lo, mid); lo < p.hi {
				from := lo - mid + base.n - cur.reuse
				next = append(next, piece{from, from + p.hi - lo, p.at + lo - p.lo})
			}
		}
		todo, next = next, todo
		cur = base
	}
	return out, true
}

// reqBody is one request body of the record, looked up: the bytes of one
// kept whole, or the parts of its delta; n is its length.
type reqBody struct {
	whole       []byte
	base        string
	keep, reuse int
	tail        []byte
	n           int
}

// body looks up the request body ref: false for a body the record does
// not hold, or a delta with a negative length or a missing tail.
func (r *Record) body(ref string) (reqBody, bool) {
	if whole, ok := r.Blobs[ref]; ok {
		if whole == nil {
			whole = []byte{}
		}
		return reqBody{whole: whole, n: len(whole)}, true
	}
	d, ok := r.Requests[ref]
	if !ok || d.Keep < 0 || d.Reuse < 0 {
		return reqBody{}, false
	}
	tail, ok := r.Blobs[strings.TrimPrefix(d.Tail, "sha256:")]
	if !ok {
		return reqBody{}, false
	}
	return reqBody{base: strings.TrimPrefix(d.Base, "sha256:"), keep: d.Keep, reuse: d.Reuse, tail: tail,
		n: d.Keep + len(tail) + d.Reuse}, true
}

// RequestSpans returns every byte span of the request req (a model call's
// llmRequest value from this record): the spans it shares with the calls
// before it, then its own. For a format 1 record that is req.Spans.
func (r *Record) RequestSpans(req state.LLMRequest) []llm.Span {
	return reqspans.Of(r.Log, req)
}

func hashHex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
