// This file holds a minimal YAML reader for go-vcr v1 cassettes: block
// mappings and sequences, plain, single- and double-quoted scalars (folded
// over lines), literal block scalars (|, |-, |+) and the empty flow {} / [].

package wiretest

import (
	"fmt"
	"strconv"
	"strings"
)

// yamlLine is one input line with its indentation measured.
type yamlLine struct {
	n      int    // 1-based line number
	indent int    // leading spaces
	text   string // without the leading spaces
	raw    string // the whole line
}

type yamlParser struct {
	lines []yamlLine
	i     int
}

// ParseYAML reads the cassette subset into map[string]any, []any and
// string values (scalars are never converted). Anything outside the subset
// is an error naming the line, never a panic.
func ParseYAML(data string) (any, error) {
	p := &yamlParser{}
	for n, raw := range strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n") {
		if strings.Contains(raw, "\t") && strings.TrimLeft(raw, " ") != "" && strings.HasPrefix(strings.TrimLeft(raw, " "), "\t") {
			return nil, fmt.Errorf("yaml: line %d: tab indentation is not supported", n+1)
		}
		t := strings.TrimLeft(raw, " ")
		p.lines = append(p.lines, yamlLine{n: n + 1, indent: len(raw) - len(t), text: t, raw: raw})
	}
	p.skipBlank()
	if p.i < len(p.lines) && strings.TrimSpace(p.lines[p.i].text) == "---" {
		p.i++
	}
	p.skipBlank()
	if p.i >= len(p.lines) {
		return nil, nil
	}
	v, err := p.block(p.lines[p.i].indent)
	if err != nil {
		return nil, err
	}
	p.skipBlank()
	if p.i < len(p.lines) {
		return nil, fmt.Errorf("yaml: line %d: unexpected content %q", p.lines[p.i].n, p.lines[p.i].text)
	}
	return v, nil
}

func blank(l yamlLine) bool {
	t := strings.TrimSpace(l.text)
	return t == "" || strings.HasPrefix(t, "#")
}

func (p *yamlParser) skipBlank() {
	for p.i < len(p.lines) && blank(p.lines[p.i]) {
		p.i++
	}
}

// block parses the node starting at the current line, whose indent is ind.
func (p *yamlParser) block(ind int) (any, error) {
	p.skipBlank()
	if p.i >= len(p.lines) {
		return nil, nil
	}
	l := p.lines[p.i]
	if l.indent != ind {
		return nil, fmt.Errorf("yaml: line %d: indentation %d where %d was expected", l.n, l.indent, ind)
	}
	if l.text == "-" || strings.HasPrefix(l.text, "- ") {
		return p.sequence(ind)
	}
	return p.mapping(ind)
}

