// Lexical similarity: the tokenizer and the set cosine.

package explain

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
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

// tokenize returns the distinct tokens of s used for similarity: lower-cased,
// split on anything that is not a letter or a digit, stop words removed,
// a trailing "s" folded on tokens longer than three runes. Order is first
// appearance.
func tokenize(s string) []string {
	// One pass over s. A word of lower-case ASCII letters and digits, the
	// usual one, is looked up where it stands in s; any other (upper case,
	// or not ASCII) is built lower-cased in buf. A word met before (the
	// usual case in a long text) costs one lookup in words, which holds
	// each word as it was read, before the stop list and the folding, so a
	// long text costs one string per distinct word.
	words := map[string]bool{}
	seen := map[string]bool{}
	var out []string
	// take handles one lower-cased word; w may be a view of buf, so it is
	// copied before it is kept.
	take := func(w string) {
		if words[w] {
			return
		}
		word := strings.Clone(w)
		words[word] = true
		if stopWords[word] {
			return
		}
		t := word
		if t[len(t)-1] == 's' && utf8.RuneCountInString(t) > 3 {
			t = t[:len(t)-1]
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	var buf []byte
	for i := 0; i <= len(s); {
		var c byte = ' ' // past the end: a separator, which ends the last word
		if i < len(s) {
			c = s[i]
		}
		switch {
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			i += n
			if r = unicode.ToLower(r); unicode.IsLetter(r) || unicode.IsDigit(r) {
				buf = utf8.AppendRune(buf, r)
				continue
			}
		case lowerOrDigit(c):
			j := i + 1
			for j < len(s) && lowerOrDigit(s[j]) {
				j++
			}
			if len(buf) == 0 && (j == len(s) || (s[j] < utf8.RuneSelf && !('A' <= s[j] && s[j] <= 'Z'))) {
				take(s[i:j]) // the whole word, as it stands in s
			} else {
				buf = append(buf, s[i:j]...) // part of a word buf is building
			}
			i = j
			continue
		case 'A' <= c && c <= 'Z':
			buf = append(buf, c+'a'-'A')
			i++
			continue
		default:
			i++
		}
		// c ended the word in buf, if any.
		if len(buf) > 0 {
			take(unsafe.String(&buf[0], len(buf)))
			buf = buf[:0]
		}
	}
	return out
}

// lowerOrDigit reports whether c is a lower-case ASCII letter or a digit.
func lowerOrDigit(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

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
