// Lexical similarity: the tokenizer and the set cosine.

package explain

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// stopListVersion names the stop list below; changing a word changes every
// score, so it needs a new version.
const stopListVersion = "en-1"

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
func tokenize(s string) []string {
	// One pass over s: each run of letters and digits (after lower-casing)
	// is built in buf, then checked against the stop list and the tokens
	// already seen without making a string, so a long text costs one string
	// per distinct token. A word met before (the usual case in a long
	// text) costs one lookup in words, which holds each word as it was
	// read, before the stop list and the folding.
	words := map[string]bool{}
	seen := map[string]bool{}
	var out []string
	var buf []byte
	flush := func() {
		if len(buf) == 0 {
			return
		}
		f := buf
		buf = buf[:0]
		if words[string(f)] {
			return
		}
		word := string(f)
		words[word] = true
		if stopWords[word] {
			return
		}
		if f[len(f)-1] == 's' && utf8.RuneCount(f) > 3 {
			f = f[:len(f)-1]
		}
		if !seen[string(f)] {
			t := word
			if len(f) < len(word) {
				t = word[:len(f)]
			}
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, r := range s {
		if r < utf8.RuneSelf {
			// ASCII, the usual text, without the Unicode tables.
			switch {
			case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
				buf = append(buf, byte(r))
			case 'A' <= r && r <= 'Z':
				buf = append(buf, byte(r)+'a'-'A')
			default:
				flush()
			}
			continue
		}
		r = unicode.ToLower(r)
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			buf = utf8.AppendRune(buf, r)
			continue
		}
		flush()
	}
	flush()
	return out
}

// Similarity is the set-cosine of the token sets of a and b:
// |A ∩ B| / √(|A|·|B|), and 0 when either set is empty.
func Similarity(a, b string) float64 {
	return setCosine(tokenize(a), tokenize(b))
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
