// Replay: the value of a key as of any commit, folded from the delta log,
// and the structural checks that refuse a corrupted log.

package flow

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

// ValueAt returns the value of key after commit i of rec: the last set (or
// delete) at or before i, then every merge and append after it folded
// forward. It reports false when the key is absent at i. The result is a
// fresh value for appended lists and merged objects; a set value is shared.
// Values of a record decoded without key types are raw JSON and come back
// as raw JSON.
func ValueAt(rec *Record, i int, key string) (any, bool, error) {
	if rec == nil || i < 0 || i >= len(rec.Commits) {
		return nil, false, fmt.Errorf("flow: ValueAt: commit %d out of range", i)
	}
	if v, present, ok := rec.finalValue(i, key); ok {
		return v, present, nil
	}
	ws := rec.writersUpTo(key, i)
	end := len(ws) // writers at or before i: ws[:end]
	// Find the last set/delete at or before i, scanning ops backwards.
	type step struct{ commit, op int }
	start := step{-1, -1}
scan:
	for w := end - 1; w >= 0; w-- {
		c := rec.Commits[ws[w]]
		for j := len(c.Ops) - 1; j >= 0; j-- {
			op := &c.Ops[j]
			if op.Key == key && (op.Verb == VerbSet || op.Verb == VerbDelete) {
				start = step{ws[w], j}
				break scan
			}
		}
	}
	var val any
	present := false
	var tails []any
	from := 0
	if start.commit >= 0 {
		if contains(rec.Commits[start.commit].Redacted, key) && rec.Commits[start.commit].Ops[start.op].Verb == VerbSet {
			return nil, false, &RedactedError{Key: key, Commit: start.commit}
		}
		op := rec.Commits[start.commit].Ops[start.op]
		if op.Verb == VerbSet {
			val, present = op.Value, true
		}
		from = sort.SearchInts(ws[:end], start.commit)
	}
	flush := func() error {
		if len(tails) == 0 {
			return nil
		}
		if k := rec.kinds[key]; k != nil {
			base := val
			if !present {
				base = nil
			}
			if v, ok := k.concatAll(base, tails); ok {
				val, present, tails = v, true, tails[:0]
				return nil
			}
		}
		v, err := concatAll(val, present, tails)
		if err != nil {
			return err
		}
		val, present, tails = v, true, tails[:0]
		return nil
	}
	for w := from; w < end; w++ {
		ci := ws[w]
		c := rec.Commits[ci]
		for j := range c.Ops {
			if ci == start.commit && j <= start.op {
				continue
			}
			op := &c.Ops[j]
			if op.Key != key {
				continue
			}
			if op.Verb != VerbDelete && contains(c.Redacted, key) {
				return nil, false, &RedactedError{Key: key, Commit: ci}
			}
			switch op.Verb {
			case VerbAppend:
				tails = append(tails, op.Value)
			case VerbMerge:
				if err := flush(); err != nil {
					return nil, false, err
				}
				m, err := mergeValues(val, op.Value)
				if err != nil {
					return nil, false, fmt.Errorf("flow: ValueAt %q at commit %d: %w", key, ci, err)
				}
				val, present = m, true
			case VerbSet:
				tails = tails[:0]
				val, present = op.Value, true
			case VerbDelete:
				tails = tails[:0]
				val, present = nil, false
			}
		}
	}
	if err := flush(); err != nil {
		return nil, false, fmt.Errorf("flow: ValueAt %q at commit %d: %w", key, i, err)
	}
	return val, present, nil
}

// Materialise returns every key present after commit i.
func Materialise(rec *Record, i int) (map[string]any, error) {
	if rec == nil || i < 0 || i >= len(rec.Commits) {
		return nil, fmt.Errorf("flow: Materialise: commit %d out of range", i)
	}
	seen := map[string]bool{}
	out := map[string]any{}
	for c := 0; c <= i; c++ {
		for _, op := range rec.Commits[c].Ops {
			if seen[op.Key] {
				continue
			}
			seen[op.Key] = true
			v, ok, err := ValueAt(rec, i, op.Key)
			if err != nil {
				return nil, err
			}
			if ok {
				out[op.Key] = v
			}
		}
	}
	return out, nil
}

