// This file holds the text rendering of a backtrack chain: what `agentfootprint explain`
// prints, callable from Go as Chain.WriteText or Chain.String.

package explain

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteText writes the chain for a person, one hop a line: the ANSWER (the model call whose
// reply it is), each key the call READ with its last writer, then every suspect best first
// under its suspect name (the name ablation takes) with its score, where it LANDED in the
// request, why it was ALLOWED in and where it was BORN, and last the chain's flags. It
// returns the first write error.
func (c *Chain) WriteText(w io.Writer) error {
	// Written through a buffer, not built as one string first: a long run's chain is tens
	// of kilobytes, and w may be a file or a terminal that takes each write as a call.
	bw := bufio.NewWriterSize(w, 8<<10)
	c.writeText(bw)
	return bw.Flush() // the first write error, which the buffer keeps
}

// String is the chain as WriteText writes it. It makes %v and %+v print the chain's text
// rather than its pointers.
func (c Chain) String() string {
	var b strings.Builder
	c.writeText(&b)
	return b.String()
}

// textWriter is what the text rendering writes to: a *bufio.Writer or a *strings.Builder.
type textWriter interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

// writeText writes the chain as WriteText documents it.
func (c *Chain) writeText(b textWriter) {
	fmt.Fprintf(b, "ANSWER   %s (commit %d", c.Answer.Step, c.Answer.Commit)
	if c.Answer.Via != "" {
		fmt.Fprintf(b, ", made final by %s", c.Answer.Via)
	}
	fmt.Fprintf(b, "): %q\n", clipRunes(c.Answer.Text, 120))
	for _, r := range c.Read {
		fmt.Fprintf(b, "READ     %s ← %s (commit %d)\n", r.Key, r.Writer, r.Commit)
	}
	for i := range c.Suspects {
		fmt.Fprintf(b, "\n#%d ", i+1)
		c.Suspects[i].writeText(b)
	}
	if len(c.Flags) > 0 {
		fmt.Fprintf(b, "\nflags: %s\n", strings.Join(c.Flags, ", "))
	}
}

// String is the suspect as a chain prints it: its name (and its id in the request when that
// differs), its score, and its LANDED, ALLOWED and BORN hops, one a line.
func (s Suspect) String() string {
	var b strings.Builder
	s.writeText(&b)
	return b.String()
}

// writeText writes the suspect as String returns it.
func (s *Suspect) writeText(b textWriter) {
	name := s.Name
	if name == "" {
		name = s.Unit
	}
	b.WriteString(name)
	if s.Unit != "" && !strings.HasSuffix(name, ":"+s.Unit) {
		fmt.Fprintf(b, " (%s)", s.Unit)
	}
	fmt.Fprintf(b, "  score %.3f\n", s.Score)
	l := s.Landed
	fmt.Fprintf(b, "  LANDED   %s %s%s, %s slot position %d", l.Step, l.Key, l.Pointer, l.Slot, l.Position)
	if l.Span != nil {
		fmt.Fprintf(b, ", %s", l.Span)
	}
	b.WriteByte('\n')
	switch a := s.Allowed; {
	case a.Trigger != nil:
		fmt.Fprintf(b, "  ALLOWED  %s trigger %s", a.Step, a.Trigger.Kind)
		if a.Trigger.Label != "" {
			fmt.Fprintf(b, " %q", a.Trigger.Label)
		}
		for _, r := range a.Trigger.Reads {
			fmt.Fprintf(b, " (read %s ← %s)", r.Key, r.Writer)
		}
		b.WriteByte('\n')
	case a.ToolCall != nil:
		fmt.Fprintf(b, "  ALLOWED  %s asked for %s\n", a.Step, a.ToolCall)
	}
	fmt.Fprintf(b, "  BORN     %s %s %s", s.Born.Step, s.Born.Kind, shortHash(s.Born.ContentHash))
	if d := s.Born.DefinedAt; d != nil {
		fmt.Fprintf(b, " defined at %s (%s)", d.Place(), d.Function)
	}
	b.WriteByte('\n')
}

// String is the span as a chain prints it: "bytes [start, end) of request <hash>".
func (r SpanRef) String() string {
	return fmt.Sprintf("bytes [%d, %d) of request %s", r.Start, r.End, shortHash(r.RequestSha256))
}

// String is the tool call as a chain prints it: "name (id), status s, error".
func (t ToolCallRef) String() string {
	s := fmt.Sprintf("%s (%s)", t.Name, t.ID)
	if t.Status != "" {
		s += ", status " + t.Status
	}
	if t.Error {
		s += ", error"
	}
	return s
}

// clipRunes cuts s to n runes, marking the cut with an ellipsis.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// shortHash abbreviates a "sha256:" digest to its first 12 hex digits.
func shortHash(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
