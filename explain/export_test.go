// This file lends the external tests a look inside a World: how many tool outputs its
// frozen table holds. It is compiled only into the package's tests.

package explain

// RecordedOutputs is the number of recorded tool executions w replays.
func RecordedOutputs(w *World) int { return w.tools.Len() }

// Tokenize is the lexical scorer's tokenizer.
func Tokenize(s string) []string { return tokenize(s) }

// RankingConfidenceAt is RankingConfidence with the lead the top needs to be clear.
func RankingConfidenceAt(scores []Ranked, margin float64) Confidence {
	return rankingConfidence(scores, margin)
}
