// This file holds the cap on one model reply: a whole body or a whole stream larger than
// the client's MaxResponseBytes is refused with an error that names the option, instead of
// being read into memory (or, before, silently cut at 64 MiB and then misread).

package wire

import (
	"errors"
	"fmt"
	"io"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// ErrTooLarge reports a reply that went past the cap while it was read.
var ErrTooLarge = errors.New("the reply is larger than the response size limit")

// defaultMaxResponseBytes is the largest model reply (a whole body, or all of a stream's
// bytes) the wire clients read when their Options.MaxResponseBytes is zero: 32 MiB.
const defaultMaxResponseBytes = 32 << 20

// MaxBodyOr returns n, or 32 MiB when n is zero; a negative n means no cap and is returned
// as is.
func MaxBodyOr(n int64) int64 {
	if n == 0 {
		return defaultMaxResponseBytes
	}
	return n
}

// capReader reads at most left bytes from r; the byte past them is ErrTooLarge.
type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left < 0 {
		return c.r.Read(p) // no cap
	}
	if c.left == 0 {
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// capBody is a response body read through a capReader.
type capBody struct {
	capReader
	io.Closer
}

// tooLarge is the refusal of a reply past limit bytes; option names where to raise it.
func tooLarge(p Profile, limit int64, option string, cause error) *llm.Error {
	return &llm.Error{Provider: p.Provider, Kind: llm.KindServer, Cause: cause,
		Message: fmt.Sprintf("the reply from %s is larger than the limit of %s (%s); it was not read past the limit. "+
			"Ask for a shorter reply, or raise the limit", p.BaseURL, sizeText(limit), option)}
}

// sizeText writes a byte count in MiB when it is a whole number of them.
func sizeText(n int64) string {
	if n > 0 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
