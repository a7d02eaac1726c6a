// Memory: finished turns written to a named corpus and recalled later.

package retrieval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/inject"
)

// Memory is a corpus of earlier turns. Its units are of kind memory; each
// entry's Source is "run:<run id>/turn:<turn number>" (see SourceRun) and
// its metadata holds the run, the turn and the agent.
type Memory struct {
	corpus *Corpus
}

// NewMemory returns the memory name over idx, embedding with emb. It
// refuses what NewCorpus refuses.
func NewMemory(name string, emb Embedder, idx Index, opts ...CorpusOption) (*Memory, error) {
	c, err := newCorpus(name, inject.KindMemory, emb, idx, opts)
	if err != nil {
		return nil, err
	}
	return &Memory{corpus: c}, nil
}

// Corpus returns the memory's corpus, to build its units with Units.
func (m *Memory) Corpus() *Corpus { return m.corpus }

// FeedbackError refuses to write a turn into a memory or corpus that
// supplied passages to that very turn: the memory would then confirm
// itself. Passages lists the ids that were placed.
type FeedbackError struct {
	Corpus   string
	RunID    string
	Passages []string
}

// Error names the corpus, the run and the passages.
func (e *FeedbackError) Error() string {
	return fmt.Sprintf("retrieval: run %s was answered from %q (passages %s); a turn is never written back into the corpus it was answered from",
		e.RunID, e.Corpus, strings.Join(e.Passages, ", "))
}

// ErrNoAnswer refuses to remember a turn that has no answer (it paused or
// failed).
var ErrNoAnswer = errors.New("retrieval: the turn has no answer to remember (it paused or failed)")

// Remember writes the finished turn res to the memory: the person's message
// and the answer, with the run id and turn number it came from. It refuses
// a turn without an answer or a record, and a turn whose context held a
// passage of this memory (*FeedbackError). Call it after the turn; nothing
// is written unless you do.
func (m *Memory) Remember(ctx context.Context, res *agent.Result) (Passage, error) {
	if res == nil || res.Record == nil || res.Record.Log == nil {
		return Passage{}, fmt.Errorf("retrieval: memory %q: the result has no record", m.corpus.name)
	}
	if res.Answer == "" || res.Paused {
		return Passage{}, ErrNoAnswer
	}
	rec := res.Record
	used, err := placedFrom(rec.Log, m.corpus.name)
	if err != nil {
		return Passage{}, fmt.Errorf("retrieval: memory %q: %w", m.corpus.name, err)
	}
	if len(used) > 0 {
		return Passage{}, &FeedbackError{Corpus: m.corpus.name, RunID: res.RunID, Passages: used}
	}
	last := len(rec.Log.Commits) - 1
	v, _, err := flow.ValueAt(rec.Log, last, state.KeyUserMessage.KeyName())
	if err != nil {
		return Passage{}, fmt.Errorf("retrieval: memory %q: reading the person's message: %w", m.corpus.name, err)
	}
	msg, _ := v.(string)
	turn := rec.Manifest.TurnNumber
	p := Passage{
		ID:     entryID(m.corpus.name, res.RunID, turn),
		Source: "run:" + res.RunID + "/turn:" + strconv.Itoa(turn),
		Text:   "Earlier, the person asked: " + msg + "\nThe answer was: " + res.Answer,
		Metadata: map[string]string{
			"run": res.RunID, "turn": strconv.Itoa(turn), "agent": rec.Manifest.AgentID,
		},
	}
	if len(p.Text) > maxText {
		p.Text = truncateUTF8(p.Text, maxText)
	}
	if err := m.corpus.Add(ctx, p); err != nil {
		return Passage{}, err
	}
	return p, nil
}

// SourceRun reads the run id and turn number out of a memory entry's
// Source.
func SourceRun(source string) (runID string, turn int, ok bool) {
	rest, ok := strings.CutPrefix(source, "run:")
	if !ok {
		return "", 0, false
	}
	i := strings.LastIndex(rest, "/turn:")
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(rest[i+len("/turn:"):])
	if err != nil || rest[:i] == "" {
		return "", 0, false
	}
	return rest[:i], n, true
}

// entryID is the memory's name and a digest of the run and turn, so it fits
// a unit id whatever the run id looks like.
func entryID(name, runID string, turn int) string {
	sum := sha256.Sum256([]byte(runID + "\x00" + strconv.Itoa(turn)))
	id := name + "." + hex.EncodeToString(sum[:6])
	if len(id) > 64 {
		id = id[len(id)-64:]
		id = strings.TrimLeft(id, ".-_")
	}
	return id
}

// placedFrom lists the passages of corpus that any iteration of the run
// placed.
func placedFrom(log *flow.Record, corpus string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for i, c := range log.Commits {
		for _, op := range c.Ops {
			if op.Key != state.KeyContextUnits.KeyName() || op.Value == nil {
				continue
			}
			cu, err := asContextUnits(op.Value)
			if err != nil {
				return nil, fmt.Errorf("contextUnits at commit %d: %w", i, err)
			}
			for _, e := range cu.Units {
				r := e.Trigger.Retrieval
				if e.Placed != nil && r != nil && r.Retrieval == corpus && !seen[e.ID] {
					seen[e.ID] = true
					out = append(out, e.ID)
				}
			}
		}
	}
	return out, nil
}

func asContextUnits(v any) (state.ContextUnits, error) {
	if cu, ok := v.(state.ContextUnits); ok {
		return cu, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return state.ContextUnits{}, err
	}
	var cu state.ContextUnits
	err = json.Unmarshal(raw, &cu)
	return cu, err
}

func truncateUTF8(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
