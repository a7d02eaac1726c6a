// Reading the commit log in the form this package writes it, without
// encoding/json's reflection. Record's encoder writes exact member names,
// strings without escapes outside the values, integers and no nulls; the
// reader here takes only that form. Anything else (a name in another case or
// not known, a member twice, an escape or a null where a plain field is
// expected, a number with a fraction) makes it give up, and the bytes go to
// encoding/json, which reads every form. The values themselves are checked
// as JSON and kept raw, as json.RawMessage keeps them. FuzzFastRecordReading
// checks that the two readings agree wherever this one accepts.

package flow

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// fastMaxDepth bounds the nesting the reader follows (subflows inside
// subflows, arrays and objects inside a value); deeper input goes to
// encoding/json, which has its own limit and error for it.
const fastMaxDepth = 256

// fastRawChunk is the size of the arrays the values are copied into.
const fastRawChunk = 64 << 10

// fastReader reads one record's JSON from d, position i. raw is where the
// values are copied: a few arrays for the whole record instead of one
// allocation a value. words holds the names that repeat from commit to
// commit (stages, keys, verbs), made once each; keys holds the ops' key
// strings, which opWire points to.
type fastReader struct {
	d     []byte
	i     int
	raw   []byte
	words map[string]string
	keys  []string
}

// fastRecordWire reads data as a recordWire; false when data is not in the
// form the reader takes (which says nothing about whether it is valid).
func fastRecordWire(data []byte) (*recordWire, bool) {
	r := fastReader{d: data}
	r.space()
	w, ok := r.record(0)
	if !ok {
		return nil, false
	}
	r.space()
	return w, r.i == len(r.d)
}

