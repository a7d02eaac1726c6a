// Package jcs writes JSON in the RFC 8785 JSON Canonicalization Scheme (JCS), the bytes the
// audit chain hashes, and reads JSON strictly enough that two readers cannot disagree on
// what a hashed document says.
//
// Canonical form: no whitespace; object members sorted by the UTF-16 code units of their
// names; strings escaped only where JSON requires it (quote, backslash, U+0000–U+001F, with
// \b \t \n \f \r and lowercase \u00xx for the rest); numbers as IEEE-754 doubles in the
// shortest ECMAScript form. Unlike encoding/json, <, >, & and U+2028/U+2029 are written
// as-is.
package jcs
