// Tokens against the plain form of its rule (lower-case, split, drop stop
// words, fold a trailing s), on fixed texts and fuzzed ones.

package explain

import (
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// plainTokens is the rule of Tokens written the direct way.
func plainTokens(s string) []string {
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

var tokenTexts = []string{
	"", "the", "Orders ORDERS orders, the VIP's tiers", "Straße İstanbul ÉTATS-UNIS naïves",
	"page 12: checkout error rate 12%, upstream resets\n", "bus gas yes 1s 22s abcs", "\xff\xfeinvalid\xffbytes",
	"ΣΊΣΥΦΟΣ σς", "日本語のテキスト、数字１２３",
}

func TestTokensFollowTheRule(t *testing.T) {
	for _, s := range tokenTexts {
		if diff := cmp.Diff(plainTokens(s), tokenize(s), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("tokenize(%q) (-rule +got):\n%s", s, diff)
		}
	}
}

func FuzzTokens(f *testing.F) {
	for _, s := range tokenTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if diff := cmp.Diff(plainTokens(s), tokenize(s), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("tokenize(%q) (-rule +got):\n%s", s, diff)
		}
	})
}

// stopListsByVersion holds every stop list a version name has stood for,
// sorted. A new word or a dropped one moves every score, so it takes a new
// version and a new row here; a row is never edited.
var stopListsByVersion = map[string]string{
	"en-1": "a an and are as at be been but by can do does for from had has have he her his i if in into is it its me my no not of on or our she so than that the their them then there these they this to was we were what when which who will with you your",
}

func TestStopListMatchesItsVersion(t *testing.T) {
	want, ok := stopListsByVersion[stopListVersion]
	if !ok {
		t.Fatalf("stop list version %q has no row in stopListsByVersion: add the list it stands for", stopListVersion)
	}
	var got []string
	for w := range stopWords {
		got = append(got, w)
	}
	if diff := cmp.Diff(strings.Fields(want), got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("the stop list changed under version %q (-recorded +now); give it a new version:\n%s", stopListVersion, diff)
	}
}
