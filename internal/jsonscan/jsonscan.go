// Package jsonscan holds the lexical pieces of JSON that the repository's hand-written readers
// share: skipping whitespace, the number grammar, the one-letter escapes, the four hex digits of
// a \u escape, the joining of a UTF-16 surrogate pair, and finding where a string's plain
// bytes stop. Each reader keeps its own policy on top
// (what values it builds, whether it trusts or checks the syntax, what it does with invalid
// UTF-8 and lone surrogates, how deep it lets documents nest, and the shape of its errors).
package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// SkipSpace returns the offset of the first byte at or after pos that is not JSON whitespace
// (space, tab, line feed, carriage return), or len(data).
func SkipSpace(data []byte, pos int) int {
	for pos < len(data) {
		switch data[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
		default:
			return pos
		}
	}
	return pos
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Number scans the RFC 8259 number that starts at data[pos] and returns the offset just after
// it. When the bytes break the grammar, problem says what was missing and end is the offset of
// the byte where a digit was needed; problem is empty otherwise.
func Number(data []byte, pos int) (end int, problem string) {
	if pos < len(data) && data[pos] == '-' {
		pos++
	}
	switch {
	case pos < len(data) && data[pos] == '0':
		pos++
	case pos < len(data) && data[pos] >= '1' && data[pos] <= '9':
		for pos < len(data) && isDigit(data[pos]) {
			pos++
		}
	default:
		return pos, "a number needs a digit here"
	}
	if pos < len(data) && data[pos] == '.' {
		pos++
		if pos >= len(data) || !isDigit(data[pos]) {
			return pos, "a fraction needs a digit"
		}
		for pos < len(data) && isDigit(data[pos]) {
			pos++
		}
	}
	if pos < len(data) && (data[pos] == 'e' || data[pos] == 'E') {
		pos++
		if pos < len(data) && (data[pos] == '+' || data[pos] == '-') {
			pos++
		}
		if pos >= len(data) || !isDigit(data[pos]) {
			return pos, "an exponent needs a digit"
		}
		for pos < len(data) && isDigit(data[pos]) {
			pos++
		}
	}
	return pos, ""
}

// Escape returns the byte that a one-letter escape stands for, given the letter after the
// backslash (one of " \ / b f n r t); ok is false for any other letter, 'u' included.
func Escape(letter byte) (c byte, ok bool) {
	switch letter {
	case '"', '\\', '/':
		return letter, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// Hex4 decodes the four hex digits (either case) at the start of b, the digits of a \u escape;
// ok is false when b is shorter than four bytes or one of them is not a hex digit.
func Hex4(b []byte) (r rune, ok bool) {
	if len(b) < 4 {
		return 0, false
	}
	for _, c := range b[:4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

// SurrogatePair returns the code point that the high surrogate hi forms with the \uXXXX escape
// at the start of rest (the bytes just after hi's own escape), when that escape holds a low
// surrogate. ok is false when hi is not a high surrogate or rest does not start with a \u
// escape of a low surrogate; the caller then decides what a lone surrogate means.
func SurrogatePair(hi rune, rest []byte) (r rune, ok bool) {
	if hi < 0xD800 || hi >= 0xDC00 || len(rest) < 6 || rest[0] != '\\' || rest[1] != 'u' {
		return 0, false
	}
	lo, ok := Hex4(rest[2:])
	if !ok || lo < 0xDC00 || lo >= 0xE000 {
		return 0, false
	}
	return (hi-0xD800)<<10 + (lo - 0xDC00) + 0x10000, true
}

// Plain returns the offset of the first byte at or after pos that ends the plain part of a
// string body: a quote, a backslash or a control byte (below 0x20), or len(data) when there is
// none. The bytes before it are the string's text as they stand.
//
// It reads eight bytes at a time. In each word, a byte below 0x20 sets its top bit in
// w-0x20…20 &^ w, and a byte equal to c does the same in v-0x01…01 &^ v with v = w^c…c. A
// borrow can mark a later byte falsely but only after a byte that truly matched, so the lowest
// marked byte of the word (the first in the data, as the word is read little-endian) is the
// answer.
func Plain(data []byte, pos int) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	for pos+8 <= len(data) {
		w := binary.LittleEndian.Uint64(data[pos:])
		q := w ^ ('"' * ones)
		b := w ^ ('\\' * ones)
		m := ((w - 0x20*ones) &^ w) | ((q - ones) &^ q) | ((b - ones) &^ b)
		if m &= highs; m != 0 {
			return pos + bits.TrailingZeros64(m)/8
		}
		pos += 8
	}
	for pos < len(data) {
		if c := data[pos]; c == '"' || c == '\\' || c < 0x20 {
			return pos
		}
		pos++
	}
	return pos
}