func (r *fastReader) space() {
	for r.i < len(r.d) {
		switch r.d[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// next reports whether the byte at the reader is c, and steps past it.
func (r *fastReader) next(c byte) bool {
	if r.i < len(r.d) && r.d[r.i] == c {
		r.i++
		return true
	}
	return false
}

// object reads an object of struct fields, calling member with each name
// (the reader then at the value, which member must read); member returns
// false to give up. A name seen twice gives up: encoding/json would decode
// both into the same field, merging them.
func (r *fastReader) object(member func(name []byte) bool) bool {
	var buf [16][]byte
	seen := buf[:0]
	return r.members(r.name, func(name []byte) bool {
		for _, s := range seen {
			if string(s) == string(name) {
				return false
			}
		}
		seen = append(seen, name)
		return member(name)
	})
}

// mapObject reads an object whose names are a map's keys: any string
// without escapes. A key seen twice replaces the first, as in encoding/json.
func (r *fastReader) mapObject(member func(key []byte) bool) bool {
	return r.members(r.strBytes, member)
}

func (r *fastReader) members(name func() ([]byte, bool), member func(name []byte) bool) bool {
	if !r.next('{') {
		return false
	}
	r.space()
	if r.next('}') {
		return true
	}
	for {
		n, ok := name()
		if !ok {
			return false
		}
		r.space()
		if !r.next(':') {
			return false
		}
		r.space()
		if !member(n) {
			return false
		}
		r.space()
		if r.next('}') {
			return true
		}
		if !r.next(',') {
			return false
		}
		r.space()
	}
}

// name reads a member name of ASCII letters and digits, as this package's
// names are.
func (r *fastReader) name() ([]byte, bool) {
	if !r.next('"') {
		return nil, false
	}
	start := r.i
	for r.i < len(r.d) {
		c := r.d[r.i]
		switch {
		case c == '"':
			r.i++
			return r.d[start : r.i-1], true
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			r.i++
		default:
			return nil, false
		}
	}
	return nil, false
}

// strBytes reads a string without escapes or control bytes, in UTF-8 (one
// that encoding/json would read as it stands) and returns its bytes.
func (r *fastReader) strBytes() ([]byte, bool) {
	if !r.next('"') {
		return nil, false
	}
	start, ascii := r.i, true
	for r.i < len(r.d) {
		c := r.d[r.i]
		switch {
		case c == '"':
			body := r.d[start:r.i]
			if !ascii && !utf8.Valid(body) {
				return nil, false
			}
			r.i++
			return body, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		r.i++
	}
	return nil, false
}

// str is strBytes as a string of its own.
func (r *fastReader) str() (string, bool) {
	b, ok := r.strBytes()
	return string(b), ok
}

// word is str for a name that repeats (a stage, a key, a verb): each is
// made once per record and shared.
func (r *fastReader) word() (string, bool) {
	b, ok := r.strBytes()
	if !ok {
		return "", false
	}
	if w, ok := r.words[string(b)]; ok {
		return w, true
	}
	if r.words == nil {
		r.words = make(map[string]string, 64)
	}
	w := string(b)
	r.words[w] = w
	return w, true
}

// wordList reads an array of names; [] is an empty list, not nil, as
// encoding/json reads it.
func (r *fastReader) wordList() ([]string, bool) {
	out := []string{}
	ok := r.array(func() bool {
		s, ok := r.word()
		out = append(out, s)
		return ok
	})
	return out, ok
}

// array reads an array, calling elem at each element.
func (r *fastReader) array(elem func() bool) bool {
	if !r.next('[') {
		return false
	}
	r.space()
	if r.next(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		r.space()
		if r.next(']') {
			return true
		}
		if !r.next(',') {
			return false
		}
		r.space()
	}
}

// integer reads an integer without fraction or exponent that fits an int.
func (r *fastReader) integer() (int, bool) {
	start := r.i
	r.next('-')
	digits := r.i
	for r.i < len(r.d) && '0' <= r.d[r.i] && r.d[r.i] <= '9' {
		r.i++
	}
	if r.i == digits || (r.d[digits] == '0' && r.i > digits+1) {
		return 0, false
	}
	if r.i < len(r.d) {
		if c := r.d[r.i]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(r.d[start:r.i]), 10, 0)
	return int(n), err == nil
}

// value reads one JSON value, checked as encoding/json checks it, and
// returns a copy of its bytes.
func (r *fastReader) value() (json.RawMessage, bool) {
	start := r.i
	if !r.skip(0) {
		return nil, false
	}
	n := r.i - start
	if cap(r.raw)-len(r.raw) < n {
		r.raw = make([]byte, 0, max(n, fastRawChunk))
	}
	at := len(r.raw)
	r.raw = append(r.raw, r.d[start:r.i]...)
	return json.RawMessage(r.raw[at:len(r.raw):len(r.raw)]), true
}

// skip steps over one JSON value, false when it is not valid JSON (or
// nested deeper than fastMaxDepth).
func (r *fastReader) skip(depth int) bool {
	if depth > fastMaxDepth || r.i >= len(r.d) {
		return false
	}
	switch c := r.d[r.i]; {
	case c == '{':
		r.i++
		r.space()
		if r.next('}') {
			return true
		}
		for {
			if !r.skipString() {
				return false
			}
			r.space()
			if !r.next(':') {
				return false
			}
			r.space()
			if !r.skip(depth + 1) {
				return false
			}
			r.space()
			if r.next('}') {
				return true
			}
			if !r.next(',') {
				return false
			}
			r.space()
		}
	case c == '[':
		r.i++
		r.space()
		if r.next(']') {
			return true
		}
		for {
			if !r.skip(depth + 1) {
				return false
			}
			r.space()
			if r.next(']') {
				return true
			}
			if !r.next(',') {
				return false
			}
			r.space()
		}
	case c == '"':
		return r.skipString()
	case c == '-' || ('0' <= c && c <= '9'):
		return r.skipNumber()
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	}
	return false
}

func (r *fastReader) literal(word string) bool {
	if len(r.d)-r.i >= len(word) && string(r.d[r.i:r.i+len(word)]) == word {
		r.i += len(word)
		return true
	}
	return false
}

// skipString steps over a string: any byte but a quote, a backslash or a
// control byte, and the escapes JSON defines (bytes that are not UTF-8 are
// valid JSON here, as encoding/json's checker takes them).
func (r *fastReader) skipString() bool {
	if !r.next('"') {
		return false
	}
	for r.i < len(r.d) {
		c := r.d[r.i]
		switch {
		case c == '"':
			r.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if r.i+1 >= len(r.d) {
				return false
			}
			switch r.d[r.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				r.i += 2
			case 'u':
				if len(r.d)-r.i < 6 {
					return false
				}
				for _, h := range r.d[r.i+2 : r.i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				r.i += 6
			default:
				return false
			}
		default:
			r.i++
		}
	}
	return false
}

// skipNumber steps over a number in JSON's grammar.
func (r *fastReader) skipNumber() bool {
	r.next('-')
	switch {
	case r.next('0'):
	case r.digits() == 0:
		return false
	}
	if r.next('.') && r.digits() == 0 {
		return false
	}
	if r.next('e') || r.next('E') {
		if !r.next('+') {
			r.next('-')
		}
		if r.digits() == 0 {
			return false
		}
	}
	return true
}

// digits steps over decimal digits and says how many there were.
func (r *fastReader) digits() int {
	start := r.i
	for r.i < len(r.d) && '0' <= r.d[r.i] && r.d[r.i] <= '9' {
		r.i++
	}
	return r.i - start
}

func (r *fastReader) record(depth int) (*recordWire, bool) {
	if depth > fastMaxDepth {
		return nil, false
	}
	w := &recordWire{}
	ok := r.object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "runId":
			w.RunID, ok = r.str()
		case "chartId":
			w.ChartID, ok = r.str()
		case "resumedFrom":
			w.ResumedFrom, ok = r.str()
		case "commits":
			w.Commits = []*commitWire{}
			ok = r.array(func() bool {
				c, ok := r.commit()
				w.Commits = append(w.Commits, c)
				return ok
			})
		case "subflows":
			w.Subflows = map[string]*recordWire{}
			ok = r.mapObject(func(key []byte) bool {
				sub, ok := r.record(depth + 1)
				w.Subflows[string(key)] = sub
				return ok
			})
		}
		return ok
	})
	return w, ok
}

func (r *fastReader) commit() (*commitWire, bool) {
	c := &commitWire{}
	ok := r.object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "idx":
			c.Idx, ok = r.integer()
		case "stage":
			c.Stage, ok = r.word()
		case "stageId":
			c.StageID, ok = r.word()
		case "runtimeStageId":
			c.RuntimeStageID, ok = r.str()
		case "reads":
			c.Reads, ok = r.wordList()
		case "untracked":
			c.Untracked, ok = r.wordList()
		case "redacted":
			c.Redacted, ok = r.wordList()
		case "error":
			c.Error, ok = r.str()
		case "ops":
			c.Ops = []opWire{}
			ok = r.array(func() bool {
				o, ok := r.op()
				c.Ops = append(c.Ops, o)
				return ok
			})
		case "control":
			c.Control, ok = r.control()
		case "decision":
			c.Decision, ok = r.decision()
		case "subflow":
			c.Subflow, ok = r.subflow()
		}
		return ok
	})
	return c, ok
}

