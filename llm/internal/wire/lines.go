// This file holds the bounded line reader both stream readers use.

package wire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLine is the longest line (or SSE data payload) a stream reader
// accepts. A longer one is an error rather than unbounded memory.
const MaxLine = 16 << 20

// ErrLineTooLong reports a line longer than MaxLine.
var ErrLineTooLong = fmt.Errorf("a stream line is longer than %d bytes", MaxLine)

// lineReader reads lines ending in \n, \r\n or a lone \r, keeping the raw
// bytes (terminator included) for the record.
type lineReader struct {
	br      *bufio.Reader
	pendCR  bool // the previous line ended in \r: drop a \n that follows
	cut     bool // the last line returned had no terminator: the input ended inside it
	scratch []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns one line without its terminator, and dst with the raw bytes
// read for it appended. At the end of input it returns a last unterminated
// line, if any, then io.EOF.
func (l *lineReader) next(dst []byte) (line, raw []byte, err error) {
	raw = dst
	l.scratch = l.scratch[:0]
	if l.pendCR {
		l.pendCR = false
		b, err := l.br.ReadByte()
		if err == nil {
			if b == '\n' {
				raw = append(raw, b)
			} else {
				_ = l.br.UnreadByte()
			}
		}
	}
	for {
		if _, err := l.br.Peek(1); err != nil {
			if errors.Is(err, io.EOF) && len(l.scratch) > 0 {
				raw = append(raw, l.scratch...)
				l.cut = true
				return l.scratch, raw, nil
			}
			return nil, raw, err
		}
		buf, _ := l.br.Peek(l.br.Buffered())
		k := bytes.IndexAny(buf, "\r\n")
		if k < 0 {
			if len(l.scratch)+len(buf) > MaxLine {
				return nil, raw, ErrLineTooLong
			}
			l.scratch = append(l.scratch, buf...)
			_, _ = l.br.Discard(len(buf))
			continue
		}
		if len(l.scratch)+k > MaxLine {
			return nil, raw, ErrLineTooLong
		}
		l.scratch = append(l.scratch, buf[:k]...)
		term := buf[k]
		_, _ = l.br.Discard(k + 1)
		raw = append(raw, l.scratch...)
		raw = append(raw, term)
		if term == '\r' {
			l.pendCR = true
		}
		return l.scratch, raw, nil
	}
}
