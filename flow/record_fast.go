// Reading the commit log in the form Record's encoder writes it (exact
// member names, plain strings, integers, no nulls) without encoding/json's
// reflection (internal/fastjson). Anything else (a name in another case or
// not known, a member twice, an escape or a null where a plain field is
// expected, a number with a fraction) makes the reader give up, and the
// bytes go to encoding/json, which reads every form. FuzzFastRecordReading
// checks that the two readings agree wherever this one accepts.

package flow

import "github.com/agentfootprint/agentfootprint-go/internal/fastjson"

// fastReader is a fastjson reader with the ops' key strings, which each
// opWire points to, made in a few arrays.
type fastReader struct {
	*fastjson.Reader
	keys []string
}

// fastRecordWire reads data as a recordWire; false when data is not in the
// form the reader takes (which says nothing about whether it is valid).
func fastRecordWire(data []byte) (*recordWire, bool) {
	r := fastReader{Reader: fastjson.NewReader(data)}
	w, ok := r.record(0)
	return w, ok && r.Done()
}

func (r *fastReader) record(depth int) (*recordWire, bool) {
	if depth > fastjson.MaxDepth {
		return nil, false
	}
	w := &recordWire{}
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "runId":
			w.RunID, ok = r.Str()
		case "chartId":
			w.ChartID, ok = r.Str()
		case "resumedFrom":
			w.ResumedFrom, ok = r.Str()
		case "commits":
			w.Commits = []*commitWire{}
			ok = r.Array(func() bool {
				c, ok := r.commit()
				w.Commits = append(w.Commits, c)
				return ok
			})
		case "subflows":
			w.Subflows = map[string]*recordWire{}
			ok = r.Map(func(key []byte) bool {
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
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "idx":
			c.Idx, ok = r.Int()
		case "stage":
			c.Stage, ok = r.Word()
		case "stageId":
			c.StageID, ok = r.Word()
		case "runtimeStageId":
			c.RuntimeStageID, ok = r.Str()
		case "reads":
			c.Reads, ok = r.Words()
		case "untracked":
			c.Untracked, ok = r.Words()
		case "redacted":
			c.Redacted, ok = r.Words()
		case "error":
			c.Error, ok = r.Str()
		case "ops":
			c.Ops = []opWire{}
			ok = r.Array(func() bool {
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
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "key":
			var k string
			k, ok = r.Word()
			if len(r.keys) == cap(r.keys) {
				r.keys = make([]string, 0, 256)
			}
			r.keys = append(r.keys, k)
			o.Key = &r.keys[len(r.keys)-1]
		case "verb":
			var v string
			v, ok = r.Word()
			o.Verb = Verb(v)
		case "value":
			o.Value, ok = r.Raw()
		case "readsBefore":
			o.ReadsBefore, ok = r.Int()
		}
		return ok
	})
	return o, ok
}

func (r *fastReader) control() (*Control, bool) {
	c := &Control{}
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "decider":
			c.Decider, ok = r.Str()
		case "branch":
			c.Branch, ok = r.Word()
		case "rule":
			c.Rule, ok = r.Word()
		case "ruleIndex":
			c.RuleIndex, ok = r.Int()
		}
		return ok
	})
	return c, ok
}

func (r *fastReader) subflow() (*SubflowRef, bool) {
	sf := &SubflowRef{}
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "path":
			sf.Path, ok = r.Word()
		case "run":
			sf.Run, ok = r.Str()
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
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "chosen":
			chosen = true
			if r.Peek() == '[' {
				d.Chosen, ok = r.Words()
				d.Multi = true
			} else {
				var one string
				one, ok = r.Word()
				d.Chosen = []string{one}
			}
		case "default":
			d.Default, ok = r.Bool()
		case "rules":
			d.Rules = []RuleEvidence{}
			ok = r.Array(func() bool {
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
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "index":
			e.Index, ok = r.Int()
		case "branch":
			e.Branch, ok = r.Word()
		case "label":
			e.Label, ok = r.Word()
		case "matched":
			e.Matched, ok = r.Bool()
		case "reads":
			e.Reads, ok = r.Words()
		case "error":
			e.Error, ok = r.Str()
		case "conditions":
			e.Conditions = []ConditionEvidence{}
			ok = r.Array(func() bool {
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
	ok := r.Object(func(name []byte) bool {
		var ok bool
		switch string(name) {
		case "key":
			c.Key, ok = r.Word()
		case "op":
			c.Op, ok = r.Word()
		case "threshold":
			c.Threshold, ok = r.Str()
		case "actual":
			c.Actual, ok = r.Str()
		case "pass":
			c.Pass, ok = r.Bool()
		}
		return ok
	})
	return c, ok
}
