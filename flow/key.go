// Key declarations: the typed names a chart's state is made of, and how each
// one is checked, appended to and decoded from JSON.

package flow

import (
	"encoding/json"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/agentfootprint/agentfootprint-go/internal/fastjson"
)

// KeyDecl is a state key declared on a chart with its Go type. Only declared
// keys may be written, seeded as inputs or restored from a checkpoint; the
// declaration is what lets a checkpoint decode back into typed Go values.
// It is implemented by [ValueKey] and [ListKey] only.
type KeyDecl interface {
	// KeyName is the wire name of the key.
	KeyName() string
	kind() keyKind
}

// keyKind is the per-type behaviour a declaration contributes to the engine.
type keyKind interface {
	typeName() string
	isList() bool
	mergeable() bool
	// check accepts a value for a set and returns it normalised (nil becomes
	// the zero value of the declared type; lists come back capacity-clipped).
	check(v any) (any, error)
	// tail accepts a value for an append ([]E or []any) and returns it as []E.
	tail(v any) (any, error)
	// concat appends tail onto back (which may have spare capacity) and
	// returns the new backing value and a clipped view of it. When back is
	// not yet a growing list, the new one has room for hint more elements
	// (0: the default growth).
	concat(back, tail any, hint int) (newBack, view any)
	// grown is how many elements were appended to back since it started
	// growing (0 for a value that is not a growing list).
	grown(back any) int
	// concatAll returns a fresh list: base followed by every tail; ok is
	// false when a value is not of the key's list type.
	concatAll(base any, tails []any) (any, bool)
	// fresh returns a committed value as a replay of the log would: a
	// non-empty list copied into an array of its own, anything else as is.
	fresh(v any) any
	// decodeValue and decodeTail read raw JSON as the key's type; checked
	// says raw is known to be JSON (a decoder has checked it), so a type
	// that reads itself (json.Unmarshaler) is handed raw directly, with no
	// second check of the bytes by encoding/json.
	decodeValue(raw json.RawMessage, checked bool) (any, error)
	decodeTail(raw json.RawMessage, checked bool) (any, error)
}

// ValueKey declares a key holding one value of type T. Create it with [Key].
type ValueKey[T any] struct{ n string }

// Key declares a key named name that holds a T. Declare it on the chart with
// [Builder.Keys]; values of a declared key decode back into T on restore.
func Key[T any](name string) ValueKey[T] { return ValueKey[T]{n: name} }

// KeyName returns the key's wire name.
func (k ValueKey[T]) KeyName() string { return k.n }

func (k ValueKey[T]) kind() keyKind { return valueKind[T](k) }

// Get reads the key through r (a tracked read when r is a [*Scope]). It
// reports false when the key is absent or holds a value of another type.
func (k ValueKey[T]) Get(r Reader) (T, bool) {
	v, ok := r.Get(k.n)
	if !ok {
		var zero T
		return zero, false
	}
	t, ok := v.(T)
	return t, ok
}

// Set stages v as the key's new value in this stage.
func (k ValueKey[T]) Set(s *Scope, v T) { s.set(k.n, v) }

// SetOp returns the op that sets the key to v, for a subflow's output
// mapping ([Mount]).
func (k ValueKey[T]) SetOp(v T) Op { return Op{Key: k.n, Verb: VerbSet, Value: v} }

// ListKey declares a key holding a list of E that grows with the append
// verb, whose log entries store only the appended tail. Create it with [List].
type ListKey[E any] struct{ n string }

// List declares a list key named name with elements of type E.
func List[E any](name string) ListKey[E] { return ListKey[E]{n: name} }

// KeyName returns the key's wire name.
func (k ListKey[E]) KeyName() string { return k.n }

func (k ListKey[E]) kind() keyKind { return listKind[E](k) }

// Get reads the list through r. The slice is shared and capacity-clipped:
// do not modify its elements; appending to it copies.
func (k ListKey[E]) Get(r Reader) []E {
	v, ok := r.Get(k.n)
	if !ok {
		return nil
	}
	l, _ := v.([]E)
	return l
}