func (p *yamlParser) sequence(ind int) (any, error) {
	out := []any{}
	for {
		p.skipBlank()
		if p.i >= len(p.lines) {
			return out, nil
		}
		l := p.lines[p.i]
		if l.indent != ind || !(l.text == "-" || strings.HasPrefix(l.text, "- ")) {
			if l.indent > ind {
				return nil, fmt.Errorf("yaml: line %d: unexpected indentation inside a sequence", l.n)
			}
			return out, nil
		}
		rest := strings.TrimPrefix(strings.TrimPrefix(l.text, "-"), " ")
		if strings.TrimSpace(rest) == "" {
			p.i++
			p.skipBlank()
			if p.i < len(p.lines) && p.lines[p.i].indent > ind {
				v, err := p.block(p.lines[p.i].indent)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			} else {
				out = append(out, nil)
			}
			continue
		}
		if isMappingLine(rest) {
			// Re-read the item as a mapping indented past the dash.
			off := len(l.text) - len(rest)
			p.lines[p.i] = yamlLine{n: l.n, indent: ind + off, text: rest, raw: l.raw}
			v, err := p.mapping(ind + off)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			continue
		}
		v, err := p.scalar(rest, ind)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// isMappingLine reports whether s starts with "key:" (plain key).
func isMappingLine(s string) bool {
	if s == "" || s[0] == '\'' || s[0] == '"' || s[0] == '{' || s[0] == '[' {
		return false
	}
	i := strings.Index(s, ":")
	return i > 0 && (i == len(s)-1 || s[i+1] == ' ')
}

func (p *yamlParser) mapping(ind int) (any, error) {
	out := map[string]any{}
	for {
		p.skipBlank()
		if p.i >= len(p.lines) {
			return out, nil
		}
		l := p.lines[p.i]
		if l.indent < ind || (l.indent == ind && strings.HasPrefix(l.text, "- ")) {
			return out, nil
		}
		if l.indent > ind {
			return nil, fmt.Errorf("yaml: line %d: unexpected indentation inside a mapping", l.n)
		}
		if !isMappingLine(l.text) {
			return nil, fmt.Errorf("yaml: line %d: want \"key: value\", got %q", l.n, l.text)
		}
		c := strings.Index(l.text, ":")
		key := l.text[:c]
		rest := strings.TrimSpace(l.text[c+1:])
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("yaml: line %d: key %q repeated", l.n, key)
		}
		if rest == "" || strings.HasPrefix(rest, "#") {
			p.i++
			p.skipBlank()
			switch {
			case p.i < len(p.lines) && p.lines[p.i].indent > ind:
				v, err := p.block(p.lines[p.i].indent)
				if err != nil {
					return nil, err
				}
				out[key] = v
			case p.i < len(p.lines) && p.lines[p.i].indent == ind && strings.HasPrefix(p.lines[p.i].text, "- "):
				v, err := p.sequence(ind)
				if err != nil {
					return nil, err
				}
				out[key] = v
			default:
				out[key] = nil
			}
			continue
		}
		v, err := p.scalar(rest, ind)
		if err != nil {
			return nil, err
		}
		out[key] = v
	}
}

// scalar parses a value that starts on the current line after "key: " or
// "- ", consuming continuation lines; ind is the owning node's indent.
func (p *yamlParser) scalar(s string, ind int) (any, error) {
	l := p.lines[p.i]
	switch {
	case s == "{}":
		p.i++
		return map[string]any{}, nil
	case s == "[]":
		p.i++
		return []any{}, nil
	case s[0] == '|':
		return p.literal(s, ind)
	case s[0] == '>':
		return nil, fmt.Errorf("yaml: line %d: folded block scalars (>) are not supported", l.n)
	case s[0] == '\'' || s[0] == '"':
		return p.quoted(s)
	case s[0] == '{' || s[0] == '[' || s[0] == '&' || s[0] == '*' || s[0] == '!':
		return nil, fmt.Errorf("yaml: line %d: flow collections, anchors and tags are not supported", l.n)
	}
	p.i++
	if j := strings.Index(s, " #"); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s), nil
}

// literal reads a | block scalar with clip (default), strip (-) or keep (+)
// chomping. Content lines are the following lines indented past ind.
func (p *yamlParser) literal(header string, ind int) (any, error) {
	l := p.lines[p.i]
	chomp := byte(0)
	explicit := 0
	for _, c := range header[1:] {
		switch {
		case c == '+' || c == '-':
			chomp = byte(c)
		case c >= '1' && c <= '9':
			explicit = int(c - '0')
		case c == ' ':
		default:
			return nil, fmt.Errorf("yaml: line %d: block scalar header %q not understood", l.n, header)
		}
	}
	p.i++
	contentInd := -1
	if explicit > 0 {
		contentInd = ind + explicit
	}
	var lines []string
	for p.i < len(p.lines) {
		cur := p.lines[p.i]
		if strings.TrimSpace(cur.raw) == "" {
			lines = append(lines, "")
			p.i++
			continue
		}
		if contentInd < 0 {
			if cur.indent <= ind {
				break
			}
			contentInd = cur.indent
		}
		if cur.indent < contentInd {
			if cur.indent > ind {
				return nil, fmt.Errorf("yaml: line %d: block scalar line is less indented than its first line", cur.n)
			}
			break
		}
		lines = append(lines, cur.raw[contentInd:])
		p.i++
	}
	// Trailing blank lines belong to the scalar only under keep chomping.
	end := len(lines)
	for end > 0 && lines[end-1] == "" {
		end--
	}
	body := strings.Join(lines[:end], "\n")
	trailing := len(lines) - end
	switch chomp {
	case '-':
	case '+':
		if end > 0 {
			body += "\n"
		}
		body += strings.Repeat("\n", trailing)
	default:
		if end > 0 {
			body += "\n"
		}
	}
	// Hand back the trailing blank lines so the caller's skipping stays simple.
	p.i -= trailing
	return body, nil
}

