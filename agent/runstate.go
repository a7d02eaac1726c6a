// Per-run state outside the chart's keys: what one Run hands its stages
// (the person's message, earlier history) and what it collects beside the
// commit log (blobs, events).

package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/clock"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

type runState struct {
	a       *Agent
	start   time.Time
	message string
	prior   []llm.Message
	turn    int
	// from is the conversation this turn continues, or nil.
	from *conversationCheckpoint
	// abandoned is the run id of a pause dropped just before this turn.
	abandoned string
	// given is the run's Input.Time (time layer), or nil.
	given *clock.Given
	// identity is the conversation's caller identity, stamped on events.
	identity Identity

	// mu guards blobs and events: a tool may report progress from a
	// goroutine of its own.
	mu    sync.Mutex
	blobs map[string][]byte
	// blobBytes holds the copies of the small blobs (request tails,
	// responses, tool outputs): a few chunks per run instead of one
	// allocation per blob.
	blobBytes chunk[byte]
	// digests holds the blobs' reference strings.
	digests digests
	events  record.Events
	dropped int
	// hold, when set, keeps this call's events for its batch to record in
	// call order (parallel dispatch, dispatch_parallel.go).
	hold *heldEvents
	// agentTools are the inner turns run by agent tools (compose_tool.go).
	agentTools []agentToolRun

	// requests are the request bodies kept as deltas (record.Record.Requests);
	// prevBody, prevHash and prevSpans are the last model call's request,
	// which the next one is compared with.
	requests  map[string]record.RequestDelta
	prevBody  []byte
	prevHash  string
	prevSpans []llm.Span
	// spans holds the copies of the requests' span lists (call-llm only).
	spans chunk[llm.Span]
	// iterFirst is the size of the first chunk of each per-iteration
	// chunk (iterRoom).
	iterFirst int
	// scr holds the buffers no record points into (the request being
	// built, the request hasher), taken from the agent's pool on first use
	// and given back when the run's leg ends (Agent.releaseScratch).
	scr *runScratch
	// indices backs firstIndices.
	indices []int
	// lastTools is the tool list of the last llm.request event.
	lastTools []event.ToolName
	// argBytes holds the batches' copies of tool-call arguments (the tool
	// stage only, before any call runs).
	argBytes chunk[byte]
	// batch is the tool stage's batch, reused from one iteration to the
	// next: nothing keeps a batch past its stage. toolMsgs and toolResults
	// hold the tool message and result of each one-call batch, which the
	// record keeps.
	batch       batch
	toolMsgs    chunk[llm.Message]
	toolResults chunk[state.ToolResult]

	// histUnits are the unit names ("history/<i>") of history messages
	// past commonHistoryUnits, made once per index instead of once per
	// message per model call.
	histUnits []string
	// compPath is the composition path every event of the run carries.
	compPath []string
	// iterPtr is the latest iteration's meta.iterIndex (shared), one of
	// iterInts.
	iterPtr  *int
	iterInts chunk[int]
	// meta is the shared meta of the run's last event kept by keepLean or
	// in a group.
	meta *event.Meta
	// group is the iteration's group of events (eventgroup.go), one of
	// groups; ungrouped counts the events kept on their own by keepLean.
	group     *iterEvents
	groups    chunk[iterEvents]
	ungrouped int

	// filled by the stages for the Result
	finalHistory []llm.Message
	// oneShot: the run is Run's, whose conversation ends with it.
	oneShot bool
	// seedHistory is the first message of the history the seed stage set:
	// that array is the seed commit's value.
	seedHistory *llm.Message
	lastIter    int
	// standing is the fold prepare-final made (results layer), or nil; a
	// completed turn's Result reuses it instead of folding its record again.
	standing    *assess.Assessment
	failure     *failurePoint
	failHistory []llm.Message
}

// runScratch is what a run's model calls reuse call after call and what one
// leg of a run hands to the next through the agent's pool: nothing a record
// or a Result keeps points into it.
type runScratch struct {
	// box and msgs are the request and its message buffer (buildRequest).
	box  requestBox
	msgs []llm.Message
	// hash hashes each request from the state inside the bytes it shares
	// with the one before (capture).
	hash prefixHasher
	// spanBufs are the two arrays the requests' spans are written into
	// (llm.Request.SpanBuffer), one call in each in turn: capture compares a
	// call's spans with the call's before, and copies what the record keeps.
	spanBufs [2][]llm.Span
}

