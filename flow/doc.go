// Package flow runs charts of stages and records, while they run, every read,
// write, decision and emitted event as connected evidence.
//
// # Building a chart
//
// Declare the state keys with their Go types, then list the nodes. A decider
// picks one branch with recorded evidence; a branch is a short sequence that
// falls through to the node after the decider, loops back with LoopTo, or
// ends the run when a stage calls [Scope.Break].
//
//	count := flow.Key[int]("count")
//	notes := flow.List[string]("notes")
//
//	chart, err := flow.NewBuilder("counter").
//		Keys(count, notes).
//		Stage("seed", func(ctx context.Context, s *flow.Scope) (any, error) {
//			count.Set(s, 0)
//			return nil, nil
//		}).
//		Stage("work", func(ctx context.Context, s *flow.Scope) (any, error) {
//			n, _ := count.Get(s)
//			count.Set(s, n+1)
//			notes.Append(s, fmt.Sprint("pass ", n+1))
//			s.Emit("counter.tick", func() any { return n + 1 }) // built only if heard
//			return nil, nil
//		}).
//		Decider("route", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
//			return flow.Decide(s, []flow.Rule{{
//				Label: "fewer than three passes", Branch: "again",
//				When: func(r flow.Reader) bool { n, _ := count.Get(r); return n < 3 },
//			}}, "done"), nil
//		},
//			flow.Branch("again").LoopTo("work"),
//			flow.Branch("done").Stage("finish", func(ctx context.Context, s *flow.Scope) (any, error) {
//				return notes.Get(s), nil
//			}),
//		).
//		Build()
//
//	res, err := chart.Run(ctx, nil, flow.WithObserver("bridge", &flow.Hooks{Emit: func(ev flow.Event) { /* forward ev */ }}))
//	// res.Output is the last stage's return value; res.Record the commit log.
//
// # What is recorded
//
// Every executed stage yields exactly one [Commit] (also when it fails) with
// its runtime id (stageId#n, a run-wide 0-based counter; "sub/stageId#n"
// inside a subflow), the ordered keys it read, and its write ops with the
// verbs set, merge, append (only the tail is stored) and delete. Commit 0 is
// the input commit seeding the run inputs, which are read-only. A decider's
// commit carries its [Decision] evidence, and every commit executed under a
// branch, or reached through a loop edge taken from it, carries a [Control]
// edge naming that decision. What usually repeats from one execution of a
// node to the next (names, reads, decision) lives in a [CommitDetail] that
// consecutive commits of the node share, read-only, while it stays the same.
// [ValueAt] replays any key as of any commit;
// [LastWriter], [Slice] and [ElementBirth] walk the record backwards. The
// [Record] and [Checkpoint] encode to JSON and decode back with
// [Chart.DecodeRecord] and, for a checkpoint, encoding/json.
//
// # Pausing
//
// A [Pausable] node's Execute may return a [*Pause]; the run then returns
// Result.Paused with a [Checkpoint], and [Chart.Resume] later runs the node's
// Resume with the outside input and continues without re-running anything.
//
// # Subflows, forks and observers
//
// [Builder.Mount] runs another chart as one node, with its own state and log
// (kept under the mount's runtime id in [Record.Subflows]), seeded by an
// input mapping and merged back only through the explicit ops of its output
// mapping. [Builder.Fork] and [Builder.Selector] run single-stage children
// concurrently and commit them in declaration order. [Hooks] observe the
// scope (reads, writes, commits), the flow (decisions, loops, pauses) and
// custom events from [Scope.Emit]; attach them per run with [WithObserver].
//
// # Keys and values
//
// Only declared keys can be written. Values are kept as Go values and
// encoded only when a record or checkpoint is serialised; the declaration
// ([Key], [List]) is what decodes them back. Committed values are shared and
// immutable by contract: never modify what Get returns ([WithDevChecks]
// catches it in tests). [Builder.Redact] masks secret keys in the encoded
// record, and [Chart.Structure] describes the chart as data.
package flow
