// Tests for the scope: write verbs, read-your-writes, isolation between
// stages, refusals, provenance and untracked marks.

package flow_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

func TestVerbsAndReadYourWrites(t *testing.T) {
	type step struct {
		name string
		do   func(s *flow.Scope)
		want any // value of the key read back inside the stage; nil = absent
	}
	tests := []struct {
		name  string
		key   flow.KeyDecl
		steps []step
		ops   []flow.Verb
		final any
	}{
		{"set then set", flow.Key[int]("n"), []step{
			{"set 1", func(s *flow.Scope) { flow.Key[any]("n").Set(s, 1) }, 1},
			{"set 2", func(s *flow.Scope) { flow.Key[any]("n").Set(s, 2) }, 2},
		}, []flow.Verb{flow.VerbSet, flow.VerbSet}, 2},
		{"append materialises committed ++ tail", flow.List[string]("l"), []step{
			{"set", func(s *flow.Scope) { flow.Key[any]("l").Set(s, []string{"a"}) }, []string{"a"}},
			{"append", func(s *flow.Scope) { flow.List[any]("l").Append(s, "b", "c") }, []string{"a", "b", "c"}},
			{"append again", func(s *flow.Scope) { flow.List[string]("l").Append(s, "d") }, []string{"a", "b", "c", "d"}},
		}, []flow.Verb{flow.VerbSet, flow.VerbAppend, flow.VerbAppend}, []string{"a", "b", "c", "d"}},
		{"merge deep", flow.Key[map[string]any]("m"), []step{
			{"set", func(s *flow.Scope) {
				flow.Key[any]("m").Set(s, map[string]any{"a": map[string]any{"x": 1.0}, "b": []any{1.0}})
			}, nil},
			{"merge", func(s *flow.Scope) { s.Merge("m", map[string]any{"a": map[string]any{"y": 2}, "b": []int{3}}) },
				map[string]any{"a": map[string]any{"x": 1.0, "y": 2.0}, "b": []any{3.0}}},
		}, []flow.Verb{flow.VerbSet, flow.VerbMerge}, map[string]any{"a": map[string]any{"x": 1.0, "y": 2.0}, "b": []any{3.0}}},
		{"delete", flow.Key[string]("d"), []step{
			{"set", func(s *flow.Scope) { flow.Key[any]("d").Set(s, "x") }, "x"},
			{"delete", func(s *flow.Scope) { s.Delete("d") }, nil},
		}, []flow.Verb{flow.VerbSet, flow.VerbDelete}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := tt.key.KeyName()
			var problems []string
			c := flow.NewBuilder("v").Keys(tt.key).Stage("w", func(ctx context.Context, s *flow.Scope) (any, error) {
				for _, st := range tt.steps {
					st.do(s)
					got, ok := s.Get(key)
					if st.want == nil && tt.name != "merge deep" {
						if ok {
							problems = append(problems, st.name+": key still present")
						}
						continue
					}
					if st.want != nil && !cmp.Equal(st.want, got) {
						problems = append(problems, st.name+": "+cmp.Diff(st.want, got))
					}
				}
				return nil, nil
			}).Stage("r", func(ctx context.Context, s *flow.Scope) (any, error) {
				v, _ := s.Get(key)
				return v, nil
			}).MustBuild()
			res, err := c.Run(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Error(p)
			}
			var verbs []flow.Verb
			for _, op := range res.Record.Commits[1].Ops {
				verbs = append(verbs, op.Verb)
			}
			if diff := cmp.Diff(tt.ops, verbs); diff != "" {
				t.Errorf("verbs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.final, res.Output); diff != "" {
				t.Errorf("next stage reads (-want +got):\n%s", diff)
			}
			if tt.final != nil {
				v, _, err := flow.ValueAt(res.Record, 1, key)
				if err != nil || !cmp.Equal(tt.final, v) {
					t.Errorf("ValueAt = %v (%v), want %v", v, err, tt.final)
				}
			}
		})
	}
}

