package wire

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

type ev struct{ Name, Data string }

func readAllSSE(t *testing.T, in string) ([]ev, []byte) {
	t.Helper()
	r := NewSSEReader(strings.NewReader(in))
	var out []ev
	var raw []byte
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, ev{e.Name, string(e.Data)})
		raw = append(raw, e.Raw...)
	}
	return out, append(raw, r.Rest()...)
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []ev
	}{
		{"openai", "data: {\"a\":1}\n\ndata: [DONE]\n\n", []ev{{"", `{"a":1}`}, {"", "[DONE]"}}},
		{"named", "event: ping\ndata: {}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", []ev{{"ping", "{}"}, {"message_stop", `{"type":"message_stop"}`}}},
		{"crlf", "event: x\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n", []ev{{"x", "1"}, {"", "2"}}},
		{"lone cr", "data: 1\r\rdata: 2\r\r", []ev{{"", "1"}, {"", "2"}}},
		{"comments and ids", ": keep-alive\nid: 7\nretry: 100\ndata: x\n\n: bye\n", []ev{{"", "x"}}},
		{"multi-line data", "data: a\ndata: b\ndata:c\n\n", []ev{{"", "a\nb\nc"}}},
		{"no trailing blank", "data: last", []ev{{"", "last"}}},
		{"event without data dropped", "event: x\n\ndata: y\n\n", []ev{{"", "y"}}},
		{"field without colon", "data\n\n", []ev{{"", ""}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, raw := readAllSSE(t, tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if string(raw) != tt.in {
				t.Errorf("raw bytes %q, want the input %q", raw, tt.in)
			}
		})
	}
}

func TestSSEReaderOneByteAtATime(t *testing.T) {
	in := "event: a\r\ndata: 1\r\n\r\ndata: 2\n\n"
	r := NewSSEReader(iotest.OneByteReader(strings.NewReader(in)))
	var got []string
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		got = append(got, e.Name+"="+string(e.Data))
	}
	if diff := cmp.Diff([]string{"a=1", "=2"}, got); diff != "" {
		t.Error(diff)
	}
}

func TestSSEReaderCutConnection(t *testing.T) {
	cut := errors.New("connection reset")
	r := NewSSEReader(io.MultiReader(strings.NewReader("data: 1\n\ndata: 2"), iotest.ErrReader(cut)))
	if e, err := r.Next(); err != nil || string(e.Data) != "1" {
		t.Fatalf("first = %q, %v", e.Data, err)
	}
	if _, err := r.Next(); !errors.Is(err, cut) {
		t.Errorf("cut connection = %v", err)
	}
}

func TestSSEReaderLineTooLong(t *testing.T) {
	big := "data: " + strings.Repeat("x", MaxLine+1) + "\n\n"
	if _, err := NewSSEReader(strings.NewReader(big)).Next(); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("err = %v", err)
	}
}

func FuzzSSEReader(f *testing.F) {
	for _, s := range []string{"data: x\n\n", "event: a\r\ndata: 1\r\n\r\n", ":c\ndata\ndata: \r\r", "data: [DONE]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewSSEReader(bytes.NewReader(in))
		var raw []byte
		for range len(in) + 2 {
			e, err := r.Next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("unexpected error %v", err)
				}
				raw = append(raw, r.Rest()...)
				if !bytes.Equal(raw, in) {
					t.Fatalf("raw bytes lost: %q vs %q", raw, in)
				}
				return
			}
			raw = append(raw, e.Raw...)
		}
		t.Fatal("reader did not end")
	})
}

func TestNDJSONReader(t *testing.T) {
	in := "{\"a\":1}\n\n  \r\n{\"b\":2}\r\n{\"c\":3}"
	r := NewNDJSONReader(strings.NewReader(in))
	var got []string
	var raw []byte
	for {
		line, rb, err := r.Next()
		raw = append(raw, rb...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	if diff := cmp.Diff([]string{`{"a":1}`, `{"b":2}`, `{"c":3}`}, got); diff != "" {
		t.Error(diff)
	}
	if string(raw) != in {
		t.Errorf("raw = %q", raw)
	}
}

func FuzzNDJSONReader(f *testing.F) {
	for _, s := range []string{"{}\n", "{\"done\":true}\r\n\r\n", "\n\n{", "x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		r := NewNDJSONReader(bytes.NewReader(in))
		var raw []byte
		for range len(in) + 2 {
			line, rb, err := r.Next()
			raw = append(raw, rb...)
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("unexpected error %v", err)
				}
				if !bytes.Equal(raw, in) {
					t.Fatalf("raw bytes lost: %q vs %q", raw, in)
				}
				return
			}
			if len(line) == 0 || len(bytes.TrimSpace(line)) != len(line) {
				t.Fatalf("line %q not trimmed or empty", line)
			}
		}
		t.Fatal("reader did not end")
	})
}
