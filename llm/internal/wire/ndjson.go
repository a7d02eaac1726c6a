// This file holds the one newline-delimited JSON reader (Ollama streams).

package wire

import (
	"bytes"
	"io"
)

// NDJSONReader reads one JSON document per line. Blank lines are skipped;
// \r\n line ends are accepted. It does not parse the JSON: the caller does.
type NDJSONReader struct {
	lr *lineReader
}

// NewNDJSONReader reads lines from r.
func NewNDJSONReader(r io.Reader) *NDJSONReader { return &NDJSONReader{lr: newLineReader(r)} }

// Next returns the next non-blank line (trimmed of surrounding whitespace)
// and the raw bytes consumed for it, or io.EOF at the end. The line is
// valid until the next call.
func (n *NDJSONReader) Next() (line, raw []byte, err error) {
	var all []byte
	for {
		l, r, err := n.lr.next(all)
		all = r
		if err != nil {
			return nil, all, err
		}
		if t := bytes.TrimSpace(l); len(t) > 0 {
			return t, all, nil
		}
	}
}

// Cut reports whether the last line Next returned had no line end: the input ended inside
// it, so a line that does not parse was cut rather than malformed.
func (n *NDJSONReader) Cut() bool { return n.lr.cut }
