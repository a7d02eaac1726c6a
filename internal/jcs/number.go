// This file formats numbers the way ECMAScript's Number.prototype.toString does, which is
// what RFC 8785 prescribes.

package jcs

import (
	"math"
	"strconv"
)

// AppendNumber appends f in the shortest ECMAScript form: integers up to 1e21 in full
// ("295147905179352830000"), exponents as "1e+21" and "1e-7", decimals between them as
// "0.000001" and "4.5", and negative zero as "0". NaN and the infinities are refused.
func AppendNumber(dst []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &Error{Reason: "NaN and infinities have no JSON form"}
	}
	if f == 0 {
		return append(dst, '0'), nil
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	// Shortest round-trip digits, as d.ddddde±x; ECMAScript asks for the same digits
	// (the fewest that read back as f, the closest to f among those).
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	mant, exp := splitExp(e)
	// digits without the decimal point
	var dbuf [24]byte
	digits := append(dbuf[:0], mant[0])
	if len(mant) > 2 {
		digits = append(digits, mant[2:]...)
	}
	k := len(digits)
	n := exp + 1 // position of the decimal point relative to the digits
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits...)
		for range n - k {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for range -n {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst, nil
}

// splitExp splits strconv's 'e' format ("1.2345e+06") into mantissa and exponent.
func splitExp(e []byte) ([]byte, int) {
	for i := len(e) - 1; i >= 0; i-- {
		if e[i] == 'e' {
			x, _ := strconv.Atoi(string(e[i+1:]))
			return e[:i], x
		}
	}
	return e, 0
}
