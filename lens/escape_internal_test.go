// The element-content escaper: nothing it returns can open a tag or an
// entity the text did not spell, and unescaping gives the text back.

package lens

import (
	"html"
	"strings"
	"testing"
)

func FuzzTextHTML(f *testing.F) {
	for _, s := range []string{"", "plain", `</pre><script>x</script>`, "a&amp;b", "\"quoted\" 'single'", "\u2028<>&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := string(textHTML(s))
		if strings.ContainsAny(out, "<>") {
			t.Fatalf("textHTML(%q) = %q holds < or >", s, out)
		}
		if got := html.UnescapeString(out); got != s && strings.ToValidUTF8(s, "\uFFFD") == s {
			t.Fatalf("unescape(textHTML(%q)) = %q", s, got)
		}
	})
}
