// This file holds the exporter: it turns runs into chained records, adds the genesis
// records, and drains segments.

package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/internal/jcs"
	"github.com/agentfootprint/agentfootprint-go/store"
)

// ErrNothingToDrain is returned by Drain when no record was added since the last segment.
var ErrNothingToDrain = errors.New("audit: no records to drain")

// Exporter builds one hash chain across any number of runs and cuts it into segments.
// It is not safe for concurrent use.
type Exporter struct {
	mode    payloadMode
	library Library
	key     []byte // ed25519.PrivateKey
	now     func() time.Time

	seq      int64  // seq of the next record
	prevHash string // hash of the last record (zeroHash before the first)
	segFirst int64  // firstSeq of the segment being built
	segHead  string // chainHead of the segment being built
	pending  []Record
	seen     map[string]bool // run ids that have their genesis record
	buf      []byte
}

// NewExporter returns an exporter starting a new chain at seq 0. It refuses a signing key
// of the wrong size.
func NewExporter(opts Options) (*Exporter, error) {
	mode := modeBounded
	if opts.Verbatim {
		mode = modeVerbatim
	}
	if opts.SigningKey != nil && len(opts.SigningKey) != 64 {
		return nil, fmt.Errorf("audit: signing key is %d bytes, an Ed25519 private key is 64", len(opts.SigningKey))
	}
	version := opts.LibraryVersion
	if version == "" {
		version = libraryVersion()
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Exporter{
		mode: mode, library: Library{Name: libraryName, Version: version}, key: opts.SigningKey, now: now,
		prevHash: zeroHash, segHead: zeroHash, seen: map[string]bool{},
	}, nil
}

// AddRun appends the records of run: a genesis record the first time its id is seen, then
// one record per event. An event naming another run id in meta.runId (a nested runner)
// gets a genesis record for that id first, with no agent id (it is not known here). On
// error nothing of run is added.
func (e *Exporter) AddRun(run Run) error {
	if run.ID == "" {
		return errors.New("audit: run has no id")
	}
	mark := len(e.pending)
	seq, prev := e.seq, e.prevHash
	seen := make([]string, 0, 2)
	err := e.addRun(run, &seen)
	if err != nil {
		e.pending, e.seq, e.prevHash = e.pending[:mark], seq, prev
		for _, id := range seen {
			delete(e.seen, id)
		}
	}
	return err
}

func (e *Exporter) addRun(run Run, seen *[]string) error {
	genesis := func(id, agentID string, ts any) error {
		if e.seen[id] {
			return nil
		}
		e.seen[id] = true
		*seen = append(*seen, id)
		agent := map[string]any{}
		if agentID != "" {
			agent["id"] = agentID
		}
		versions := map[string]any{"audit": Format, "canonicalization": canonicalScheme, "bounding": boundingVersion}
		if run.RecordFormat != "" && id == run.ID {
			versions["record"] = run.RecordFormat
		}
		payload := map[string]any{
			"runId":       id,
			"agent":       agent,
			"library":     map[string]any{"name": e.library.Name, "version": e.library.Version},
			"versions":    versions,
			"payloadMode": string(e.mode),
		}
		return e.append(GenesisType, ts, payload, map[string]any{"runId": id})
	}
	var ts any
	if !run.StartedAt.IsZero() {
		ts = json.Number(fmt.Sprint(run.StartedAt.UnixMilli()))
	} else if len(run.Events) > 0 {
		ts = run.Events[0].Meta["wallClockMs"]
	}
	if err := genesis(validUTF8(run.ID), validUTF8(run.AgentID), ts); err != nil {
		return err
	}
	b := bounder{mode: e.mode}
	for i, ev := range run.Events {
		if ev.Type == "" {
			return fmt.Errorf("audit: run %q: event %d has no type", run.ID, i)
		}
		meta := map[string]any{}
		for _, k := range [...]string{"runId", "runtimeStageId"} {
			if v, ok := ev.Meta[k]; ok {
				bv, err := b.value(v, k, 1)
				if err != nil {
					return fmt.Errorf("audit: run %q: event %d meta.%s: %w", run.ID, i, k, err)
				}
				meta[k] = bv
			}
		}
		if id, ok := meta["runId"].(string); ok && id != "" && id != run.ID {
			if err := genesis(id, "", ev.Meta["wallClockMs"]); err != nil {
				return err
			}
		}
		payload, err := b.bound(ev.Payload)
		if err != nil {
			return fmt.Errorf("audit: run %q: event %d (%s) payload: %w", run.ID, i, ev.Type, err)
		}
		if err := e.append(validUTF8(ev.Type), ev.Meta["wallClockMs"], payload, meta); err != nil {
			return fmt.Errorf("audit: run %q: event %d (%s): %w", run.ID, i, ev.Type, err)
		}
	}
	return nil
}

// append chains one record.
func (e *Exporter) append(eventType string, ts, payload any, meta map[string]any) error {
	if ts != nil {
		var err error
		if ts, err = (bounder{mode: modeVerbatim}).bound(ts); err != nil {
			return err
		}
		if _, isNum := ts.(json.Number); !isNum {
			ts = nil // a timestamp that is not a number is not a timestamp
		}
	}
	r := Record{
		"seq":       e.seq,
		"timestamp": ts,
		"eventType": eventType,
		"payload":   payload,
		"meta":      meta,
		"prevHash":  e.prevHash,
	}
	h, buf, err := r.computeHash(e.buf)
	e.buf = buf
	if err != nil {
		return err
	}
	r["hash"] = h
	e.pending = append(e.pending, r)
	e.prevHash = h
	e.seq++
	return nil
}

// Drain returns the records added since the last Drain as a segment chained to the previous
// one, signed when the exporter has a key. It returns ErrNothingToDrain when there are none.
func (e *Exporter) Drain() (*Segment, error) {
	if len(e.pending) == 0 {
		return nil, ErrNothingToDrain
	}
	seg := &Segment{
		Header: Header{
			Format:           Format,
			HashAlgorithm:    recordHashAlg,
			Canonicalization: canonicalScheme,
			ChainHead:        e.segHead,
			FirstSeq:         e.segFirst,
			RecordCount:      int64(len(e.pending)),
			ExportedAt:       e.now().UTC().Format("2006-01-02T15:04:05.000Z07:00"),
			Library:          e.library,
		},
		Records: e.pending,
	}
	final, err := seal(seg.Header, e.prevHash)
	if err != nil {
		return nil, err
	}
	seg.FinalHash = final
	if e.key != nil {
		if err := seg.sign(e.key); err != nil {
			return nil, err
		}
	}
	// The next segment's records chain from the seal, so the header is part of the chain.
	e.pending, e.segHead, e.segFirst, e.prevHash = nil, final, e.seq, final
	return seg, nil
}

// computeHash returns the lowercase hex SHA-256 of the canonical JSON of r without its hash
// member, and buf (scratch space) grown as needed.
func (r Record) computeHash(buf []byte) (string, []byte, error) {
	out, err := jcs.AppendObjectWithout(buf[:0], r, "hash")
	if err != nil {
		return "", buf, err
	}
	sum := sha256.Sum256(out)
	return hex.EncodeToString(sum[:]), out, nil
}

// FromStore reads a stored run as export input: its header, its record's format id and its
// events — Run.Events when set, else the "events" array inside the record (every record
// format keeps them there). From format 3 on, a tools.result event may name its result by
// reference to the record's history; FromStore puts the result back, so the export carries
// it as the run emitted it.
func FromStore(r *store.Run) (Run, error) {
	var head struct {
		Format string          `json:"format"`
		Events json.RawMessage `json:"events"`
	}
	// The record's format and events are optional here: a record without them lists no
	// format and contributes no events.
	json.Unmarshal(r.Record, &head)
	raw, from := r.Events, "events"
	if len(raw) == 0 {
		raw, from = head.Events, "record.events"
		if strings.HasPrefix(head.Format, recordFormatPrefix) && bytes.Contains(raw, []byte(`"resultRef":`)) {
			// Formats 3 and later name a tool result history holds
			// instead of repeating it in tools.result; the record's
			// decoder puts it back (and refuses a format it does not
			// know, rather than export the references as they stand).
			rec, err := record.Decode(r.Record)
			if err != nil {
				return Run{}, fmt.Errorf("audit: run %q: record: %w", r.ID, err)
			}
			if raw, err = json.Marshal(rec.Events); err != nil {
				return Run{}, fmt.Errorf("audit: run %q: record.events: %w", r.ID, err)
			}
		}
	}
	events, err := decodeEvents(raw)
	if err != nil {
		return Run{}, fmt.Errorf("audit: run %q: %s: %w", r.ID, from, err)
	}
	return Run{ID: r.ID, AgentID: r.AgentID, StartedAt: r.StartedAt, RecordFormat: head.Format, Events: events}, nil
}

// recordFormatPrefix begins the format id of every agent record
// (record.Format and the formats before it).
const recordFormatPrefix = "agentfootprint-go.record/"

// ExportRun exports one stored run as one segment (a fresh chain starting at seq 0).
func ExportRun(r *store.Run, opts Options) (*Segment, error) {
	run, err := FromStore(r)
	if err != nil {
		return nil, err
	}
	e, err := NewExporter(opts)
	if err != nil {
		return nil, err
	}
	if err := e.AddRun(run); err != nil {
		return nil, err
	}
	return e.Drain()
}

// decodeEvents reads a JSON array of {type, payload, meta} events (strictly: duplicate
// member names and invalid UTF-8 are refused). Empty input is no events.
func decodeEvents(data []byte) ([]Event, error) {
	if len(data) == 0 {
		return nil, nil
	}
	v, err := jcs.Parse(data)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil // "events": null
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New("not a JSON array")
	}
	out := make([]Event, 0, len(list))
	for i, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("events[%d]: not an object", i)
		}
		typ, ok := m["type"].(string)
		if !ok || typ == "" {
			return nil, fmt.Errorf("events[%d].type: missing or not a string", i)
		}
		ev := Event{Type: typ, Payload: m["payload"]}
		if meta, present := m["meta"]; present && meta != nil {
			mm, ok := meta.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("events[%d].meta: not an object", i)
			}
			ev.Meta = mm
		}
		out = append(out, ev)
	}
	return out, nil
}