// concatAll appends every tail to base into a fresh value. Typed tails are
// slices of one type; raw tails are JSON arrays.
func concatAll(base any, present bool, tails []any) (any, error) {
	if _, raw := tails[0].(json.RawMessage); raw {
		var all []json.RawMessage
		if present && base != nil {
			b, ok := base.(json.RawMessage)
			if !ok {
				return nil, fmt.Errorf("cannot append raw JSON to %T", base)
			}
			if err := json.Unmarshal(b, &all); err != nil {
				return nil, fmt.Errorf("append to a value that is not a list")
			}
		}
		for _, t := range tails {
			var part []json.RawMessage
			tb, _ := t.(json.RawMessage)
			if err := json.Unmarshal(tb, &part); err != nil {
				return nil, fmt.Errorf("append tail is not a list")
			}
			all = append(all, part...)
		}
		out, err := json.Marshal(all)
		return json.RawMessage(out), err
	}
	tv := reflect.ValueOf(tails[0])
	if tv.Kind() != reflect.Slice {
		return nil, fmt.Errorf("append tail is %T, not a slice", tails[0])
	}
	n := 0
	var bv reflect.Value
	if present && base != nil {
		bv = reflect.ValueOf(base)
		if bv.Type() != tv.Type() {
			return nil, fmt.Errorf("append of %s to %T", tv.Type(), base)
		}
		n = bv.Len()
	}
	for _, t := range tails {
		v := reflect.ValueOf(t)
		if v.Type() != tv.Type() {
			return nil, fmt.Errorf("append tails of mixed types %s and %s", tv.Type(), v.Type())
		}
		n += v.Len()
	}
	out := reflect.MakeSlice(tv.Type(), 0, n)
	if bv.IsValid() {
		out = reflect.AppendSlice(out, bv)
	}
	for _, t := range tails {
		out = reflect.AppendSlice(out, reflect.ValueOf(t))
	}
	return out.Interface(), nil
}

// mergeValues deep-merges patch into base, for typed or raw values.
func mergeValues(base, patch any) (any, error) {
	rawBase, baseRaw := base.(json.RawMessage)
	rawPatch, patchRaw := patch.(json.RawMessage)
	if !baseRaw && !patchRaw {
		bm, _ := base.(map[string]any)
		pm, ok := patch.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("merge patch is %T, not an object", patch)
		}
		return deepMerge(bm, pm), nil
	}
	var bm, pm map[string]any
	if baseRaw {
		if err := json.Unmarshal(rawBase, &bm); err != nil {
			return nil, fmt.Errorf("merge into a value that is not an object")
		}
	} else if base != nil {
		bm, _ = base.(map[string]any)
	}
	if patchRaw {
		if err := json.Unmarshal(rawPatch, &pm); err != nil || pm == nil {
			return nil, fmt.Errorf("merge patch is not an object")
		}
	} else if pm, _ = patch.(map[string]any); pm == nil {
		return nil, fmt.Errorf("merge patch is %T, not an object", patch)
	}
	out, err := json.Marshal(deepMerge(bm, pm))
	return json.RawMessage(out), err
}

// Validate checks the record's structure: indices in order, commit 0 the
// input commit, unique runtime ids, known verbs with the values they need,
// readsBefore within reads, control edges pointing at earlier decisions,
// subflow references with their logs, and attached logs (see [Record]). The
// error names the first bad field.
func (r *Record) Validate() error {
	return r.validate("")
}

