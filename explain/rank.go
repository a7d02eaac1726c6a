// Influence ranking: a lexical, deterministic score for every
// content-bearing suspect, and the confidence check on its top.

package explain

import (
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"math"
	"slices"
	"strings"
)

// persistThreshold is the similarity above which a later output counts as
// carrying a suspect's words.
const persistThreshold = 0.30

// Ranked is one suspect's score with its signals: FA, the similarity to the
// answer; AVG, the mean similarity to the model outputs after the suspect's
// first placement (the answering call included); Persist, the share of those
// outputs above 0.30; Depth, 1/(1+their number). Adapted marks a suspect
// with no such output: its score then weighs FA 0.80 and Depth 0.20.
type Ranked struct {
	ID      string  `json:"id"`
	Score   float64 `json:"score"`
	FA      float64 `json:"fa"`
	AVG     float64 `json:"avg"`
	Persist float64 `json:"persist"`
	Depth   float64 `json:"depth"`
	Adapted bool    `json:"adapted,omitempty"`

	index int
}

// Scorer compares two texts, higher meaning more alike. Similarity is the
// default; an embedding strategy is a Scorer computing the cosine of two
// embeddings (see EmbeddingScorer).
type Scorer func(a, b string) float64

// EmbeddingScorer turns an embedder into a Scorer: the cosine of the two
// texts' vectors, 0 when either is empty or zero or their lengths differ.
// embed is called for every comparison; cache inside it when it is slow.
func EmbeddingScorer(embed func(text string) []float64) Scorer {
	return func(a, b string) float64 {
		x, y := embed(a), embed(b)
		if len(x) == 0 || len(x) != len(y) {
			return 0
		}
		var dot, nx, ny float64
		for i := range x {
			dot += x[i] * y[i]
			nx += x[i] * x[i]
			ny += y[i] * y[i]
		}
		if nx == 0 || ny == 0 {
			return 0
		}
		return dot / math.Sqrt(nx*ny)
	}
}

// RankOptions configures RankWith. The zero value is Rank's lexical score.
type RankOptions struct {
	// Scorer replaces the lexical similarity.
	Scorer Scorer
	// Reference, when set, makes the ranking contrastive: FA becomes
	// score(suspect, answer) − score(suspect, Reference), the reference
	// being the answer that should have been given.
	Reference string
}

// Rank scores the suspects of the backtrack from target, best first. Only
// content-bearing suspects are ranked (placed context units and tool
// results); plumbing stages never are.
func Rank(rec *record.Record, target Target) ([]Ranked, error) {
	return RankWith(rec, target, RankOptions{})
}

// RankWith is Rank with a pluggable scorer and an optional contrastive
// reference answer.
func RankWith(rec *record.Record, target Target, opt RankOptions) ([]Ranked, error) {
	if rec == nil || rec.Log == nil {
		return nil, ErrNoRecord
	}
	var ans AnswerHop
	ci, err := answerCall(rec.Log, target, &ans)
	if err != nil {
		return nil, err
	}
	call, err := readCall(rec.Log, ci)
	if err != nil {
		return nil, err
	}
	sus, err := suspectsOf(rec, call, map[string]bool{})
	if err != nil {
		return nil, err
	}
	return rankSuspects(rec.Log, sus, targetText(ans.Text, call), ci, opt), nil
}

