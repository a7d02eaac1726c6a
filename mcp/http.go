// This file holds the HTTP side of the client's size cap: a round tripper
// that stops reading a JSON response body past the limit.

package mcp

import (
	"errors"
	"io"
	"net/http"
	"strings"
)

// errTooLarge is what a capped body returns past its limit.
var errTooLarge = errors.New("mcp: the response is larger than the result size limit")

// cappedTransport cuts every JSON response body at limit bytes. Event
// streams are bounded per event by the go-sdk instead (MaxEventSize), since
// a standalone stream lives as long as the session.
type cappedTransport struct {
	base  http.RoundTripper
	limit int64
}

// RoundTrip sends req through base and caps the body of a JSON answer.
func (t cappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = &cappedBody{rc: resp.Body, left: t.limit}
	}
	return resp, nil
}

type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return 0, errTooLarge
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
