// Sets of culprits: delta debugging over the suspects to
// find a minimal set whose joint removal flips the answer.

package explain

import (
	"context"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"slices"
	"strings"
)

// BisectOptions configures Bisect. Zero values take the defaults.
type BisectOptions struct {
	// MaxProbes bounds the probes (each N reruns); default 24.
	MaxProbes int
	// MaxCulprits bounds the size of a set reported confirmed; default 4.
	MaxCulprits int
	// Samples is N (default 3, minimum 2).
	Samples    int
	Comparator Comparator
}

// BisectReport is Bisect's answer. Probes logs every probe in order;
// Culprits is the minimal set when Outcome is confirmed.
type BisectReport struct {
	// Outcome is VerdictConfirmed, VerdictNotReproducible or
	// VerdictInconclusive.
	Outcome  string         `json:"outcome"`
	Culprits []string       `json:"culprits"`
	Probes   []BisectProbe  `json:"probes"`
	Baseline BaselineReport `json:"baseline"`
	Runs     int            `json:"runs"`
	Flags    []string       `json:"flags"`
	Claim    string         `json:"claim"`
}

// BisectProbe is one probe: the specs removed together and what happened.
type BisectProbe struct {
	Removed []string `json:"removed"`
	Flips   int      `json:"flips"`
	Samples int      `json:"samples"`
	Flipped bool     `json:"flipped"`
}

// flagBudgetSpent marks a bisection stopped by MaxProbes.
const flagBudgetSpent = "budget-spent"

// Bisect finds a minimal set of suspects whose joint removal flips the
// answer by majority, with ddmin halving; probes are cached by spec set. The
// outcome is not-reproducible when removing every suspect does not flip, and
// inconclusive on an unstable baseline, a spent budget, or a minimal set
// larger than MaxCulprits.
func Bisect(ctx context.Context, rec *record.Record, bp Blueprint, w *World, suspects []Spec, opt BisectOptions) (*BisectReport, error) {
	if opt.MaxProbes <= 0 {
		opt.MaxProbes = 24
	}
	if opt.MaxCulprits <= 0 {
		opt.MaxCulprits = 4
	}
	p, err := newProber(rec, bp, w, opt.Samples, opt.Comparator)
	if err != nil {
		return nil, err
	}
	for _, sp := range suspects {
		if _, err := Ablate(bp, sp); err != nil {
			return nil, err
		}
	}
	rep := &BisectReport{Culprits: []string{}, Probes: []BisectProbe{}, Flags: []string{}}
	n := len(p.seeds)
	base, err := p.run(ctx, nil)
	if err != nil {
		return nil, err
	}
	rep.Baseline = baselineOf(base, n)
	rep.Flags = append(rep.Flags, sampleFlags(rec, w, base)...)
	finish := func(outcome, claim string) (*BisectReport, error) {
		rep.Outcome, rep.Claim, rep.Runs = outcome, claim, p.runs
		return rep, nil
	}
	if base.flips > 0 {
		return finish(VerdictInconclusive, "the untouched agent already changes its answer across seeds; no set can be tested")
	}
	cache := map[string]bool{}
	spent := false
	test := func(set []Spec) (bool, error) {
		key := setKey(set)
		if v, ok := cache[key]; ok {
			return v, nil
		}
		if len(rep.Probes) >= opt.MaxProbes {
			spent = true
			return false, nil
		}
		s, err := p.run(ctx, set)
		if err != nil {
			return false, err
		}
		flipped := s.flips*2 > n
		cache[key] = flipped
		ids := make([]string, len(set))
		for i, sp := range set {
			ids[i] = sp.String()
		}
		rep.Probes = append(rep.Probes, BisectProbe{Removed: ids, Flips: s.flips, Samples: n, Flipped: flipped})
		return flipped, nil
	}
	all, err := test(suspects)
	if err != nil {
		return nil, err
	}
	if !all {
		return finish(VerdictNotReproducible, "removing every suspect together does not change the answer by majority")
	}
	set, gran := slices.Clone(suspects), 2
	for len(set) >= 2 && !spent {
		chunks := split(set, gran)
		reduced := false
		for _, c := range chunks {
			ok, err := test(c)
			if err != nil {
				return nil, err
			}
			if ok {
				set, gran, reduced = c, 2, true
				break
			}
		}
		if !reduced {
			for _, c := range chunks {
				comp := without(set, c)
				if len(comp) == 0 || len(comp) == len(set) {
					continue
				}
				ok, err := test(comp)
				if err != nil {
					return nil, err
				}
				if ok {
					set, gran, reduced = comp, max(gran-1, 2), true
					break
				}
			}
		}
		if reduced {
			continue
		}
		if gran >= len(set) {
			break
		}
		gran = min(2*gran, len(set))
	}
	for _, sp := range set {
		rep.Culprits = append(rep.Culprits, sp.String())
	}
	if spent {
		rep.Flags = append(rep.Flags, flagBudgetSpent)
		return finish(VerdictInconclusive, "the probe budget ran out before the set was minimal; the smallest flipping set found is listed")
	}
	if len(set) > opt.MaxCulprits {
		return finish(VerdictInconclusive, "the minimal set is larger than MaxCulprits")
	}
	return finish(VerdictConfirmed, "confirmed: removing "+strings.Join(rep.Culprits, " and ")+
		" together changes the answer by majority, and no smaller subset of them does (tools replayed from the record)")
}

// split cuts set into n nearly equal chunks.
func split(set []Spec, n int) [][]Spec {
	n = min(n, len(set))
	out := make([][]Spec, 0, n)
	for i := range n {
		lo, hi := i*len(set)/n, (i+1)*len(set)/n
		out = append(out, set[lo:hi])
	}
	return out
}

// without returns set minus the specs of c.
func without(set, c []Spec) []Spec {
	var out []Spec
	for _, s := range set {
		if !slices.Contains(c, s) {
			out = append(out, s)
		}
	}
	return out
}

// setKey is an order-free key of a spec set.
func setKey(set []Spec) string {
	ids := make([]string, len(set))
	for i, s := range set {
		ids[i] = s.String()
	}
	slices.Sort(ids)
	return strings.Join(ids, "\x00")
}
