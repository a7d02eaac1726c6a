// Lexical similarity: the tokenizer and set-cosine of explain.md §9.2.

package explain

import (
	"math"
	"strings"
	"unicode"
)

// StopListVersion names the stop list below; changing a word changes every
// score, so it needs a new version.
const StopListVersion = "en-1"

// stopWords are English function words dropped before comparing texts.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be been but by can
		do does for from had has have he her his i if in into is it its
		me my no not of on or our she so than that the their them then there
		these they this to was we were what when which who will with you your`) {
		stopWords[w] = true
	}
}

// Tokens returns the distinct tokens of s used for similarity: lower-cased,
// split on anything that is not a letter or a digit, stop words removed,
// a trailing "s" folded on tokens longer than three runes. Order is first
// appearance.
func Tokens(s string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range strings.FieldsFunc(strings.Map(unicode.ToLower, s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if stopWords[f] {
			continue
		}
		if r := []rune(f); len(r) > 3 && r[len(r)-1] == 's' {
			f = string(r[:len(r)-1])
		}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// Similarity is the set-cosine of the token sets of a and b:
// |A ∩ B| / √(|A|·|B|), and 0 when either set is empty.
func Similarity(a, b string) float64 {
	return setCosine(Tokens(a), Tokens(b))
}

func setCosine(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	in := make(map[string]bool, len(a))
	for _, t := range a {
		in[t] = true
	}
	n := 0
	for _, t := range b {
		if in[t] {
			n++
		}
	}
	return float64(n) / math.Sqrt(float64(len(a))*float64(len(b)))
}