func (r *Record) validate(prefix string) error {
	bad := func(field, reason string) error {
		return &CorruptLogError{Field: prefix + field, Reason: reason}
	}
	if len(r.Commits) == 0 {
		return bad("commits", "is empty (commit 0 must be the input commit)")
	}
	for i, c := range r.Commits {
		if c == nil {
			return bad(fmt.Sprintf("commits[%d]", i), "is null")
		}
		if c.CommitDetail == nil {
			// Only a commit built by hand can lack one; reading its
			// promoted fields would panic.
			return bad(fmt.Sprintf("commits[%d]", i), "has no detail (stage, stageId, reads)")
		}
	}
	if r.Commits[0].RuntimeStageID != InputStageID {
		return bad("commits[0].runtimeStageId", fmt.Sprintf("is %q, want %q", r.Commits[0].RuntimeStageID, InputStageID))
	}
	ids := make(map[string]int, len(r.Commits))
	for i := range r.Commits {
		c := r.Commits[i]
		at := fmt.Sprintf("commits[%d]", i)
		if c.Idx != i {
			return bad(at+".idx", fmt.Sprintf("is %d, want %d", c.Idx, i))
		}
		if c.RuntimeStageID == "" || c.StageID == "" {
			return bad(at+".runtimeStageId", "is empty")
		}
		if _, dup := ids[c.RuntimeStageID]; dup {
			return bad(at+".runtimeStageId", fmt.Sprintf("%q repeats an earlier commit", c.RuntimeStageID))
		}
		ids[c.RuntimeStageID] = i
		for j, op := range c.Ops {
			oat := fmt.Sprintf("%s.ops[%d]", at, j)
			if op.Key == "" {
				return bad(oat+".key", "is empty")
			}
			if !op.Verb.valid() {
				return bad(oat+".verb", fmt.Sprintf("%q is not one of set, merge, append, delete", op.Verb))
			}
			if op.ReadsBefore < 0 || op.ReadsBefore > len(c.Reads) {
				return bad(oat+".readsBefore", fmt.Sprintf("%d is outside 0..%d", op.ReadsBefore, len(c.Reads)))
			}
			if raw, ok := op.Value.(json.RawMessage); ok {
				switch {
				case op.Verb == VerbAppend && (len(raw) == 0 || raw[0] != '['):
					return bad(oat+".value", "append value is not a list")
				case op.Verb == VerbMerge && (len(raw) == 0 || raw[0] != '{'):
					return bad(oat+".value", "merge value is not an object")
				}
			} else if op.Value == nil && (op.Verb == VerbAppend || op.Verb == VerbMerge) {
				return bad(oat+".value", "is missing")
			}
		}
		if c.Control != nil {
			d, ok := ids[c.Control.Decider]
			if !ok || d >= i || r.Commits[d].Decision == nil {
				return bad(at+".control.decider", fmt.Sprintf("%q is not an earlier decision", c.Control.Decider))
			}
		}
		if c.Subflow != nil {
			if c.Subflow.Run != c.RuntimeStageID {
				return bad(at+".subflow.run", fmt.Sprintf("%q is not this commit's runtime id", c.Subflow.Run))
			}
			sub, ok := r.Subflows[c.Subflow.Run]
			if !ok || sub == nil {
				return bad(at+".subflow.run", fmt.Sprintf("no subflow log for %q", c.Subflow.Run))
			}
			if err := sub.validate(prefix + "subflows[" + c.Subflow.Run + "]."); err != nil {
				return err
			}
		}
	}
	for run, sub := range r.Subflows {
		if i, ok := ids[run]; ok {
			if r.Commits[i].Subflow == nil {
				return bad("subflows", fmt.Sprintf("log %q is keyed by the runtime id of a commit that mounts no subflow", run))
			}
			continue // checked with its mount commit above
		}
		// An attached log: a run a stage started itself (an agent tool's
		// inner run), under a name that is no runtime id of this log.
		if sub == nil {
			return bad("subflows["+run+"]", "is null")
		}
		if err := sub.validate(prefix + "subflows[" + run + "]."); err != nil {
			return err
		}
	}
	return nil
}
