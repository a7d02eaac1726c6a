// This file holds the shared vocabulary: formats, the input events, options. Bounding is in
// bound.go, export in export.go, the file form in segment.go, signatures in sign.go and the
// verifier in verify.go.

package audit

import (
	"crypto/ed25519"
	"runtime/debug"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/internal/jcs"
)

// The identifiers of the format: what segment headers, genesis records and the build
// lookup name (the verifier checks the format, the hash algorithm and the canonical
// scheme of each header, and the genesis record type).
const (
	// Format is the segment format id this library writes. Since /2 the whole header is
	// bound: finalHash seals it with the last record's hash (see seal.go), and the
	// signature covers it all.
	Format = "agentfootprint.audit/2"
	// recordHashAlg is the record hash.
	recordHashAlg = "sha-256"
	// canonicalScheme is the canonical JSON scheme records are hashed in.
	canonicalScheme = jcs.ID
	// GenesisType is the eventType of the record that opens each run.
	GenesisType = "audit.genesis"
	// boundingVersion names the bounding rules of bound.go; a change in what they keep
	// needs a new id.
	boundingVersion = "agentfootprint-go.bounding/1"
	// libraryName is the library named in headers and genesis records.
	libraryName = "agentfootprint-go"
	// modulePath finds this library's version in the build information.
	modulePath = "github.com/agentfootprint/agentfootprint-go"
)

// zeroHash is the prevHash of the first record and the chainHead of the first segment.
var zeroHash = strings.Repeat("0", 64)

// payloadMode is how much of each event payload the export keeps; its word is the genesis
// record's payloadMode.
type payloadMode string

// The payload modes.
const (
	// modeBounded keeps structure, names, enums, counts and hashes, and replaces content
	// (prompts, model text, tool arguments and results, history) with its shape.
	modeBounded payloadMode = "bounded"
	// modeVerbatim keeps payloads as dispatched, bounded only for numbers and UTF-8.
	modeVerbatim payloadMode = "verbatim"
)

// Event is one dispatched event as the exporter reads it: the {type, payload, meta}
// envelope. Payload and Meta hold JSON-like values (as FromStore decodes them from a
// record, or any value encoding/json can marshal).
type Event struct {
	// Type is the event name, e.g. "agentfootprint.llm.request".
	Type string `json:"type"`
	// Payload is the event's payload, bounded on export.
	Payload any `json:"payload"`
	// Meta joins the event to the run; export keeps runId and runtimeStageId, and takes
	// the record timestamp from wallClockMs.
	Meta map[string]any `json:"meta"`
}

// Run is the input to export: the run's identity and its events in dispatch order.
type Run struct {
	// ID is the run id; events whose meta.runId is empty belong to it.
	ID string
	// AgentID is the id of the agent that ran, named in the genesis record.
	AgentID string
	// StartedAt stamps the genesis record; when zero, the first event's wallClockMs does.
	StartedAt time.Time
	// RecordFormat is the run record's format id, listed in the genesis versions when set.
	RecordFormat string
	// Events are the dispatched events, in order.
	Events []Event
}

// Library names the software that wrote a segment.
type Library struct {
	// Name is "agentfootprint-go".
	Name string `json:"name"`
	// Version is the module version, "(devel)" for an untagged build.
	Version string `json:"version"`
}

// Options configure an Exporter.
type Options struct {
	// Verbatim keeps payloads as dispatched, bounded only for numbers and UTF-8 (the
	// genesis record says payloadMode "verbatim"). Off, the default ("bounded"), the
	// export keeps structure, names, enums, counts and hashes and writes content (prompts,
	// model text, tool arguments and results, history) only as its shape: "[N chars]",
	// "[keys: a, b]", "[type: object]", "[N messages]".
	Verbatim bool
	// LibraryVersion is written in headers and genesis records; when empty it is read
	// from the build information ("(devel)" for an untagged build).
	LibraryVersion string
	// SigningKey, when set, signs every drained segment (Ed25519).
	SigningKey ed25519.PrivateKey
	// Now stamps header.exportedAt; time.Now when nil.
	Now func() time.Time
}

// libraryVersion returns this module's version from the build information.
func libraryVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	if bi.Main.Path == modulePath && bi.Main.Version != "" {
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == modulePath && d.Version != "" {
			return d.Version
		}
	}
	return "(devel)"
}
