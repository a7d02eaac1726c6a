// Probes and verdicts: seeded reruns of the
// baseline and of each ablated copy, the baseline stability gate, and the
// report in format agentfootprint-go.ablation/1.

package explain

import (
	"context"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"math"
	"slices"
	"strings"
)

// AblationFormat is the format id of a Report's JSON encoding.
const AblationFormat = "agentfootprint-go.ablation/1"

// Verdicts (wire words): a probed suspect's (SuspectReport.Verdict), a walk
// hop's (WalkHop.Verdict) and Bisect's outcome (BisectReport.Outcome).
const (
	// VerdictConfirmed: the rerun's change (removing the suspect or the set,
	// or forcing a unit in) flips the answer by majority over a stable
	// baseline.
	VerdictConfirmed = "confirmed"
	// VerdictNotConfirmed: the change never flipped the answer.
	VerdictNotConfirmed = "not-confirmed"
	// VerdictInconclusive: the reruns cannot decide (an unstable baseline, no
	// majority, or for Bisect a spent budget or a set above MaxCulprits).
	VerdictInconclusive = "inconclusive"
	// VerdictNotReproducible is Bisect's outcome when removing every suspect
	// together does not flip the answer.
	VerdictNotReproducible = "not-reproducible"
)

// Report flags (wire words).
const (
	flagBaselineUnstable      = "baseline-unstable"
	flagSamplesIdentical      = "samples-identical"
	flagSamplesNotIndependent = "samples-not-independent"
)

// Report modes.
const (
	modeCausal        = "causal"
	modeCorrelational = "correlational"
)

// Comparator reports whether candidate counts as a different answer from
// original (a flip).
type Comparator func(original, candidate string) bool

// DefaultComparator flips when the lexical similarity of the two answers is
// below 0.8. A domain comparator (a label extractor) is better.
func DefaultComparator(original, candidate string) bool {
	return Similarity(original, candidate) < 0.8
}

// ProbeOptions configures Probe. Zero values take the defaults.
type ProbeOptions struct {
	// Samples is N, the reruns per probe (default 3, minimum 2).
	Samples int
	// TopK bounds the suspects probed when Suspects is empty (default 5).
	TopK int
	// Suspects are the specs to probe, in order. Empty: the ranked suspects
	// of the backtrack (the shortlist first when the top is flat), mapped to
	// Unit or Tool specs.
	Suspects []Spec
	// Comparator decides flips (default DefaultComparator).
	Comparator Comparator
}

// Report is the outcome of a probe, encoded as agentfootprint-go.ablation/1.
type Report struct {
	// Format is AblationFormat.
	Format string `json:"format"`
	// Mode is "causal" once a suspect was probed (the verdicts rest on reruns),
	// "correlational" for a report holding only the baseline.
	Mode     string         `json:"mode"`
	Samples  int            `json:"samples"`
	Seeds    []int64        `json:"seeds"`
	World    WorldInfo      `json:"world"`
	Baseline BaselineReport `json:"baseline"`
	// Suspects holds one report per probed spec, in the order probed.
	Suspects []SuspectReport `json:"suspects"`
	Runs     int             `json:"runs"`
	// Flags qualify the verdicts: "baseline-unstable" (the unablated copy
	// already changes its answer, so no suspect is confirmed),
	// "samples-identical" (every baseline rerun gave the same answer) and
	// "samples-not-independent" (a provider without seeds at temperature 0, so
	// the reruns may not be independent draws of the model).
	Flags []string `json:"flags"`
	// Ranking is the ranking confidence the suspects were chosen by, when
	// Probe chose them; its reason says when the proxy scores could not
	// separate the shortlist.
	Ranking *Confidence `json:"ranking,omitempty"`
}

// WorldInfo says what the reruns ran on.
type WorldInfo struct {
	Tools string `json:"tools"`
	Model string `json:"model"`
}

