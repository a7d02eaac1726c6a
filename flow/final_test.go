// Reading a final value from the run's state instead of replaying the log.

package flow

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValueAtLastCommitMatchesReplay(t *testing.T) {
	n := Key[int]("n")
	gone := Key[string]("gone")
	hist := List[string]("hist")
	setOnly := List[string]("setOnly")
	empty := List[string]("empty")
	obj := Key[map[string]any]("obj")
	anyKey := Key[any]("anyKey")
	undeclaredRead := "nope"
	c := NewBuilder("final").Keys(n, gone, hist, setOnly, empty, obj, anyKey).
		Stage("one", func(ctx context.Context, s *Scope) (any, error) {
			n.Set(s, 1)
			gone.Set(s, "x")
			hist.Set(s, []string{"a"})
			setOnly.Set(s, []string{"only"})
			empty.Set(s, nil)
			s.Merge("obj", map[string]any{"a": 1})
			anyKey.Set(s, []any{"v"})
			return nil, nil
		}).
		Stage("two", func(ctx context.Context, s *Scope) (any, error) {
			hist.Append(s, "b", "c")
			s.Delete("gone")
			s.Merge("obj", map[string]any{"b": map[string]any{"c": 2}})
			n.Set(s, 2)
			return nil, nil
		}).
		Stage("three", func(ctx context.Context, s *Scope) (any, error) {
			hist.Append(s, "d")
			return nil, nil
		}).MustBuild()
	res, err := c.Run(context.Background(), nil, WithRunID("final"))
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Record
	last := len(rec.Commits) - 1
	if rec.final.chart == nil {
		t.Fatal("the run kept no final state")
	}
	for _, key := range []string{"n", "gone", "hist", "setOnly", "empty", "obj", "anyKey", undeclaredRead} {
		fast, fastOK, err := ValueAt(rec, last, key)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		saved := rec.final
		rec.final = finalState{}
		slow, slowOK, err := ValueAt(rec, last, key)
		rec.final = saved
		if err != nil {
			t.Fatalf("%s: replay: %v", key, err)
		}
		if fastOK != slowOK {
			t.Errorf("%s: present %v, replay says %v", key, fastOK, slowOK)
		}
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Errorf("%s: value (-replay +final):\n%s", key, diff)
		}
	}
	// A list read at the last commit is the caller's: changing it leaves
	// the record alone.
	v, _, _ := ValueAt(rec, last, "hist")
	v.([]string)[0] = "changed"
	again, _, _ := ValueAt(rec, last, "hist")
	if diff := cmp.Diff([]string{"a", "b", "c", "d"}, again); diff != "" {
		t.Errorf("hist after the caller changed its copy (-want +got):\n%s", diff)
	}
	// An earlier commit still replays.
	early, ok, err := ValueAt(rec, 1, "hist")
	if err != nil || !ok {
		t.Fatalf("hist at commit 1: %v %v", ok, err)
	}
	if diff := cmp.Diff([]string{"a"}, early); diff != "" {
		t.Errorf("hist at commit 1 (-want +got):\n%s", diff)
	}
	if _, _, ok := rec.finalValue(1, "hist"); ok {
		t.Error("finalValue answered for commit 1")
	}
}