// Set stages v as the whole list.
func (k ListKey[E]) Set(s *Scope, v []E) { s.set(k.n, v) }

// Append stages items as a tail of the list; the commit records only them.
func (k ListKey[E]) Append(s *Scope, items ...E) {
	if len(items) == 0 {
		return
	}
	s.appendTail(k.n, items[:len(items):len(items)])
}

// AppendOp returns the op that appends items to the list, for a subflow's
// output mapping ([Mount]).
func (k ListKey[E]) AppendOp(items ...E) Op {
	return Op{Key: k.n, Verb: VerbAppend, Value: items[:len(items):len(items)]}
}

// valueKind is the behaviour of a ValueKey.
type valueKind[T any] ValueKey[T]

func (k valueKind[T]) isList() bool { return false }

func (k valueKind[T]) mergeable() bool {
	var zero T
	switch any(&zero).(type) {
	case *map[string]any, *any:
		return true
	}
	return false
}

func (k valueKind[T]) check(v any) (any, error) {
	if v == nil {
		var zero T
		return zero, nil
	}
	if _, ok := v.(T); !ok {
		return nil, fmt.Errorf("key %q holds %s, got %T", k.n, typeName[T](), v)
	}
	return v, nil
}

func (k valueKind[T]) tail(any) (any, error) {
	return nil, fmt.Errorf("key %q is not a list: append needs a key declared with flow.List", k.n)
}

func (k valueKind[T]) concat(back, _ any, _ int) (any, any) { return back, back }
func (k valueKind[T]) grown(any) int                        { return 0 }
func (k valueKind[T]) concatAll(any, []any) (any, bool)     { return nil, false }
func (k valueKind[T]) fresh(v any) any                      { return v }

func (k valueKind[T]) decodeValue(raw json.RawMessage, checked bool) (any, error) {
	var t T
	if err := unmarshal(raw, &t, checked); err != nil {
		return nil, fmt.Errorf("key %q: %w", k.n, err)
	}
	return t, nil
}

// unmarshal is json.Unmarshal(raw, v); for checked JSON and a v that reads
// itself, v's UnmarshalJSON is called on raw as encoding/json would call
// it, without encoding/json checking raw again first.
func unmarshal(raw []byte, v any, checked bool) error {
	if u, ok := v.(json.Unmarshaler); ok && checked {
		return u.UnmarshalJSON(raw)
	}
	return json.Unmarshal(raw, v)
}

func (k valueKind[T]) decodeTail(json.RawMessage, bool) (any, error) {
	return nil, fmt.Errorf("key %q is not a list but the log appends to it", k.n)
}

// listKind is the behaviour of a ListKey.
type listKind[E any] ListKey[E]

func (k listKind[E]) isList() bool    { return true }
func (k listKind[E]) mergeable() bool { return false }

func (k listKind[E]) check(v any) (any, error) {
	if v == nil {
		return []E(nil), nil
	}
	l, ok := v.([]E)
	if !ok {
		if anys, isAnys := v.([]any); isAnys {
			return k.fromAnys(anys)
		}
		return nil, fmt.Errorf("key %q holds []%s, got %T", k.n, typeName[E](), v)
	}
	return l[:len(l):len(l)], nil
}

func (k listKind[E]) fromAnys(anys []any) ([]E, error) {
	out := make([]E, len(anys))
	for i, a := range anys {
		e, ok := a.(E)
		if !ok {
			return nil, fmt.Errorf("key %q element %d: want %s, got %T", k.n, i, typeName[E](), a)
		}
		out[i] = e
	}
	return out, nil
}

func (k listKind[E]) tail(v any) (any, error) {
	switch t := v.(type) {
	case []E:
		if len(t) == cap(t) {
			return v, nil // already clipped (ListKey.Append): no second box
		}
		return t[:len(t):len(t)], nil
	case []any:
		return k.fromAnys(t)
	}
	return nil, fmt.Errorf("key %q: append wants []%s, got %T", k.n, typeName[E](), v)
}

// listBack is a list key's backing slice once something was appended to
// it: held by pointer, so each later append boxes only the clipped view.
// base is the list's length before its first append.
type listBack[E any] struct {
	s    []E
	base int
}

