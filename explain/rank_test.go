// Unit tests of the tokenizer, similarity, ranking confidence and the
// "content before plumbing" property.

package explain_test

import (
	"math"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/google/go-cmp/cmp"
)

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"The refunds ARE approved!", []string{"refund", "approved"}},
		{"A-17, a-17 and gas", []string{"17", "gas"}},
		{"Café résumés — naïve", []string{"café", "résumé", "naïve"}},
		{"is was the of", nil},
	} {
		if got := explain.Tokenize(tc.in); !cmp.Equal(got, tc.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSimilarity(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"", "anything", 0},
		{"refund approved", "refund approved", 1},
		{"refund approved", "refund declined", 0.5},
		{"alpha beta gamma delta", "alpha", 0.5},
	} {
		if got := explain.Similarity(tc.a, tc.b); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("Similarity(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestRankingConfidence(t *testing.T) {
	r := func(id string, s float64) explain.Ranked { return explain.Ranked{ID: id, Score: s} }
	for _, tc := range []struct {
		name      string
		in        []explain.Ranked
		margin    float64 // 0: RankingConfidence's own
		clear     bool
		lead      string
		shortlist []string
		flags     []string
	}{
		{"empty", nil, 0, false, "", []string{}, []string{}},
		{"one suspect", []explain.Ranked{r("a", 0.2)}, 0, true, "a", []string{"a"}, []string{}},
		{"clear margin", []explain.Ranked{r("a", 0.9), r("b", 0.5)}, 0, true, "a", []string{"a"}, []string{}},
		{"flat top", []explain.Ranked{r("a", 0.50), r("b", 0.49), r("c", 0.1)}, 0, false, "a", []string{"a", "b"}, []string{}},
		{"runner-up outside band still listed", []explain.Ranked{r("a", 0.50), r("b", 0.30)}, 0.5, false, "a", []string{"a", "b"}, []string{}},
		{"band includes near ones", []explain.Ranked{r("a", 0.9), r("b", 0.82), r("c", 0.81)}, 0, true, "a", []string{"a", "b", "c"}, []string{}},
		{"lead below the margin", []explain.Ranked{r("a", 1.0), r("b", 0.97)}, 0, false, "a", []string{"a", "b"}, []string{}},
		{"unsorted input", []explain.Ranked{r("b", 0.1), r("a", 0.9)}, 0, true, "a", []string{"a"}, []string{}},
		{"NaN excluded", []explain.Ranked{r("x", math.NaN()), r("a", 0.9), r("b", 0.1)}, 0, true, "a", []string{"a"}, []string{"nan-score"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := explain.RankingConfidence(tc.in)
			if tc.margin != 0 {
				c = explain.RankingConfidenceAt(tc.in, tc.margin)
			}
			if c.ClearWinner != tc.clear || c.Lead != tc.lead || !cmp.Equal(c.Shortlist, tc.shortlist) || !cmp.Equal(c.Flags, tc.flags) {
				t.Errorf("got %+v", c)
			}
		})
	}
}

// TestRankContentBeforePlumbing: only content-bearing suspects are ranked,
// and the planted fact comes first.
func TestRankContentBeforePlumbing(t *testing.T) {
	r := newRefunds(t)
	rec := r.run(t, refundsModel(false))
	ranked, err := explain.Rank(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ranked) != 3 || ranked[0].ID != "vip-override" {
		t.Fatalf("ranked = %+v, want vip-override first of three", ranked)
	}
	for _, x := range ranked {
		for _, plumbing := range []string{"seed", "context", "call-llm", "sf-route", "tool-calls", "prepare-final"} {
			if strings.HasPrefix(x.ID, plumbing) {
				t.Errorf("plumbing stage %s ranked", x.ID)
			}
		}
		if x.Score < 0 || x.Score > 1 || math.IsNaN(x.Score) {
			t.Errorf("%s: score %v out of [0,1]", x.ID, x.Score)
		}
	}
	if ranked[0].Score <= ranked[1].Score {
		t.Errorf("the culprit does not lead: %+v", ranked)
	}
	// A model call as target ranks what that call was sent.
	first, err := explain.Rank(rec, explain.Target{Step: "call-llm#2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2 {
		t.Errorf("first call ranked %+v, want the two units only", first)
	}
	if _, err := explain.Rank(rec, explain.Target{Step: "context#1"}); err == nil {
		t.Error("a plumbing step was accepted as a target")
	}
}

func TestRankWithContrastiveAndScorer(t *testing.T) {
	r := newRefunds(t)
	rec := r.run(t, refundsModel(false))
	// Contrastive: what resembles the wrong answer more than the right one.
	con, err := explain.RankWith(rec, explain.Target{}, explain.RankOptions{Reference: "DECLINED: order A-17 is past the 30-day refund window for this customer."})
	if err != nil {
		t.Fatal(err)
	}
	if con[0].ID != "vip-override" {
		t.Errorf("contrastive ranking %+v, want vip-override first", con)
	}
	plain, _ := explain.Rank(rec, explain.Target{})
	// The fact shares "refund", "customer" and "window" with the reference,
	// so its contrastive FA is its plain FA minus that similarity.
	want := plain[0].FA - explain.Similarity(vipText, "DECLINED: order A-17 is past the 30-day refund window for this customer.")
	if plain[0].ID != "vip-override" || math.Abs(con[0].FA-want) > 1e-12 || con[0].FA >= plain[0].FA {
		t.Errorf("contrastive FA %v, plain %v, want %v", con[0].FA, plain[0].FA, want)
	}
	// A scorer that sees only whether both texts mention "VIP".
	vip := func(s string) []float64 {
		if strings.Contains(s, "VIP") {
			return []float64{1, 0}
		}
		return []float64{0, 1}
	}
	emb, err := explain.RankWith(rec, explain.Target{}, explain.RankOptions{Scorer: explain.EmbeddingScorer(vip)})
	if err != nil {
		t.Fatal(err)
	}
	if emb[len(emb)-1].ID != "style" || emb[0].FA != 1 {
		t.Errorf("embedding ranking %+v, want style last and FA 1 on top", emb)
	}
	if got := explain.EmbeddingScorer(func(string) []float64 { return nil })("a", "b"); got != 0 {
		t.Errorf("empty vectors scored %v", got)
	}
}