// quoted reads a single- or double-quoted scalar that may span lines.
// Line breaks fold to one space; an empty line becomes a newline.
func (p *yamlParser) quoted(s string) (any, error) {
	start := p.lines[p.i]
	q := s[0]
	var b strings.Builder
	text := s[1:]
	first := true
	for {
		if !first {
			text = strings.TrimLeft(text, " \t")
		}
		closed, rest, joined, err := scanQuoted(text, q, &b)
		if err != nil {
			return nil, fmt.Errorf("yaml: line %d: %w", p.lines[p.i].n, err)
		}
		if closed {
			if r := strings.TrimSpace(rest); r != "" && !strings.HasPrefix(r, "#") {
				return nil, fmt.Errorf("yaml: line %d: content after a closing quote: %q", p.lines[p.i].n, r)
			}
			p.i++
			return b.String(), nil
		}
		// Fold into the next line.
		p.i++
		if p.i >= len(p.lines) {
			return nil, fmt.Errorf("yaml: line %d: quoted scalar never closes", start.n)
		}
		escapedBreak := joined
		if !escapedBreak {
			str := strings.TrimRight(b.String(), " \t")
			b.Reset()
			b.WriteString(str)
		}
		empties := 0
		for p.i < len(p.lines) && strings.TrimSpace(p.lines[p.i].raw) == "" {
			empties++
			p.i++
		}
		if p.i >= len(p.lines) {
			return nil, fmt.Errorf("yaml: line %d: quoted scalar never closes", start.n)
		}
		switch {
		case empties > 0:
			b.WriteString(strings.Repeat("\n", empties))
		case !escapedBreak:
			b.WriteByte(' ')
		}
		text = p.lines[p.i].raw
		first = false
	}
}

// scanQuoted copies text up to the closing quote into b, decoding escapes.
// It reports whether the quote closed and what followed it, and whether a
// double-quoted line ended in a backslash (the break then adds no space).
func scanQuoted(text string, q byte, b *strings.Builder) (closed bool, rest string, joined bool, err error) {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if q == '\'' {
			if c == '\'' {
				if i+1 < len(text) && text[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				return true, text[i+1:], false, nil
			}
			b.WriteByte(c)
			continue
		}
		switch c {
		case '"':
			return true, text[i+1:], false, nil
		case '\\':
			if i+1 >= len(text) {
				return false, "", true, nil
			}
			i++
			switch e := text[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case '"', '\\', '/', ' ':
				b.WriteByte(e)
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if i+1+n > len(text) {
					return false, "", false, fmt.Errorf("short \\%c escape", e)
				}
				v, err := strconv.ParseUint(text[i+1:i+1+n], 16, 32)
				if err != nil {
					return false, "", false, fmt.Errorf("bad \\%c escape %q", e, text[i+1:i+1+n])
				}
				b.WriteRune(rune(v))
				i += n
			default:
				return false, "", false, fmt.Errorf("unknown escape \\%c", e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return false, "", false, nil
}