func (k listKind[E]) grown(back any) int {
	if h, ok := back.(*listBack[E]); ok {
		return len(h.s) - h.base
	}
	return 0
}

func (k listKind[E]) concat(back, tail any, hint int) (any, any) {
	t, _ := tail.([]E)
	if h, ok := back.(*listBack[E]); ok {
		if n := len(h.s) + len(t); n > cap(h.s) {
			// Views handed out keep the old array; nothing past their
			// length is ever written, so moving on is safe.
			h.s = append(make([]E, 0, listCap[E](n)), h.s...)
		}
		h.s = append(h.s, t...)
		return h, h.s[:len(h.s):len(h.s)]
	}
	// The first append after a set: the set value is capacity-clipped, so
	// this copies it and never writes into the setter's array. The chart's
	// last run says how far the list will likely grow: room for as much,
	// in one array, beats doubling towards it. The room is capped (about
	// 32 KiB), so one long run does not make every later run reserve as much.
	b, _ := back.([]E)
	n := listCap[E](len(b) + len(t))
	if hint > 0 {
		var e E
		n = len(b) + max(len(t), min(hint, max(16, (32<<10)/max(int(unsafe.Sizeof(e)), 1))))
	}
	h := &listBack[E]{s: make([]E, 0, n), base: len(b)}
	h.s = append(append(h.s, b...), t...)
	return h, h.s[:len(h.s):len(h.s)]
}

// listCap is the capacity a list's backing array grows to when it must hold
// n elements: double, and at least 16 elements or 2 KiB, so a list
// that grows one message per step skips the smallest arrays.
func listCap[E any](n int) int {
	var e E
	floor := min(16, max(4, 2048/max(int(unsafe.Sizeof(e)), 1)))
	return max(2*n, floor)
}

func (k listKind[E]) concatAll(base any, tails []any) (any, bool) {
	b, ok := base.([]E)
	if !ok && base != nil {
		return nil, false
	}
	n := len(b)
	for _, t := range tails {
		l, ok := t.([]E)
		if !ok {
			return nil, false
		}
		n += len(l)
	}
	out := make([]E, 0, n)
	out = append(out, b...)
	for _, t := range tails {
		out = append(out, t.([]E)...)
	}
	return out, true
}

func (k listKind[E]) fresh(v any) any {
	l, ok := v.([]E)
	if !ok || len(l) == 0 {
		return v
	}
	out := make([]E, len(l))
	copy(out, l)
	return out
}

func (k listKind[E]) decodeValue(raw json.RawMessage, checked bool) (any, error) {
	l, err := unmarshalList[E](raw, checked)
	if err != nil {
		return nil, fmt.Errorf("key %q: %w", k.n, err)
	}
	return l[:len(l):len(l)], nil
}

// unmarshalList is json.Unmarshal of raw into a []E; for checked JSON
// whose elements read themselves (json.Unmarshaler), the array is split
// here and each element's UnmarshalJSON called on its bytes, as
// encoding/json would call it.
func unmarshalList[E any](raw []byte, checked bool) ([]E, error) {
	var zero E
	if _, ok := any(&zero).(json.Unmarshaler); ok && checked {
		r := fastjson.NewReader(raw)
		l := []E{}
		var err error
		split := r.Array(func() bool {
			b, ok := r.Span()
			if !ok {
				return false
			}
			var e E
			if err = any(&e).(json.Unmarshaler).UnmarshalJSON(b); err != nil {
				return false
			}
			l = append(l, e)
			return true
		})
		switch {
		case err != nil:
			return nil, err
		case split && r.Done():
			return l, nil
		}
	}
	var l []E
	err := json.Unmarshal(raw, &l)
	return l, err
}

func (k listKind[E]) decodeTail(raw json.RawMessage, checked bool) (any, error) {
	l, err := k.decodeValue(raw, checked)
	if err != nil {
		return nil, err
	}
	if l.([]E) == nil {
		return nil, fmt.Errorf("key %q: append tail is not a list", k.n)
	}
	return l, nil
}

func typeName[E any]() string { return reflect.TypeFor[E]().String() }
