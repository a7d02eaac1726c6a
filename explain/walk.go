// Walk to root: from a tool result, descend to the model
// call that asked for the tool and to what that call was sent, convicting
// each hop by run-wide ablation.

package explain

import (
	"context"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"slices"
)

// Walk stops (wire words).
const (
	stopUnseparatedSiblings = "unseparated-siblings"
	stopOverdetermined      = "overdetermined-or-incomplete"
	stopUntrackedOrigin     = "untracked-origin"
)

// WalkOptions configures WalkToRoot. Zero values take the defaults.
type WalkOptions struct {
	// Samples is N per probe (default 3, minimum 2).
	Samples    int
	Comparator Comparator
	// Beam is how many ranked candidates of each asking call are probed
	// (default 2).
	Beam int
	// MaxHops bounds the descent (default 4).
	MaxHops int
}

// WalkReport is the descent from a tool result to the deepest suspect whose
// removal flips the answer. Root is that suspect ("" when even the start
// did not flip); Stop says why the walk ended short of a context unit.
type WalkReport struct {
	Start string    `json:"start"`
	Hops  []WalkHop `json:"hops"`
	Root  string    `json:"root"`
	// Stop says why the walk ended above the root, when it did:
	// "unseparated-siblings", "overdetermined-or-incomplete" or
	// "untracked-origin".
	Stop     string         `json:"stop,omitempty"`
	Baseline BaselineReport `json:"baseline"`
	Runs     int            `json:"runs"`
	Flags    []string       `json:"flags"`
}

// WalkHop is one probed suspect on the way down: which call it reached,
// where it landed, the spec removed and its verdict.
type WalkHop struct {
	Depth   int    `json:"depth"`
	Suspect string `json:"suspect"`
	Call    string `json:"call"`
	Landed  string `json:"landed"`
	AskedBy string `json:"askedBy,omitempty"`
	Removed string `json:"removed"`
	Flips   int    `json:"flips"`
	Samples int    `json:"samples"`
	Verdict string `json:"verdict"`
}

// WalkToRoot starts at the tool result from (a suspect id such as
// "history/3" of the final answer's chain), convicts it by removing its tool,
// then ranks what the model call that asked for the tool was sent and probes
// the top Beam candidates; a single convicted candidate becomes the new root
// and, when it is itself a tool result, the walk goes on. It refuses a start
// that is not a tool result of the answering call.
func WalkToRoot(ctx context.Context, rec *record.Record, bp Blueprint, w *World, from string, opt WalkOptions) (*WalkReport, error) {
	if opt.Beam <= 0 {
		opt.Beam = 2
	}
	if opt.MaxHops <= 0 {
		opt.MaxHops = 4
	}
	p, err := newProber(rec, bp, w, opt.Samples, opt.Comparator)
	if err != nil {
		return nil, err
	}
	ch, err := Backtrack(rec, Target{})
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(ch.Suspects, func(s Suspect) bool { return s.Unit == from })
	if i < 0 || ch.Suspects[i].Allowed.ToolCall == nil {
		return nil, fmt.Errorf("explain: %q is not a tool result sent to %s", from, ch.Answer.Step)
	}
	n := len(p.seeds)
	rep := &WalkReport{Start: from, Hops: []WalkHop{}, Flags: []string{}}
	base, err := p.run(ctx, nil)
	if err != nil {
		return nil, err
	}
	rep.Baseline = baselineOf(base, n)
	rep.Flags = append(rep.Flags, sampleFlags(rec, w, base)...)
	done := func() (*WalkReport, error) { rep.Runs = p.runs; return rep, nil }
	if base.flips > 0 {
		rep.Stop = stopOverdetermined
		return done()
	}
	probed := map[string]bool{}
	probe := func(depth int, s Suspect, call string) (bool, error) {
		sp, ok := specFor(s, bp)
		if !ok {
			return false, nil
		}
		if probed[sp.String()] {
			return false, nil
		}
		probed[sp.String()] = true
		smp, err := p.run(ctx, []Spec{sp})
		if err != nil {
			return false, err
		}
		flipped := smp.flips*2 > n
		v := VerdictNotConfirmed
		switch {
		case flipped:
			v = VerdictConfirmed
		case smp.flips > 0:
			v = VerdictInconclusive
		}
		h := WalkHop{Depth: depth, Suspect: s.Unit, Call: call, Landed: s.Landed.Step, Removed: sp.String(), Flips: smp.flips, Samples: n, Verdict: v}
		if s.Allowed.ToolCall != nil {
			h.AskedBy = s.Allowed.Step
		}
		rep.Hops = append(rep.Hops, h)
		return flipped, nil
	}
	cur := ch.Suspects[i]
	ok, err := probe(0, cur, ch.Answer.Step)
	if err != nil {
		return nil, err
	}
	if !ok {
		rep.Stop = stopOverdetermined
		return done()
	}
	rep.Root = cur.Unit
	for depth := 1; depth <= opt.MaxHops && cur.Allowed.ToolCall != nil; depth++ {
		asking := cur.Allowed.Step
		sub, err := Backtrack(rec, Target{Step: asking})
		if err != nil {
			return nil, err
		}
		if slices.Contains(sub.Flags, flagUntracked) {
			rep.Stop = stopUntrackedOrigin
			return done()
		}
		var convicted []Suspect
		tried := 0
		for _, s := range sub.Suspects {
			if tried == opt.Beam {
				break
			}
			if _, ok := specFor(s, bp); !ok {
				continue
			}
			tried++
			ok, err := probe(depth, s, asking)
			if err != nil {
				return nil, err
			}
			if ok {
				convicted = append(convicted, s)
			}
		}
		switch len(convicted) {
		case 0:
			rep.Stop = stopOverdetermined
			return done()
		case 1:
			cur = convicted[0]
			rep.Root = cur.Unit
		default:
			rep.Stop = stopUnseparatedSiblings
			return done()
		}
	}
	return done()
}

// specFor maps a suspect to the spec that removes it run-wide: a unit to
// Unit, a tool result to Tool of its tool.
func specFor(s Suspect, bp Blueprint) (Spec, bool) {
	var sp Spec
	if tc := s.Allowed.ToolCall; tc != nil {
		sp = Tool(tc.Name)
	} else {
		sp = Unit(s.Unit)
	}
	return sp, slices.Contains(removable(bp), sp.String())
}
