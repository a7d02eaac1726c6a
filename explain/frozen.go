// The frozen world: recorded tool outputs replayed by
// content, the clock held at the recorded start, and the live model called
// with the probe's seed.

package explain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

// toolMode says what a frozen tool does with a call the record has no
// output for.
type toolMode string

const (
	// toolsRefuse tells the model no recorded output exists for those
	// arguments and marks the run diverged.
	toolsRefuse toolMode = "refuse"
	// toolsLive runs the real tool and counts the live call.
	toolsLive toolMode = "live"
)

// recordedOutput is one tool execution as the record keeps it.
type recordedOutput struct {
	raw    []byte
	status tool.Status
	err    bool
}

// frozenTools is the table of recorded tool outputs of a run, keyed by tool
// name and the SHA-256 of the canonical arguments, in occurrence order.
type frozenTools struct {
	outputs map[string][]recordedOutput
}

// newFrozenTools reads every tool execution of rec. A result whose raw output
// blob is missing from the record is refused by name.
func newFrozenTools(rec *record.Record) (*frozenTools, error) {
	if rec == nil || rec.Log == nil {
		return nil, ErrNoRecord
	}
	ft := &frozenTools{outputs: map[string][]recordedOutput{}}
	log := rec.Log
	for _, ci := range commitsOf(log, stageToolCalls) {
		results, ok, err := valueAt[[]state.ToolResult](log, ci, keyToolResults)
		if err != nil || !ok {
			continue
		}
		calls, _, err := valueAt[[]llm.ToolCall](log, ci, keyToolCalls)
		if err != nil {
			return nil, err
		}
		args := map[string]json.RawMessage{}
		for _, c := range calls {
			args[c.ID] = c.Args
		}
		for _, r := range results {
			if r.OutputRef == "" {
				continue // the tool never ran (validation, unknown tool)
			}
			raw, ok := rec.Blob(r.OutputRef)
			if !ok {
				return nil, fmt.Errorf("explain: the raw output %s of tool call %s is not in the record", r.OutputRef, r.ToolCallID)
			}
			k := callKey(r.ToolName, args[r.ToolCallID])
			ft.outputs[k] = append(ft.outputs[k], recordedOutput{raw: raw, status: r.Status, err: r.Error})
		}
	}
	return ft, nil
}

// Len returns the number of recorded executions.
func (ft *frozenTools) Len() int {
	n := 0
	for _, v := range ft.outputs {
		n += len(v)
	}
	return n
}

// callKey is the content key of a call: tool name and the SHA-256 of the
// arguments re-encoded canonically (object keys sorted, no spaces).
func callKey(name string, args json.RawMessage) string {
	canon := []byte("{}")
	if len(args) > 0 {
		var v any
		dec := json.NewDecoder(bytesReader(args))
		dec.UseNumber()
		if dec.Decode(&v) == nil {
			if b, err := json.Marshal(v); err == nil {
				canon = b
			}
		} else {
			canon = args
		}
	}
	sum := sha256.Sum256(canon)
	return name + "\x00" + hex.EncodeToString(sum[:])
}

// replay is one rerun's use of the table: its own occurrence counters and
// what diverged.
type replay struct {
	ft       *frozenTools
	mode     toolMode
	mu       sync.Mutex
	next     map[string]int
	diverged bool
	live     int
}

func (ft *frozenTools) session(mode toolMode) *replay {
	if mode == "" {
		mode = toolsRefuse
	}
	return &replay{ft: ft, mode: mode, next: map[string]int{}}
}