func TestAppendCommitStoresTailOnly(t *testing.T) {
	l := flow.List[string]("l")
	c := flow.NewBuilder("t").Keys(l).
		Stage("a", func(ctx context.Context, s *flow.Scope) (any, error) { l.Set(s, []string{"x", "y"}); return nil, nil }).
		Stage("b", func(ctx context.Context, s *flow.Scope) (any, error) { l.Append(s, "z"); return nil, nil }).
		Stage("c", func(ctx context.Context, s *flow.Scope) (any, error) {
			got := l.Get(s)
			if cap(got) != len(got) {
				return nil, errors.New("read is not capacity-clipped")
			}
			_ = append(got, "mutate?") // must copy, never touch the committed list
			return l.Get(s), nil
		}).MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"z"}, res.Record.Commits[2].Ops[0].Value); diff != "" {
		t.Errorf("append op value (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"x", "y", "z"}, res.Output); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"x", "y"}, res.Record.Commits[1].Ops[0].Value); diff != "" {
		t.Errorf("the set op changed after appends (-want +got):\n%s", diff)
	}
}

func TestNoMidStageVisibility(t *testing.T) {
	k := flow.Key[int]("k")
	// Sibling b reads k only after sibling a has staged its write: it must
	// still see the committed state (k absent), never a's buffer.
	staged := make(chan struct{})
	var sawPresent bool
	seen := -1
	c := flow.NewBuilder("iso").Keys(k).Fork("f", flow.ForkOptions{},
		flow.NewChild("a", func(ctx context.Context, s *flow.Scope) (any, error) {
			k.Set(s, 5)
			close(staged)
			return nil, nil
		}),
		flow.NewChild("b", func(ctx context.Context, s *flow.Scope) (any, error) {
			<-staged
			_, sawPresent = k.Get(s)
			return nil, nil
		}),
	).Stage("reader", func(ctx context.Context, s *flow.Scope) (any, error) {
		seen, _ = k.Get(s)
		return nil, nil
	}).MustBuild()
	if _, err := c.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if sawPresent {
		t.Error("a sibling saw another stage's staged write before its commit")
	}
	if seen != 5 {
		t.Errorf("the next stage saw %d after the commit, want 5", seen)
	}
	// Within one stage, a value read before a write does not change.
	var before, after int
	c2 := flow.NewBuilder("ryw").Keys(k).
		Stage("a", func(ctx context.Context, s *flow.Scope) (any, error) { k.Set(s, 1); return nil, nil }).
		Stage("b", func(ctx context.Context, s *flow.Scope) (any, error) {
			before, _ = k.Get(s)
			k.Set(s, 2)
			after, _ = k.Get(s)
			return nil, nil
		}).MustBuild()
	if _, err := c2.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if before != 1 || after != 2 {
		t.Errorf("before %d after %d, want 1 and 2", before, after)
	}
}