// spanBuffer returns an empty span list with room for n spans, in the array
// prev (the last call's spans) does not use.
func (scr *runScratch) spanBuffer(prev []llm.Span, n int) []llm.Span {
	i := 0
	if b := scr.spanBufs[0]; cap(prev) > 0 && cap(b) > 0 && &prev[:1][0] == &b[:1][0] {
		i = 1
	}
	if cap(scr.spanBufs[i]) < n {
		scr.spanBufs[i] = make([]llm.Span, 0, 2*n)
	}
	return scr.spanBufs[i][:0]
}

// scratch returns the run's scratch buffers, taking them from the agent's
// pool on the first call of the leg.
func (rs *runState) scratch() *runScratch {
	if rs.scr == nil {
		if v, ok := rs.a.scratch.Get().(*runScratch); ok {
			rs.scr = v
		} else {
			rs.scr = new(runScratch)
		}
	}
	return rs.scr
}

// releaseScratch gives the leg's scratch buffers back to the agent's pool,
// cleared of the run's data: the request's messages and texts, and the
// hasher's kept states, zeroed since a state holds bytes of a request.
func (a *Agent) releaseScratch(rs *runState) {
	scr := rs.scr
	if scr == nil {
		return
	}
	rs.scr = nil
	scr.box = requestBox{}
	// The spans of the leg's last call point into spanBufs: the run state
	// going with the leg keeps no reference the next leg could see.
	rs.prevSpans = nil
	clear(scr.msgs[:cap(scr.msgs)])
	scr.msgs = scr.msgs[:0]
	scr.hash.wipe()
	for i, b := range scr.spanBufs {
		clear(b[:cap(b)])
		scr.spanBufs[i] = b[:0]
	}
	a.scratch.Put(scr)
}

// runSizes is what an agent's last finished run used of the buffers a run
// fills, so the next run starts each with room for as much, in one
// allocation, instead of a first guess grown by doubling. The sizes are
// capped, so one long run does not make every later run start large. They
// only size buffers; a run that needs more grows them as before.
type runSizes struct {
	// events is the event count (eventRoom, ungroupedRoom); blobs the blob
	// count; blobBytes the bytes carved from the blob chunk; spans the
	// spans carved from the span chunk; digests the references written.
	events, blobs, blobBytes, spans, digests atomic.Int32
	// ungrouped is how many of the events were kept on their own, not in
	// an iteration's group.
	ungrouped atomic.Int32
}

// keep notes what rs used (a.record, at the end of each leg).
func (z *runSizes) keep(rs *runState) {
	store := func(v *atomic.Int32, n, limit int) {
		if n > 0 {
			v.Store(int32(min(n, limit)))
		}
	}
	store(&z.events, rs.events.Len(), record.MaxEvents)
	store(&z.blobs, len(rs.blobs), 1024)
	store(&z.blobBytes, rs.blobBytes.carved, 64<<10)
	store(&z.spans, rs.spans.carved, 1024)
	store(&z.digests, rs.digests.n, 512)
	store(&z.ungrouped, rs.ungrouped, record.MaxEvents)
}

type runKey struct{}

func withRun(ctx context.Context, rs *runState) context.Context {
	return context.WithValue(ctx, runKey{}, rs)
}

func runOf(ctx context.Context) *runState {
	rs, _ := ctx.Value(runKey{}).(*runState)
	return rs
}

// blobRef stores b under its SHA-256 and returns the reference
// "sha256:<hex>" (one string for the reference and the blob's name).
func (rs *runState) blobRef(b []byte) string {
	sum := sha256.Sum256(b)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	ref, h := rs.digestLocked(&sum)
	rs.putBlobLocked(h, b)
	return ref
}

// blobRefText is blobRef for text: the bytes are copied once, into the
// run's blob chunk, and hashed there.
func (rs *runState) blobRefText(text string) string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	b := rs.blobBytes.take(len(text), rs.blobFirst(), blobChunk)
	copy(b, text)
	sum := sha256.Sum256(b)
	ref, h := rs.digestLocked(&sum)
	rs.initBlobs()
	if _, ok := rs.blobs[h]; ok {
		rs.blobBytes.giveBack(b)
	} else {
		rs.blobs[h] = b
	}
	return ref
}

// digest formats sum as the reference "sha256:<hex>" and the bare hex, in
// the run's digest buffers.
func (rs *runState) digest(sum *[sha256.Size]byte) (ref, h string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.digestLocked(sum)
}