// wrap returns a copy of t whose execute serves the recorded outputs. The
// copy keeps every declaration of t (validation mode, hidden arguments,
// ask-or-assume rules, period, result ceiling, check-in) and its definition
// site, so the rerun's agent treats each call as the recorded one did.
func (r *replay) wrap(t *tool.Tool) (*tool.Tool, error) {
	name := t.Name()
	return toolrun.WithExecute(t, func(ctx context.Context, args json.RawMessage) (any, error) {
		k := callKey(name, args)
		r.mu.Lock()
		n := r.next[k]
		r.next[k] = n + 1
		outs := r.ft.outputs[k]
		if n >= len(outs) {
			r.diverged = true
			live := r.mode == toolsLive
			if live {
				r.live++
			}
			r.mu.Unlock()
			if !live {
				return fmt.Sprintf("No recorded output exists for %s with these arguments: this is a replay of a recorded run, so the tool was not run.", name), nil
			}
			out, err := toolrun.Execute(ctx, t.Declaration(), args)
			if err != nil {
				return nil, err
			}
			if out.Status != "" {
				return tool.Result{Content: out.Value, Status: out.Status}, nil
			}
			return out.Value, nil
		}
		r.mu.Unlock()
		o := outs[n]
		if o.err && o.status == "" {
			return nil, errors.New(string(o.raw))
		}
		var content any = string(o.raw)
		if json.Valid(o.raw) && len(o.raw) > 0 && (o.raw[0] == '{' || o.raw[0] == '[') {
			content = json.RawMessage(o.raw)
		}
		if o.status != "" {
			return tool.Result{Content: content, Status: o.status}, nil
		}
		return content, nil
	})
}

// World is what a rerun runs on: the frozen tools, the frozen clock and the
// live model. Each rerun takes its own replay counters.
type World struct {
	tools *frozenTools
	// Now is the clock every rerun reads: the recorded start of the run.
	Now  func() time.Time
	Live llm.Provider
	// LiveTools runs the real tool, counting the live call, when a frozen tool
	// is called with arguments the record has no output for. Off (the
	// default), the model is told no recorded output exists for those
	// arguments and the rerun is marked diverged.
	LiveTools bool
}

// FrozenWorld builds the world for reruns of rec on the live provider. The
// agent's clock reads are not recorded one by one, so the clock is held at
// the recorded start of the run. It refuses a nil provider and a record whose
// outputs cannot be read.
func FrozenWorld(rec *record.Record, live llm.Provider) (*World, error) {
	if live == nil {
		return nil, errors.New("explain: FrozenWorld needs a live provider")
	}
	ft, err := newFrozenTools(rec)
	if err != nil {
		return nil, err
	}
	start, err := time.Parse(time.RFC3339Nano, rec.Manifest.StartedAt)
	if err != nil {
		return nil, fmt.Errorf("explain: manifest.startedAt %q is not an RFC 3339 time", rec.Manifest.StartedAt)
	}
	return &World{tools: ft, Now: func() time.Time { return start }, Live: live}, nil
}

// seeded sends every request with a fixed seed.
type seeded struct {
	p    llm.Provider
	seed int64
}

// Name is the wrapped provider's name.
func (s seeded) Name() string { return s.p.Name() }

// Complete sends a copy of req carrying the seed.
func (s seeded) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	r := req.Clone()
	seed := s.seed
	r.Seed = &seed
	return s.p.Complete(ctx, r)
}

// Capabilities are the wrapped provider's.
func (s seeded) Capabilities() llm.Caps { return llm.CapsOf(s.p) }

// rerunResult is one rerun's outcome.
type rerunResult struct {
	answer   string
	diverged bool
	live     int
}

// rerun runs bp once in the world with seed.
func (w *World) rerun(ctx context.Context, bp Blueprint, turn rerunTurn, seed int64) (rerunResult, error) {
	mode := toolsRefuse
	if w.LiveTools {
		mode = toolsLive
	}
	rp := w.tools.session(mode)
	frozen := Blueprint{Units: bp.Units, Options: bp.Options}
	for _, t := range bp.Tools {
		ft, err := rp.wrap(t)
		if err != nil {
			return rerunResult{}, fmt.Errorf("explain: freezing tool %s: %w", t.Name(), err)
		}
		frozen.Tools = append(frozen.Tools, ft)
	}
	a, err := frozen.Build(seeded{p: w.Live, seed: seed}, agent.WithClock(w.Now))
	if err != nil {
		return rerunResult{}, err
	}
	conv := a.NewConversation()
	if turn.prior != nil {
		conv = a.NewConversation(agent.WithHistory(turn.prior))
	}
	res, err := conv.Send(ctx, turn.in)
	if err != nil {
		return rerunResult{}, err
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return rerunResult{answer: res.Answer, diverged: rp.diverged, live: rp.live}, nil
}
