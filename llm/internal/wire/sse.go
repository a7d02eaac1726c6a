// This file holds the one Server-Sent Events reader the clients share.

package wire

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// SSEEvent is one dispatched server-sent event. Name is the event: field
// (empty when none came); Data is the data: lines joined with \n; Raw is
// every byte consumed since the previous event, as received (comments and
// blank lines included), for the record.
type SSEEvent struct {
	Name string
	Data []byte
	Raw  []byte
	// Cut is set on a last event the body ended inside: its last line had no line end, so
	// the connection closed in the middle of the event.
	Cut bool
}

// ErrStreamCut reports a stream whose body ended in the middle of an event, so the event
// could not be read; TransportError names it.
var ErrStreamCut = errors.New("the stream ended in the middle of an event")

// SSEReader reads server-sent events. It accepts \n, \r\n and \r line
// ends, comment lines, event:/id:/retry: fields, multi-line data and a last
// event not followed by a blank line. It never panics; a line longer than
// MaxLine is an error.
type SSEReader struct {
	lr   *lineReader
	raw  []byte
	done bool
}

// NewSSEReader reads events from r.
func NewSSEReader(r io.Reader) *SSEReader { return &SSEReader{lr: newLineReader(r)} }

// Next returns the next event that carries data, or io.EOF at the end.
// Events with no data: line are skipped (their bytes go into the next Raw).
// Any other error is the underlying reader's (a cut connection) or
// ErrLineTooLong.
func (s *SSEReader) Next() (SSEEvent, error) {
	if s.done {
		return SSEEvent{}, io.EOF
	}
	var (
		name    string
		data    []byte
		hasData bool
	)
	for {
		line, raw, err := s.lr.next(s.raw)
		s.raw = raw
		if err != nil {
			if errors.Is(err, io.EOF) {
				s.done = true
				if hasData {
					ev := s.emit(name, data)
					ev.Cut = s.lr.cut
					return ev, nil
				}
				return SSEEvent{}, io.EOF
			}
			return SSEEvent{}, err
		}
		if len(line) == 0 {
			if hasData {
				return s.emit(name, data), nil
			}
			name = ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			if len(data)+len(value) > MaxLine {
				return SSEEvent{}, ErrLineTooLong
			}
			data = append(data, value...)
			hasData = true
		case "event":
			name = string(value)
		}
	}
}

func (s *SSEReader) emit(name string, data []byte) SSEEvent {
	ev := SSEEvent{Name: name, Data: data, Raw: s.raw}
	s.raw = nil
	return ev
}

// Rest returns bytes consumed after the last event (trailing comments or
// blank lines), for the record.
func (s *SSEReader) Rest() []byte { return s.raw }

// DriveSSE reads events from body until finished reports true or the body
// ends, appending each event's bytes (and, at a normal end, any trailing
// bytes) to ex.Frames. feed turns an event into the text it adds; onText
// receives each non-empty text and returns false to stop, which makes
// DriveSSE return stopped. Errors from feed and from the reader are
// returned as they are.
func DriveSSE(body io.Reader, ex *llm.Exchange, feed func(ev SSEEvent) (string, error), finished func() bool, onText func(string) bool) (stopped bool, err error) {
	r := NewSSEReader(body)
	for !finished() {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return false, err
		}
		ex.Frames = append(ex.Frames, ev.Raw)
		text, err := feed(ev)
		if err != nil {
			if ev.Cut {
				// The event is unreadable because the body stopped inside it: say so,
				// rather than blame the server for sending something else.
				// The feed's own error (an *llm.Error blaming the URL) is dropped on purpose.
				return false, fmt.Errorf("%w (%d bytes of it arrived)", ErrStreamCut, len(ev.Raw))
			}
			return false, err
		}
		if text != "" && !onText(text) {
			return true, nil
		}
	}
	if rest := r.Rest(); len(rest) > 0 {
		ex.Frames = append(ex.Frames, rest)
	}
	return false, nil
}
