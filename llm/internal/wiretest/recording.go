// This file reads the two recording formats into one shape: a list of
// recorded request/response pairs.

package wiretest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Recorded is one recorded exchange.
type Recorded struct {
	Method      string
	URL         *url.URL
	RequestBody []byte
	Status      int
	Header      http.Header
	Body        []byte // decoded (not chunked)
}

// ParseHTTPRR reads an "httprr trace v1" file: a header line, then for
// each exchange "<reqlen> <resplen>\n" followed by the raw HTTP request
// and the raw HTTP response.
func ParseHTTPRR(data []byte) ([]Recorded, error) {
	const magic = "httprr trace v1\n"
	if !bytes.HasPrefix(data, []byte(magic)) {
		return nil, errors.New("httprr: missing the \"httprr trace v1\" header line")
	}
	rest := data[len(magic):]
	var out []Recorded
	for len(rest) > 0 {
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return nil, fmt.Errorf("httprr: exchange %d: no length line", len(out)+1)
		}
		f := strings.Fields(string(rest[:nl]))
		if len(f) != 2 {
			return nil, fmt.Errorf("httprr: exchange %d: length line %q is not two numbers", len(out)+1, rest[:nl])
		}
		rl, err1 := strconv.Atoi(f[0])
		sl, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || rl < 0 || sl < 0 {
			return nil, fmt.Errorf("httprr: exchange %d: bad lengths %q", len(out)+1, rest[:nl])
		}
		rest = rest[nl+1:]
		if rl > len(rest) || sl > len(rest)-rl {
			return nil, fmt.Errorf("httprr: exchange %d: lengths run past the end of the file", len(out)+1)
		}
		reqRaw, respRaw := rest[:rl], rest[rl:rl+sl]
		rest = rest[rl+sl:]
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(reqRaw)))
		if err != nil {
			return nil, fmt.Errorf("httprr: exchange %d: request: %w", len(out)+1, err)
		}
		reqBody, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, fmt.Errorf("httprr: exchange %d: request body: %w", len(out)+1, err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(respRaw)), req)
		if err != nil {
			return nil, fmt.Errorf("httprr: exchange %d: response: %w", len(out)+1, err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("httprr: exchange %d: response body: %w", len(out)+1, err)
		}
		out = append(out, Recorded{Method: req.Method, URL: req.URL, RequestBody: reqBody,
			Status: resp.StatusCode, Header: resp.Header, Body: body})
	}
	return out, nil
}

// ParseCassette reads a go-vcr v1 YAML cassette.
func ParseCassette(data []byte) ([]Recorded, error) {
	doc, err := ParseYAML(string(data))
	if err != nil {
		return nil, fmt.Errorf("cassette: %w", err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("cassette: the document is not a mapping")
	}
	items, ok := root["interactions"].([]any)
	if !ok {
		return nil, errors.New("cassette: no interactions list")
	}
	var out []Recorded
	for i, it := range items {
		m, _ := it.(map[string]any)
		req, _ := m["request"].(map[string]any)
		resp, _ := m["response"].(map[string]any)
		if req == nil || resp == nil {
			return nil, fmt.Errorf("cassette: interactions[%d]: request and response are required", i)
		}
		u, err := url.Parse(str(req["url"]))
		if err != nil {
			return nil, fmt.Errorf("cassette: interactions[%d].request.url: %w", i, err)
		}
		code, err := strconv.Atoi(str(resp["code"]))
		if err != nil {
			return nil, fmt.Errorf("cassette: interactions[%d].response.code: %w", i, err)
		}
		h := http.Header{}
		if hm, ok := resp["headers"].(map[string]any); ok {
			for k, v := range hm {
				vs, _ := v.([]any)
				for _, x := range vs {
					h.Add(k, str(x))
				}
			}
		}
		out = append(out, Recorded{Method: str(req["method"]), URL: u, RequestBody: []byte(str(req["body"])),
			Status: code, Header: h, Body: []byte(str(resp["body"]))})
	}
	return out, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