// digestLocked is digest for a caller that holds rs.mu. The run's first
// digest sizes the first buffer from the agent's last run, so a short turn
// does not start one made for ten model calls.
func (rs *runState) digestLocked(sum *[sha256.Size]byte) (ref, h string) {
	if rs.digests.n == 0 {
		rs.digests.first = int(rs.a.sizes.digests.Load())
	}
	return rs.digests.ref(sum)
}

// putBlob stores b under h, its SHA-256 in hex, already computed by the
// caller, so the bytes are hashed once.
func (rs *runState) putBlob(h string, b []byte) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.putBlobLocked(h, b)
}

// putBlobLocked is putBlob for a caller holding rs.mu.
func (rs *runState) putBlobLocked(h string, b []byte) {
	rs.initBlobs()
	if _, ok := rs.blobs[h]; !ok {
		rs.blobs[h] = rs.blobBytes.copyOf(b, rs.blobFirst(), blobChunk)
	}
}

// blobChunk is the size of blobBytes' backing arrays after the first,
// which holds what the agent's last run kept (blobFirst).
const blobChunk = 4 << 10

// blobFirst is the size of blobBytes' first backing array: the bytes the
// agent's last run carved from it, so a turn like the last keeps its small
// blobs in one allocation; blobChunk before any run ended.
func (rs *runState) blobFirst() int {
	if n := int(rs.a.sizes.blobBytes.Load()); n > 0 {
		return n
	}
	return blobChunk
}

// initBlobs makes the blob map on the run's first blob. A model call keeps
// about three blobs (request tail, response, a tool output): one map for
// the usual turn, not a doubling series. The caller holds rs.mu.
func (rs *runState) initBlobs() {
	if rs.blobs == nil {
		n := int(rs.a.sizes.blobs.Load())
		if n == 0 {
			n = min(8+3*rs.a.cfg.maxIter, 128)
		}
		rs.blobs = make(map[string][]byte, n)
	}
}

// historyUnit is the unit name of history message i.
func (rs *runState) historyUnit(i int) string {
	if i < len(commonHistoryUnits) {
		return commonHistoryUnits[i]
	}
	for len(rs.histUnits) <= i-len(commonHistoryUnits) {
		rs.histUnits = append(rs.histUnits, "history/"+strconv.Itoa(len(commonHistoryUnits)+len(rs.histUnits)))
	}
	return rs.histUnits[i-len(commonHistoryUnits)]
}

// commonHistoryUnits are the names of the first history units, made once
// for every run (read only after package initialisation).
var commonHistoryUnits = func() []string {
	out := make([]string, 256)
	for i := range out {
		out[i] = "history/" + strconv.Itoa(i)
	}
	return out
}()

// hashRef returns the SHA-256 of b as "sha256:<hex>" and as the bare hex,
// which shares the ref's bytes: one allocation for both forms.
func hashRef(b []byte) (ref, h string) {
	sum := sha256.Sum256(b)
	var buf [refLen]byte
	copy(buf[:], refPrefix)
	hex.Encode(buf[len(refPrefix):], sum[:])
	ref = string(buf[:])
	return ref, ref[len(refPrefix):]
}

// wants reports whether an event named n must be built: someone listens, or
// the record keeps events.
func (rs *runState) wants(n event.Name) bool {
	return rs.a.cfg.recordEvents || rs.a.d.HasListeners(n)
}

// emit builds the event once (only when wanted), keeps it in the record and
// delivers it. iter, when positive, is stamped as meta.iterIndex.
func (rs *runState) emit(s *flow.Scope, n event.Name, iter int, build func() any) {
	if !rs.wants(n) {
		return
	}
	wall, offset := rs.stamp()
	rs.keep(s, n, iter, wall, offset, build())
}

// iterRoom is the size of the first chunk of what a run keeps once an
// iteration (event groups, one-call batches' messages and results): about
// one an iteration of the agent's last run (its event count over the eight
// events an iteration emits), so a turn of one model call takes one piece
// of each and a long turn one chunk; 4 before any run ended.
func (rs *runState) iterRoom() int {
	if rs.iterFirst == 0 {
		rs.iterFirst = 4
		if n := int(rs.a.sizes.events.Load()); n > 0 {
			rs.iterFirst = min(max(1, n/8), 64)
		}
	}
	return rs.iterFirst
}

