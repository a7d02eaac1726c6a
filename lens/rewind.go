// The rewind: the exact request bytes the answering call sent, with every
// unit's byte span marked and the top suspects' spans highlighted.
//
// To keep a long run's page small, a span that is neither a top suspect's nor
// short is replaced by a link to where its text is shown in full (the story
// or the context units), and a stretch of more than 6 KiB between two of the
// ten first suspects' spans keeps only its first and last KiB. The request's SHA-256 and size are shown so the exact bytes
// can be checked against the record.

package lens

import (
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"html"
	"html/template"
	"strings"
	"unicode/utf8"
)

// elideBytes is the span length above which a span that is not a top
// suspect's is elided; elideHead is how many of its bytes are kept.
const (
	elideBytes = 240
	elideHead  = 48
)

// A stretch of the request longer than stretchBytes between two suspects'
// spans keeps only stretchEnd bytes at each end.
const (
	stretchBytes = 6 << 10
	stretchEnd   = 1 << 10
)

// rewindView is the rewind block.
type rewindView struct {
	Step, Sha, Stored string
	Bytes             int
	Body              template.HTML
	Note              string
	Elided            int
}

// rewindOf builds the rewind of the chain's answering request.
func rewindOf(rec *record.Record, ch *explain.Chain, sus []suspectView, storyAnchors, unitAnchors map[string]string) *rewindView {
	req, ok := requestOf(rec, ch.Answer.Commit)
	if !ok {
		return &rewindView{Step: ch.Answer.Step, Note: "The record holds no request for this call."}
	}
	rv := &rewindView{Step: ch.Answer.Step, Sha: req.Request.Sha256, Bytes: req.Request.Bytes, Stored: req.Request.Stored}
	body, ok := []byte(nil), false
	if req.Request.Blob != "" {
		body, ok = rec.Blob(req.Request.Blob)
	}
	if !ok {
		rv.Note = fmt.Sprintf("The request was kept as its hash only (capture %q): the bytes are not in the record.", req.Request.Stored)
		return rv
	}
	rank := map[string]suspectView{}
	for _, s := range sus {
		rank[s.Unit] = s
	}
	var valid []llm.Span
	pos := 0
	for _, sp := range spansOf(req) {
		if sp.Start >= pos && sp.End <= len(body) && sp.Start <= sp.End {
			valid = append(valid, sp)
			pos = sp.End
		}
	}
	var b strings.Builder
	// region prints body[from:to], which holds no kept span, with its spans
	// marked; a long region keeps only its two ends.
	region := func(from, to int, spans []llm.Span) {
		if to-from > stretchBytes {
			head, tail := runeCut(body, from+stretchEnd), runeCut(body, to-stretchEnd)
			b.WriteString(textEscape(body[from:head]))
			n := 0
			for _, sp := range spans {
				if sp.End > head && sp.Start < tail {
					n++
				}
			}
			fmt.Fprintf(&b, `<span class="elided">[… %d bytes holding %d more spans, each shown in full in the story or the context units]</span>`, tail-head, n)
			b.WriteString(textEscape(body[tail:to]))
			rv.Elided += n
			return
		}
		at := from
		for _, sp := range spans {
			b.WriteString(textEscape(body[at:sp.Start]))
			if sp.End-sp.Start <= elideBytes {
				fmt.Fprintf(&b, `<mark class="span" title="%s">%s</mark>`, html.EscapeString(sp.Unit), textEscape(body[sp.Start:sp.End]))
			} else {
				b.WriteString(elision(sp.Unit, sp.End-sp.Start, storyAnchors, unitAnchors))
				rv.Elided++
			}
			at = sp.End
		}
		b.WriteString(textEscape(body[at:to]))
	}
	from, pending := 0, []llm.Span(nil)
	for _, sp := range valid {
		s, isSuspect := rank[sp.Unit]
		if !isSuspect || s.Rank > cardSuspects {
			pending = append(pending, sp)
			continue
		}
		region(from, sp.Start, pending)
		pending = nil
		top := s.Rank <= openSuspects
		class := "span"
		if top {
			class = "span sus"
		}
		fmt.Fprintf(&b, `<mark class="%s" id="span-%s" data-tag="#%d %s" title="%s">`, class, html.EscapeString(anchorID(sp.Unit)), s.Rank,
			html.EscapeString(sp.Unit), html.EscapeString(fmt.Sprintf("%s · %s · bytes [%d, %d)", sp.Unit, sp.Kind, sp.Start, sp.End)))
		if top || sp.End-sp.Start <= elideBytes {
			b.WriteString(textEscape(body[sp.Start:sp.End]))
			b.WriteString(`</mark>`)
		} else {
			cut := runeCut(body, sp.Start+elideHead)
			b.WriteString(textEscape(body[sp.Start:cut]))
			b.WriteString(`</mark>`)
			b.WriteString(elision(sp.Unit, sp.End-cut, storyAnchors, unitAnchors))
			rv.Elided++
		}
		from = sp.End
	}
	region(from, len(body), pending)
	rv.Body = template.HTML(b.String())
	return rv
}

// elision is the link that stands for n bytes of unit's span.
func elision(unit string, n int, storyAnchors, unitAnchors map[string]string) string {
	link := storyAnchors[unit]
	if link == "" {
		link = unitAnchors[unit]
	}
	note := html.EscapeString(fmt.Sprintf("[… %d bytes of %s]", n, unit))
	if link == "" {
		return `<span class="elided">` + note + `</span>`
	}
	return `<a class="elided" href="#` + html.EscapeString(link) + `">` + note + `</a>`
}

// runeCut moves i back to the start of the rune it falls in.
func runeCut(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	for i > 0 && !utf8.RuneStart(b[i]) {
		i--
	}
	return i
}

// textEscaper escapes what element content needs (&, <, >), leaving quotes
// as they are: quoted JSON is most of a record's text, and &#34; would make
// it five times larger. The result is only ever placed in element content,
// never in an attribute.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// textEscape escapes b for element content.
func textEscape(b []byte) string { return textEscaper.Replace(string(b)) }

// textHTML escapes s for element content; see textEscaper.
func textHTML(s string) template.HTML { return template.HTML(textEscaper.Replace(s)) }