// rankSuspects scores sus against the answer and the model outputs after
// each suspect's first placement, up to and including the answering call.
// Ties keep request order.
func rankSuspects(log *flow.Record, sus []Suspect, answer string, answerCall int, opt RankOptions) []Ranked {
	type output struct {
		commit int
		text   string
	}
	var outs []output
	for _, ci := range commitsOf(log, stageCallLLM) {
		if ci > answerCall {
			break
		}
		text, _, _ := valueAt[string](log, ci, keyLatestContent)
		var b strings.Builder
		b.WriteString(text)
		if calls, _, err := valueAt[[]llm.ToolCall](log, ci, keyToolCalls); err == nil {
			for _, c := range calls {
				fmt.Fprintf(&b, " %s %s", c.Name, c.Args)
			}
		}
		outs = append(outs, output{ci, b.String()})
	}
	// With the default scorer, every text is tokenized once and each
	// suspect's token set built once, however many outputs it is compared
	// with (the same set-cosine as Similarity, without re-hashing long texts
	// per comparison).
	var score func(i int, text string, toks []string) float64
	var ansToks, refToks []string
	outToks := make([][]string, len(outs))
	if opt.Scorer != nil {
		score = func(i int, text string, _ []string) float64 { return opt.Scorer(sus[i].text, text) }
	} else {
		sets := make([]map[string]bool, len(sus))
		lens := make([]int, len(sus))
		for i, s := range sus {
			t := tokenize(s.text)
			lens[i] = len(t)
			sets[i] = make(map[string]bool, len(t))
			for _, w := range t {
				sets[i][w] = true
			}
		}
		ansToks, refToks = tokenize(answer), tokenize(opt.Reference)
		for j, o := range outs {
			outToks[j] = tokenize(o.text)
		}
		score = func(i int, _ string, toks []string) float64 {
			if lens[i] == 0 || len(toks) == 0 {
				return 0
			}
			n := 0
			for _, w := range toks {
				if sets[i][w] {
					n++
				}
			}
			return float64(n) / math.Sqrt(float64(lens[i])*float64(len(toks)))
		}
	}
	res := make([]Ranked, len(sus))
	for i, s := range sus {
		r := Ranked{ID: s.Unit, FA: score(i, answer, ansToks), index: i}
		if opt.Reference != "" {
			r.FA -= score(i, opt.Reference, refToks)
		}
		n, sum, persist := 0, 0.0, 0
		for j, o := range outs {
			if o.commit <= s.placed {
				continue
			}
			sim := score(i, o.text, outToks[j])
			n++
			sum += sim
			if sim > persistThreshold {
				persist++
			}
		}
		r.Depth = 1 / float64(1+n)
		if n == 0 {
			r.Adapted = true
			r.Score = 0.80*r.FA + 0.20*r.Depth
		} else {
			r.AVG = sum / float64(n)
			r.Persist = float64(persist) / float64(n)
			r.Score = 0.40*r.FA + 0.30*r.AVG + 0.20*r.Persist + 0.10*r.Depth
		}
		res[i] = r
	}
	slices.SortStableFunc(res, func(a, b Ranked) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return res
}

// clearMargin is how far the top score must lead the runner-up for the top
// to be a clear winner.
const clearMargin = 0.05

// shortlistBand is how far below the top score a suspect still joins the
// shortlist.
const shortlistBand = 0.10

// Confidence is RankingConfidence's answer. Reason is display text only.
type Confidence struct {
	ClearWinner bool     `json:"clearWinner"`
	Lead        string   `json:"lead"`
	Margin      float64  `json:"margin"`
	Shortlist   []string `json:"shortlist"`
	Reason      string   `json:"reason"`
	Flags       []string `json:"flags"`
}

// flagNaNScore marks a ranking where some scores were not numbers and were
// left out.
const flagNaNScore = "nan-score"

// RankingConfidence says whether the ranking's top is clear, leading the
// runner-up by at least 0.05, and returns the shortlist: every finite score
// within 0.10 of the top score, always the lead, and the runner-up too when
// the top is not clear. One suspect is a clear winner; none gives an empty
// answer. The thresholds are uncalibrated; a caller with its own rule reads
// the scores of the []Ranked it passes.
func RankingConfidence(scores []Ranked) Confidence {
	return rankingConfidence(scores, clearMargin)
}

// rankingConfidence is RankingConfidence with the lead the top needs to be
// clear.
func rankingConfidence(scores []Ranked, margin float64) Confidence {
	c := Confidence{Shortlist: []string{}, Flags: []string{}}
	var fin []Ranked
	for _, s := range scores {
		if math.IsNaN(s.Score) || math.IsInf(s.Score, 0) {
			continue
		}
		fin = append(fin, s)
	}
	if len(fin) < len(scores) {
		c.Flags = append(c.Flags, flagNaNScore)
	}
	slices.SortStableFunc(fin, func(a, b Ranked) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	switch len(fin) {
	case 0:
		c.Reason = "nothing to rank"
		return c
	case 1:
		c.ClearWinner, c.Lead, c.Shortlist = true, fin[0].ID, []string{fin[0].ID}
		c.Reason = "only one suspect"
		return c
	}
	top, second := fin[0], fin[1]
	c.Lead = top.ID
	c.Margin = top.Score - second.Score
	c.ClearWinner = top.Score-second.Score >= margin
	for _, s := range fin {
		if top.Score-s.Score <= shortlistBand {
			c.Shortlist = append(c.Shortlist, s.ID)
		}
	}
	if !c.ClearWinner && !slices.Contains(c.Shortlist, second.ID) {
		c.Shortlist = append(c.Shortlist, second.ID)
	}
	if c.ClearWinner {
		c.Reason = fmt.Sprintf("%s leads %s by %.3f (margin ≥ %.2f); the score is a lexical proxy, uncalibrated", top.ID, second.ID, c.Margin, margin)
	} else {
		c.Reason = fmt.Sprintf("no clear winner: %s leads %s by %.3f (margin ≥ %.2f); the proxy scores cannot separate the shortlist, ablate it", top.ID, second.ID, c.Margin, margin)
	}
	return c
}