// keep keeps an event stamped wall and offset with its built payload in the
// record (or the batch's hold) and delivers it.
func (rs *runState) keep(s *flow.Scope, n event.Name, iter int, wall, offset int64, payload any) {
	if rs.hold == nil && !rs.a.d.HasListeners(n) {
		rs.mu.Lock()
		rs.keepLean(s, n, iter, wall, offset, payload)
		rs.mu.Unlock()
		return
	}
	info := s.Info()
	ev := event.Event{Type: n, Payload: payload, Meta: event.Meta{
		RunID:          info.RunID,
		RuntimeStageID: info.RuntimeStageID,
		SubflowPath:    info.SubflowPath,
		WallClockMs:    wall,
		RunOffsetMs:    offset,
		SessionID:      rs.identity.SessionID,
		Principal:      rs.identity.Principal,
		Tenant:         rs.identity.Tenant,
	}}
	if rs.hold != nil {
		ev.Meta.CompositionPath, ev.Meta.IterIndex = rs.shared(iter)
		rs.hold.keep(ev)
		return
	}
	// One lock for what events share and for the record's list.
	rs.mu.Lock()
	ev.Meta.CompositionPath, ev.Meta.IterIndex = rs.sharedLocked(iter)
	rs.keepLocked(&ev)
	rs.mu.Unlock()
	if rs.a.d.HasListeners(n) {
		rs.a.d.Dispatch(ev)
	}
}

// keepLean keeps an event no one listens to in the record's list, with the
// shared meta the run's last event used when it still applies. The caller
// holds rs.mu.
func (rs *runState) keepLean(s *flow.Scope, n event.Name, iter int, wall, offset int64, payload any) {
	if !rs.a.cfg.recordEvents {
		return
	}
	k := rs.events.Len()
	if k >= record.MaxEvents {
		rs.dropped++
		return
	}
	if k == 0 {
		rs.events.GrowGrouped(rs.eventRoom(), rs.ungroupedRoom())
	}
	info := s.Info()
	m := rs.metaLocked(&info)
	_, it := rs.sharedLocked(iter)
	rs.events.AppendShared(m, n, payload, info.RuntimeStageID, wall, offset, it)
	rs.ungrouped++
}

// metaLocked is the shared meta of the run's events from the stage info
// names: the one its last event used while it still applies. The caller
// holds rs.mu.
func (rs *runState) metaLocked(info *flow.StageInfo) *event.Meta {
	m := rs.meta
	if m == nil || m.RunID != info.RunID || m.SubflowPath != info.SubflowPath {
		path, _ := rs.sharedLocked(0)
		m = &event.Meta{RunID: info.RunID, SubflowPath: info.SubflowPath, CompositionPath: path,
			SessionID: rs.identity.SessionID, Principal: rs.identity.Principal, Tenant: rs.identity.Tenant}
		rs.meta = m
	}
	return m
}

// ungroupedRoom is the room the run's list starts with for events kept on
// their own: the agent's last run's count and a few more, or 16 before any
// run ended.
func (rs *runState) ungroupedRoom() int {
	if n := int(rs.a.sizes.ungrouped.Load()); n > 0 {
		return n + 4
	}
	return 16
}

// instant is one reading of the run's clock: an event's time and offset
// from the run's start in milliseconds, and the time since the start, which
// durations are measured between.
type instant struct {
	wall, offset int64
	since        time.Duration
}

// sub is the time from j to i.
func (i instant) sub(j instant) time.Duration { return i.since - j.since }

// instant reads the run's clock.
func (rs *runState) instant() instant {
	if rs.a.cfg.ownClock {
		now := rs.a.cfg.now()
		d := now.Sub(rs.start)
		return instant{wall: now.UnixMilli(), offset: d.Milliseconds(), since: d}
	}
	wall, offset, d := rs.systemStamp()
	return instant{wall: wall, offset: offset, since: d}
}

// stampAt is the time of an event that reports what happened at i: i's, on
// the system clock, so a call's end and the events about it share one
// reading, exact to the millisecond. A clock of the caller's (WithClock) is
// read for each event instead, as before: a test clock may move on every
// reading.
func (rs *runState) stampAt(i instant) (wallMs, offsetMs int64) {
	if rs.a.cfg.ownClock {
		return rs.stamp()
	}
	return i.wall, i.offset
}