func TestWriteRefusals(t *testing.T) {
	n := flow.Key[int]("n")
	l := flow.List[string]("l")
	m := flow.Key[map[string]any]("m")
	tests := []struct {
		name string
		do   func(s *flow.Scope)
		want string
	}{
		{"undeclared", func(s *flow.Scope) { flow.Key[any]("ghost").Set(s, 1) }, `key "ghost": not declared`},
		{"wrong type", func(s *flow.Scope) { flow.Key[any]("n").Set(s, "one") }, `key "n": key "n" holds int, got string`},
		{"append to value key", func(s *flow.Scope) { flow.List[any]("n").Append(s, 1) }, `is not a list`},
		{"append wrong element", func(s *flow.Scope) { flow.List[any]("l").Append(s, 1) }, `element 0: want string, got int`},
		{"merge non-mergeable", func(s *flow.Scope) { s.Merge("n", map[string]any{"a": 1}) }, `merge needs a key declared`},
		{"merge non-object patch", func(s *flow.Scope) { s.Merge("m", []int{1}) }, `not a JSON object`},
		{"delete undeclared", func(s *flow.Scope) { s.Delete("ghost") }, `key "ghost"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := flow.NewBuilder("r").Keys(n, l, m).Stage("w", func(ctx context.Context, s *flow.Scope) (any, error) {
				tt.do(s)
				return nil, nil
			}).MustBuild()
			res, err := c.Run(context.Background(), nil)
			var ke *flow.KeyError
			if !errors.As(err, &ke) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want KeyError containing %q", err, tt.want)
			}
			if cm := res.Record.Commits[1]; len(cm.Ops) != 0 || cm.Error == "" {
				t.Errorf("commit = %+v, want no ops and an error", cm)
			}
		})
	}
}

func TestReadsAndProvenance(t *testing.T) {
	a, b, out := flow.Key[int]("a"), flow.Key[int]("b"), flow.Key[int]("out")
	c := flow.NewBuilder("p").Keys(a, b, out).
		Stage("w", func(ctx context.Context, s *flow.Scope) (any, error) {
			x, _ := a.Get(s)
			out.Set(s, x)
			y, _ := b.Get(s)
			_, _ = a.Get(s) // a repeated read is listed once
			out.Set(s, x+y)
			s.Peek("b")
			_ = s.Env()
			return nil, nil
		}).MustBuild()
	ctx := flow.WithEnv(context.Background(), map[string]any{"region": "eu"})
	res, err := c.Run(ctx, map[string]any{"a": 1, "b": 2})
	if err != nil {
		t.Fatal(err)
	}
	cm := res.Record.Commits[1]
	want := &flow.Commit{Idx: 1, RuntimeStageID: "w#0",
		Ops: []flow.Op{{Key: "out", Verb: flow.VerbSet, Value: 1, ReadsBefore: 1}, {Key: "out", Verb: flow.VerbSet, Value: 3, ReadsBefore: 2}},
		CommitDetail: &flow.CommitDetail{Stage: "w", StageID: "w", Reads: []string{"a", "b"},
			Untracked: []string{"env", "silent"}}}
	if diff := cmp.Diff(want, cm); diff != "" {
		t.Errorf("commit (-want +got):\n%s", diff)
	}
}

func TestWriterOf(t *testing.T) {
	k := flow.Key[int]("k")
	var rid string
	var idx int
	c := flow.NewBuilder("w").Keys(k).
		Stage("a", func(ctx context.Context, s *flow.Scope) (any, error) { k.Set(s, 1); return nil, nil }).
		Stage("b", noop).
		Stage("c", func(ctx context.Context, s *flow.Scope) (any, error) {
			rid, idx, _ = s.WriterOf("k")
			return nil, nil
		}).MustBuild()
	if _, err := c.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if rid != "a#0" || idx != 1 {
		t.Errorf("WriterOf = %s %d, want a#0 1", rid, idx)
	}
}

func TestDevChecks(t *testing.T) {
	meta := flow.Key[map[string]any]("meta")
	fn := flow.Key[any]("fn")
	tests := []struct {
		name string
		body flow.StageFunc
		want string
	}{
		{"in-place change of a shared value", func(ctx context.Context, s *flow.Scope) (any, error) {
			m, _ := meta.Get(s)
			m["sneaky"] = true
			return nil, nil
		}, `key "meta": committed value was modified in place by stage mutate#1`},
		{"value that does not encode", func(ctx context.Context, s *flow.Scope) (any, error) {
			flow.Key[any]("fn").Set(s, func() {})
			return nil, nil
		}, `key "fn": value does not encode to JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := flow.NewBuilder("dev").Keys(meta, fn).
				Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
					meta.Set(s, map[string]any{"a": 1.0})
					return nil, nil
				}).
				Stage("mutate", tt.body).MustBuild()
			if _, err := c.Run(context.Background(), nil); err != nil {
				t.Fatalf("without dev checks the run passes, got %v", err)
			}
			_, err := c.Run(context.Background(), nil, flow.WithDevChecks())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestManyKeysInOneStage(t *testing.T) {
	const n = 60
	keys := make([]flow.KeyDecl, n)
	for i := range keys {
		keys[i] = flow.Key[int](fmt.Sprint("k", i))
	}
	c := flow.NewBuilder("many").Keys(keys...).
		Stage("write", func(ctx context.Context, s *flow.Scope) (any, error) {
			for i := range n {
				flow.Key[any](fmt.Sprint("k", i)).Set(s, i)
				flow.Key[any](fmt.Sprint("k", i)).Set(s, i+1) // rewrite: read-your-writes sees the last
			}
			sum := 0
			for i := range n {
				v, _ := s.Get(fmt.Sprint("k", i))
				sum += v.(int)
			}
			for i := range n { // re-reads are not listed twice
				_, _ = s.Get(fmt.Sprint("k", i))
			}
			return sum, nil
		}).MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := n * (n + 1) / 2; res.Output != want {
		t.Errorf("sum = %v, want %d", res.Output, want)
	}
	cm := res.Record.Commits[1]
	if len(cm.Reads) != n || len(cm.Ops) != 2*n || cm.Reads[n-1] != fmt.Sprint("k", n-1) {
		t.Errorf("reads %d ops %d", len(cm.Reads), len(cm.Ops))
	}
}
