// The findings ledger a conversation checkpoint carries, written as
// encoding/json writes it, without its second pass over bytes that are
// already in their final form.

package agent

import (
	"encoding/json"

	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
)

// encodeLedger writes rows exactly as json.Marshal(rows) does for a
// non-empty list. json.Marshal runs every row's MarshalJSON output through a
// compacting, HTML-escaping scan; a row's output is always valid JSON (a
// typed row is json.Marshal's own output, a kept row was validated when it
// was decoded), so when it holds no white space outside its strings and
// nothing that scan escapes, the scan would return it unchanged and is
// skipped. Any other row is encoded by json.Marshal itself.
func encodeLedger(rows []ledger.Row) ([]byte, error) {
	parts := make([][]byte, len(rows))
	size := len(rows) + 1 // the brackets and the commas
	for i, r := range rows {
		b, err := r.MarshalJSON()
		if err != nil {
			return nil, err
		}
		if !compactEscaped(b) {
			if b, err = json.Marshal(r); err != nil {
				return nil, err
			}
		}
		parts[i] = b
		size += len(b)
	}
	out := make([]byte, 0, size)
	out = append(out, '[')
	for i, b := range parts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return append(out, ']'), nil
}

// compactEscaped reports whether valid JSON b is already what
// encoding/json's compacting, HTML-escaping pass would make of it: no white
// space outside strings, and no '<', '>', '&', U+2028 or U+2029 anywhere.
func compactEscaped(b []byte) bool {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !ledgerByteMatters[c] {
			continue
		}
		switch {
		case c == '<' || c == '>' || c == '&':
			return false
		case c == 0xE2:
			if i+2 < len(b) && b[i+1] == 0x80 && b[i+2]&^1 == 0xA8 {
				return false
			}
		case inString:
			if c == '\\' {
				i++ // the escaped byte is ASCII in valid JSON
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		default: // white space outside a string
			return false
		}
	}
	return true
}

// ledgerByteMatters marks the bytes compactEscaped must look at; every
// other byte is the same inside and outside a string.
var ledgerByteMatters = [256]bool{'<': true, '>': true, '&': true, 0xE2: true, '"': true, '\\': true,
	' ': true, '\t': true, '\n': true, '\r': true}