// BaselineReport is the N reruns of the unablated copy.
type BaselineReport struct {
	Flips           int      `json:"flips"`
	Samples         int      `json:"samples"`
	Similarity      SimStats `json:"similarity"`
	DistinctSamples int      `json:"distinctSamples"`
}

// SimStats summarises the lexical similarity of the rerun answers to the
// original one.
type SimStats struct {
	Mean  float64 `json:"mean"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Stdev float64 `json:"stdev"`
}

// SuspectReport is one probed spec's verdict with its numbers and claim.
type SuspectReport struct {
	ID           string     `json:"id"`
	Kind         string     `json:"kind"`
	Verdict      string     `json:"verdict"`
	Flips        int        `json:"flips"`
	Samples      int        `json:"samples"`
	Wilson95     [2]float64 `json:"wilson95"`
	Similarity   SimStats   `json:"similarity"`
	DivergedRuns int        `json:"divergedRuns"`
	LiveCalls    int        `json:"liveCalls"`
	Claim        string     `json:"claim"`
}

// prober runs seeded rerun sets of one recorded turn.
type prober struct {
	bp       Blueprint
	w        *World
	src      *rerunSource
	seeds    []int64
	cmp      Comparator
	original string
	runs     int
}

// sample is the outcome of one probe: N seeded reruns.
type sample struct {
	flips, diverged, live int
	sims                  []float64
	answers               []string
}

// newProber validates the common inputs of Probe, Bisect and WalkToRoot.
func newProber(rec *record.Record, bp Blueprint, w *World, samples int, cmp Comparator) (*prober, error) {
	if rec == nil || rec.Log == nil {
		return nil, ErrNoRecord
	}
	if w == nil {
		return nil, errors.New("explain: probing needs a world (FrozenWorld)")
	}
	if samples == 0 {
		samples = 3
	}
	if samples < 2 {
		return nil, fmt.Errorf("explain: Samples %d is below the minimum of 2", samples)
	}
	if cmp == nil {
		cmp = DefaultComparator
	}
	var ans AnswerHop
	if _, err := answerCall(rec.Log, Target{}, &ans); err != nil {
		return nil, err
	}
	src, err := sourceOf(rec)
	if err != nil {
		return nil, err
	}
	p := &prober{bp: bp, w: w, src: src, seeds: make([]int64, samples), cmp: cmp, original: ans.Text}
	for i := range p.seeds {
		p.seeds[i] = int64(i)
	}
	return p, nil
}

// run reruns the agent with specs applied once per seed.
func (p *prober) run(ctx context.Context, specs []Spec) (sample, error) {
	var s sample
	b, err := Ablate(p.bp, specs...)
	if err != nil {
		return s, err
	}
	turn, err := rerunInput(p.src, specs)
	if err != nil {
		return s, err
	}
	label := "baseline"
	if len(specs) > 0 {
		label = specText(specs)
	}
	for _, seed := range p.seeds {
		r, err := p.w.rerun(ctx, b, turn, seed)
		if err != nil {
			return s, fmt.Errorf("explain: probe %s, seed %d: %w", label, seed, err)
		}
		p.runs++
		if p.cmp(p.original, r.answer) {
			s.flips++
		}
		if r.diverged {
			s.diverged++
		}
		s.live += r.live
		s.sims = append(s.sims, Similarity(p.original, r.answer))
		s.answers = append(s.answers, r.answer)
	}
	return s, nil
}

// specText joins specs for messages.
func specText(specs []Spec) string {
	parts := make([]string, len(specs))
	for i, s := range specs {
		parts[i] = s.String()
	}
	return strings.Join(parts, "+")
}

// Probe reruns copies of the agent built from bp in world w: N baseline runs,
// then N runs per suspect spec, seed r for run r. A run flips when the
// comparator says its answer differs from the recorded answer. It refuses a
// record without a final answer, N below 2, a spec Ablate refuses, a forced
// history message the recorded run did not have before its question, and any
// rerun that fails (the error names the probe and seed).
func Probe(ctx context.Context, rec *record.Record, bp Blueprint, w *World, opt ProbeOptions) (*Report, error) {
	p, err := newProber(rec, bp, w, opt.Samples, opt.Comparator)
	if err != nil {
		return nil, err
	}
	if opt.TopK <= 0 {
		opt.TopK = 5
	}
	specs := opt.Suspects
	var conf *Confidence
	if len(specs) == 0 {
		if specs, conf, err = rankedSpecs(rec, bp, opt.TopK); err != nil {
			return nil, err
		}
	}
	for _, sp := range specs {
		if _, err := Ablate(bp, sp); err != nil {
			return nil, err
		}
		if _, err := rerunInput(p.src, []Spec{sp}); err != nil {
			return nil, err
		}
	}
	n := len(p.seeds)
	rep := &Report{Format: AblationFormat, Mode: modeCorrelational, Samples: n, Seeds: p.seeds,
		World: WorldInfo{Tools: "frozen", Model: "live"}, Suspects: []SuspectReport{}, Flags: []string{}, Ranking: conf}
	base, err := p.run(ctx, nil)
	if err != nil {
		return nil, err
	}
	rep.Baseline = baselineOf(base, n)
	unstable := base.flips > 0
	rep.Flags = append(rep.Flags, sampleFlags(rec, w, base)...)
	seeds := seedText(rep.Seeds)
	for _, sp := range specs {
		s, err := p.run(ctx, []Spec{sp})
		if err != nil {
			return nil, err
		}
		rep.Mode = modeCausal
		sr := SuspectReport{ID: sp.id, Kind: string(sp.kind), Flips: s.flips, Samples: n,
			Wilson95: wilson(s.flips, n), Similarity: stats(s.sims), DivergedRuns: s.diverged, LiveCalls: s.live}
		sr.Verdict, sr.Claim = verdict(sp, s.flips, n, base.flips, unstable, seeds)
		rep.Suspects = append(rep.Suspects, sr)
	}
	rep.Runs = p.runs
	return rep, nil
}

// baselineOf summarises the baseline sample.
func baselineOf(base sample, n int) BaselineReport {
	distinct := slices.Compact(slices.Sorted(slices.Values(base.answers)))
	return BaselineReport{Flips: base.flips, Samples: n, Similarity: stats(base.sims), DistinctSamples: len(distinct)}
}

// sampleFlags are the flags a baseline earns: unstable, identical samples,
// samples that cannot be independent.
func sampleFlags(rec *record.Record, w *World, base sample) []string {
	var f []string
	if base.flips > 0 {
		f = append(f, flagBaselineUnstable)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(base.answers)))) == 1 {
		f = append(f, flagSamplesIdentical)
	}
	if !llm.CapsOf(w.Live).Seed && (rec.Manifest.Options.Temperature == nil || *rec.Manifest.Options.Temperature == 0) {
		f = append(f, flagSamplesNotIndependent)
	}
	return f
}

// verdict applies the verdict table and writes the claim. Only a confirmed
// verdict uses the words confirmed and causal.
func verdict(sp Spec, flips, n, baseFlips int, unstable bool, seeds string) (string, string) {
	what := "with " + sp.String() + " removed,"
	change := "removing " + sp.id + " changes the answer"
	if sp.kind == specForce {
		what = "with " + sp.id + " forced in,"
		change = "restoring " + sp.id + " changes the answer"
	}
	world := "tools replayed from the record, clock held at the recorded start"
	switch {
	case unstable:
		return VerdictInconclusive, fmt.Sprintf("%s the answer changed in %d/%d reruns (seeds %s), but the untouched agent also changed it in %d/%d, so the two cannot be told apart (%s)", what, flips, n, seeds, baseFlips, n, world)
	case flips*2 > n:
		return VerdictConfirmed, fmt.Sprintf("confirmed: %s the answer changed in %d/%d seeded reruns (seeds %s; baseline %d/%d; %s); %s — a causal effect within this frozen world", what, flips, n, seeds, baseFlips, n, world, change)
	case flips > 0:
		return VerdictInconclusive, fmt.Sprintf("%s the answer changed in %d/%d reruns (seeds %s; baseline %d/%d; %s): not a majority, no stamp", what, flips, n, seeds, baseFlips, n, world)
	default:
		return VerdictNotConfirmed, fmt.Sprintf("no effect seen: %s the answer changed in 0/%d reruns (seeds %s; baseline %d/%d; %s); its rank stays a proxy", what, n, seeds, baseFlips, n, world)
	}
}

func seedText(seeds []int64) string {
	parts := make([]string, len(seeds))
	for i, s := range seeds {
		parts[i] = fmt.Sprint(s)
	}
	return strings.Join(parts, ",")
}

// wilson is the 95% Wilson score interval of k successes in n, rounded to
// four decimals.
func wilson(k, n int) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	center := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return [2]float64{round4(math.Max(0, center-half)), round4(math.Min(1, center+half))}
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// stats summarises similarities (population standard deviation).
func stats(xs []float64) SimStats {
	if len(xs) == 0 {
		return SimStats{}
	}
	s := SimStats{Min: xs[0], Max: xs[0]}
	sum := 0.0
	for _, x := range xs {
		sum += x
		s.Min, s.Max = math.Min(s.Min, x), math.Max(s.Max, x)
	}
	s.Mean = sum / float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - s.Mean) * (x - s.Mean)
	}
	s.Stdev = math.Sqrt(v / float64(len(xs)))
	s.Mean, s.Min, s.Max, s.Stdev = round4(s.Mean), round4(s.Min), round4(s.Max), round4(s.Stdev)
	return s
}

// sourceOf reads the rerun input from the record: the user message and the
// conversation before it.
func sourceOf(rec *record.Record) (*rerunSource, error) {
	log := rec.Log
	seeds := commitsOf(log, stageSeed)
	if len(seeds) == 0 {
		return nil, errors.New("explain: the record has no seed step")
	}
	sc := seeds[0]
	msg, _, err := valueAt[string](log, sc, keyUserMessage)
	if err != nil {
		return nil, err
	}
	hist, _, err := valueAt[[]llm.Message](log, sc, keyHistory)
	if err != nil {
		return nil, err
	}
	src := &rerunSource{message: msg}
	if len(hist) > 1 {
		src.prior = hist[:len(hist)-1]
	}
	return src, nil
}

// rankedSpecs maps the top ranked suspects to specs bp can apply: a unit to
// Unit, a tool result to Tool of its tool. The shortlist comes first when the
// ranking has no clear winner.
func rankedSpecs(rec *record.Record, bp Blueprint, k int) ([]Spec, *Confidence, error) {
	ch, err := Backtrack(rec, Target{})
	if err != nil {
		return nil, nil, err
	}
	ranked, err := Rank(rec, Target{})
	if err != nil {
		return nil, nil, err
	}
	conf := RankingConfidence(ranked)
	order := []string{}
	if !conf.ClearWinner {
		order = append(order, conf.Shortlist...)
	}
	for _, r := range ranked {
		if !slices.Contains(order, r.ID) {
			order = append(order, r.ID)
		}
	}
	have := map[string]bool{}
	for _, s := range removable(bp) {
		have[s] = true
	}
	var specs []Spec
	for _, id := range order {
		var sp Spec
		if _, ok := parseHistoryUnit(id); ok {
			i := slices.IndexFunc(ch.Suspects, func(s Suspect) bool { return s.Unit == id })
			if i < 0 || ch.Suspects[i].Allowed.ToolCall == nil {
				continue
			}
			sp = Tool(ch.Suspects[i].Allowed.ToolCall.Name)
		} else {
			sp = Unit(id)
		}
		if !have[sp.String()] || slices.Contains(specs, sp) {
			continue
		}
		specs = append(specs, sp)
		if len(specs) == k {
			break
		}
	}
	if len(specs) == 0 {
		return nil, nil, errors.New("explain: no ranked suspect is removable from this blueprint")
	}
	return specs, &conf, nil
}