// stamp is an event's time and its offset from the run's start, in
// milliseconds. On the system clock the time is the start plus the
// monotonic time since (see WithClock).
func (rs *runState) stamp() (wallMs, offsetMs int64) {
	if rs.a.cfg.ownClock {
		now := rs.a.cfg.now()
		return now.UnixMilli(), now.Sub(rs.start).Milliseconds()
	}
	wallMs, offsetMs, _ = rs.systemStamp()
	return wallMs, offsetMs
}

// systemStamp is stamp on the system clock, with the time since the start.
func (rs *runState) systemStamp() (wallMs, offsetMs int64, since time.Duration) {
	d := time.Since(rs.start)
	if ns := rs.start.UnixNano(); ns > 0 {
		// start.Add(d).UnixMilli() for a time after 1970, without building
		// the time.
		return (ns + int64(d)) / 1e6, d.Milliseconds(), d
	}
	return rs.start.Add(d).UnixMilli(), d.Milliseconds(), d
}

// shared returns what events share, under one lock (a tool's goroutine may
// emit too): the run's one composition path (capacity-clipped, so an append
// by a listener copies) and, for iter > 0, the meta.iterIndex pointer of
// that iteration, one per iteration (an event's meta is read, never
// written, once emitted); nil for iter ≤ 0.
func (rs *runState) shared(iter int) (path []string, it *int) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.sharedLocked(iter)
}

// sharedLocked is shared for a caller holding rs.mu.
func (rs *runState) sharedLocked(iter int) (path []string, it *int) {
	if rs.compPath == nil {
		rs.compPath = []string{rs.a.cfg.id}
	}
	if iter > 0 {
		if rs.iterPtr == nil || *rs.iterPtr != iter {
			p := rs.iterInts.take(1, 16, 64)
			p[0] = iter
			rs.iterPtr = &p[0]
		}
		it = rs.iterPtr
	}
	return rs.compPath[:1:1], it
}

// toolNames is the llm.request event's list of the tools a request
// declared. The calls of a run usually declare the same tools, so the list
// of the call before is shared when it names the same ones (capacity-clipped;
// an event's payload is read, never written, once emitted). Call-llm only.
func (rs *runState) toolNames(tools []llm.ToolSchema) []event.ToolName {
	if len(rs.lastTools) == len(tools) && rs.lastTools != nil {
		same := true
		for i, t := range tools {
			if rs.lastTools[i].Name != t.Name {
				same = false
				break
			}
		}
		if same {
			return rs.lastTools
		}
	}
	out := make([]event.ToolName, 0, len(tools))
	for _, t := range tools {
		out = append(out, event.ToolName{Name: t.Name})
	}
	rs.lastTools = out[:len(out):len(out)]
	return out
}

// firstIndices returns 0, 1, …, n-1 (non-nil, capacity-clipped): the
// history a call without a window sends. The calls of a run share one
// array, each reading a prefix of it; nothing writes into it once handed
// out. Context stage only.
func (rs *runState) firstIndices(n int) []int {
	if len(rs.indices) < n || rs.indices == nil {
		next := make([]int, max(2*n, 16))
		for i := range next {
			next[i] = i
		}
		rs.indices = next
	}
	return rs.indices[:n:n]
}

// deliver keeps ev in the record (under the cap) and hands it to listeners.
func (rs *runState) deliver(ev event.Event) {
	rs.mu.Lock()
	rs.keepLocked(&ev)
	rs.mu.Unlock()
	if rs.a.d.HasListeners(ev.Type) {
		rs.a.d.Dispatch(ev)
	}
}

// eventRoom is the room a run's event list starts with: the agent's last
// run's count and a few more, or, before any run ended, about eight events
// an iteration (one allocation for the usual turn, not a doubling series).
func (rs *runState) eventRoom() int {
	n := int(rs.a.sizes.events.Load())
	if n == 0 {
		n = 16 + 8*rs.a.cfg.maxIter
	} else {
		n += 8
	}
	return min(n, record.MaxEvents)
}

// keepLocked keeps ev in the record's list, under the cap, when the record
// keeps events. The caller holds rs.mu.
func (rs *runState) keepLocked(ev *event.Event) {
	if !rs.a.cfg.recordEvents {
		return
	}
	if n := rs.events.Len(); n < record.MaxEvents {
		if n == 0 {
			rs.events.Grow(rs.eventRoom())
		}
		rs.events.Append(*ev)
	} else {
		rs.dropped++
	}
}