func (r *fastReader) op() (opWire, bool) {
	var o opWire
	ok := r.object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "key":
			var k string
			k, ok = r.word()
			if len(r.keys) == cap(r.keys) {
				r.keys = make([]string, 0, 256)
			}
			r.keys = append(r.keys, k)
			o.Key = &r.keys[len(r.keys)-1]
		case "verb":
			var v string
			v, ok = r.word()
			o.Verb = Verb(v)
		case "value":
			o.Value, ok = r.value()
		case "readsBefore":
			o.ReadsBefore, ok = r.integer()
		}
		return ok
	})
	return o, ok
}

// boolean reads true or false.
func (r *fastReader) boolean() (bool, bool) {
	switch {
	case r.literal("true"):
		return true, true
	case r.literal("false"):
		return false, true
	}
	return false, false
}

func (r *fastReader) control() (*Control, bool) {
	c := &Control{}
	ok := r.object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "decider":
			c.Decider, ok = r.str()
		case "branch":
			c.Branch, ok = r.word()
		case "rule":
			c.Rule, ok = r.word()
		case "ruleIndex":
			c.RuleIndex, ok = r.integer()
		}
		return ok
	})
	return c, ok
}

func (r *fastReader) subflow() (*SubflowRef, bool) {
	sf := &SubflowRef{}
	ok := r.object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "path":
			sf.Path, ok = r.word()
		case "run":
			sf.Run, ok = r.str()
		}
		return ok
	})
	return sf, ok
}

// decision reads a decision as Decision.UnmarshalJSON does: chosen a
// string (a decider's) or a list (a selector's, Multi). A decision without
// chosen is refused there, so it gives up here.
func (r *fastReader) decision() (*Decision, bool) {
	d := &Decision{}
	chosen := false
	ok := r.object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "chosen":
			chosen = true
			if r.i < len(r.d) && r.d[r.i] == '[' {
				d.Chosen, ok = r.wordList()
				d.Multi = true
			} else {
				var one string
				one, ok = r.word()
				d.Chosen = []string{one}
			}
		case "default":
			d.Default, ok = r.boolean()
		case "rules":
			d.Rules = []RuleEvidence{}
			ok = r.array(func() bool {
				e, ok := r.rule()
				d.Rules = append(d.Rules, e)
				return ok
			})
		}
		return ok
	})
	return d, ok && chosen
}

func (r *fastReader) rule() (RuleEvidence, bool) {
	var e RuleEvidence
	ok := r.object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "index":
			e.Index, ok = r.integer()
		case "branch":
			e.Branch, ok = r.word()
		case "label":
			e.Label, ok = r.word()
		case "matched":
			e.Matched, ok = r.boolean()
		case "reads":
			e.Reads, ok = r.wordList()
		case "error":
			e.Error, ok = r.str()
		case "conditions":
			e.Conditions = []ConditionEvidence{}
			ok = r.array(func() bool {
				c, ok := r.condition()
				e.Conditions = append(e.Conditions, c)
				return ok
			})
		}
		return ok
	})
	return e, ok
}

func (r *fastReader) condition() (ConditionEvidence, bool) {
	var c ConditionEvidence
	ok := r.object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "key":
			c.Key, ok = r.word()
		case "op":
			c.Op, ok = r.word()
		case "threshold":
			c.Threshold, ok = r.str()
		case "actual":
			c.Actual, ok = r.str()
		case "pass":
			c.Pass, ok = r.boolean()
		}
		return ok
	})
	return c, ok
}
