// This file holds `agentfootprint explain` and `agentfootprint ablate`: the
// backtrack chain of a recorded run, and the ablation probe of one suspect,
// read from a record file or, by run id, from the store (--store).

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/spf13/cobra"
)

func newExplainCmd() *cobra.Command {
	var from, target string
	var asJSON, missing bool
	cmd := &cobra.Command{
		Use:   "explain RUN|FILE",
		Short: "Walk a recorded answer back to the context that produced it",
		Long: "explain reads a run record and prints the backtrack chain from the final answer (or from\n" +
			"the model call named with --from, such as call-llm#4): the call that produced it, what the call\n" +
			"read, and for every content-bearing suspect where it landed in the request (with its byte\n" +
			"span), why it was allowed in, and where it was defined. Everything comes from the record.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rec, err := loadRecord(commandContext(cmd), target, args[0])
			if err != nil {
				return inputError(cmd, err)
			}
			if missing {
				if err := missingRecord(cmd.OutOrStdout(), rec, from, asJSON); err != nil {
					return inputError(cmd, err)
				}
				return nil
			}
			if err := explainRecord(cmd.OutOrStdout(), rec, from, asJSON); err != nil {
				return inputError(cmd, err)
			}
			if !asJSON {
				fmt.Fprintf(cmd.OutOrStdout(), "\n%s   shows this run as a web page, the backtrack included\n", lensHint(args[0], target))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "answer", `where to start: "answer" or a model call step id such as call-llm#4`)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the chain as JSON (format agentfootprint-go.backtrack/1)")
	cmd.Flags().BoolVar(&missing, "missing", false, "print what was available to the call but never sent, and what never fired")
	addStoreFlag(cmd, &target)
	return cmd
}

// missingRecord prints the missing context of the call named by from.
func missingRecord(w io.Writer, rec *agent.Record, from string, asJSON bool) error {
	var target explain.Target
	if from != "" && from != "answer" {
		target.Step = from
	}
	m, err := explain.MissingContext(rec, target)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(w, m)
	}
	fmt.Fprintf(w, "%s: %d available, %d sent\n", m.Call, m.AvailableCount, m.SentCount)
	for _, d := range m.Dropped {
		reason := d.Reason
		if reason == "" {
			reason = "no reason recorded"
		}
		fmt.Fprintf(w, "DROPPED  %s (%s): %s — %q\n", d.ID, d.Kind, reason, preview(d.Text, 80))
	}
	for _, in := range m.Inactive {
		fmt.Fprintf(w, "INACTIVE %s (%s): trigger %s", in.ID, in.Kind, in.Trigger.Kind)
		if in.Trigger.Label != "" {
			fmt.Fprintf(w, " %q", in.Trigger.Label)
		}
		for _, r := range in.Trigger.Reads {
			fmt.Fprintf(w, " (read %s ← %s)", r.Key, r.Writer)
		}
		fmt.Fprintln(w)
	}
	if len(m.Flags) > 0 {
		fmt.Fprintf(w, "flags: %s\n", strings.Join(m.Flags, ", "))
	}
	fmt.Fprintf(w, "limit: %s\n", m.Limit)
	return nil
}

// explainRecord prints the chain of rec from from ("answer" or a call step).
func explainRecord(w io.Writer, rec *agent.Record, from string, asJSON bool) error {
	var target explain.Target
	if from != "" && from != "answer" {
		target.Step = strings.TrimPrefix(from, "call ")
	}
	ch, err := explain.Backtrack(rec, target)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(w, ch)
	}
	ranked, err := explain.Rank(rec, target)
	if err != nil {
		return err
	}
	conf := explain.RankingConfidence(ranked, nil)
	scores := map[string]float64{}
	for _, r := range ranked {
		scores[r.ID] = r.Score
	}
	fmt.Fprintf(w, "ANSWER   %s (commit %d", ch.Answer.Step, ch.Answer.Commit)
	if ch.Answer.Via != "" {
		fmt.Fprintf(w, ", made final by %s", ch.Answer.Via)
	}
	fmt.Fprintf(w, "): %q\n", preview(ch.Answer.Text, 120))
	for _, r := range ch.Read {
		fmt.Fprintf(w, "READ     %s ← %s (commit %d)\n", r.Key, r.Writer, r.Commit)
	}
	for i, s := range ch.Suspects {
		fmt.Fprintf(w, "\n#%d %s  score %.3f\n", i+1, s.Unit, scores[s.Unit])
		fmt.Fprintf(w, "  LANDED   %s %s%s, %s slot position %d", s.Landed.Step, s.Landed.Key, s.Landed.Pointer, s.Landed.Slot, s.Landed.Position)
		if sp := s.Landed.Span; sp != nil {
			fmt.Fprintf(w, ", bytes [%d, %d) of request %s", sp.Start, sp.End, short(sp.RequestSha256))
		}
		fmt.Fprintln(w)
		switch {
		case s.Allowed.Trigger != nil:
			fmt.Fprintf(w, "  ALLOWED  %s trigger %s", s.Allowed.Step, s.Allowed.Trigger.Kind)
			if s.Allowed.Trigger.Label != "" {
				fmt.Fprintf(w, " %q", s.Allowed.Trigger.Label)
			}
			for _, r := range s.Allowed.Trigger.Reads {
				fmt.Fprintf(w, " (read %s ← %s)", r.Key, r.Writer)
			}
			fmt.Fprintln(w)
		case s.Allowed.ToolCall != nil:
			tc := s.Allowed.ToolCall
			fmt.Fprintf(w, "  ALLOWED  %s asked for %s (%s)", s.Allowed.Step, tc.Name, tc.ID)
			if tc.Status != "" {
				fmt.Fprintf(w, ", status %s", tc.Status)
			}
			if tc.Error {
				fmt.Fprint(w, ", error")
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "  BORN     %s %s %s", s.Born.Step, s.Born.Kind, short(s.Born.ContentHash))
		if d := s.Born.DefinedAt; d != nil {
			fmt.Fprintf(w, " defined at %s:%d (%s)", d.File, d.Line, d.Function)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nranking: %s\n", conf.Reason)
	if len(ch.Flags) > 0 {
		fmt.Fprintf(w, "flags: %s\n", strings.Join(ch.Flags, ", "))
	}
	return nil
}

func newAblateCmd() *cobra.Command {
	var without []string
	var target string
	var samples int
	var asJSON bool
	var compare string
	cmd := &cobra.Command{
		Use:   "ablate RUN|FILE --without ID",
		Short: "Rerun a recorded turn without a suspect and report whether the answer changes",
		Long: "ablate reruns a recorded turn N times with the suspect removed (a unit id, tool:NAME, or\n" +
			"force:ID to restore a unit) in a frozen world: recorded tool outputs are replayed and the\n" +
			"clock is held. Rebuilding an agent needs its code (tool functions, rule predicates), so the\n" +
			"command works on runs whose agent this binary can rebuild (see rebuildAgent).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rec, err := loadRecord(commandContext(cmd), target, args[0])
			if err != nil {
				return inputError(cmd, err)
			}
			if len(without) == 0 {
				return inputError(cmd, errors.New("--without names no suspect"))
			}
			bp, live, err := rebuildAgent(rec)
			if err != nil {
				return inputError(cmd, err)
			}
			cmp, err := comparatorFor(compare)
			if err != nil {
				return inputError(cmd, err)
			}
			return ablateRecord(cmd.Context(), cmd.OutOrStdout(), rec, bp, live, without, samples, cmp, asJSON)
		},
	}
	cmd.Flags().StringSliceVar(&without, "without", nil, "the suspect to remove: a unit id, tool:NAME, message:INDEX or force:ID (repeatable)")
	cmd.Flags().IntVar(&samples, "samples", 3, "reruns per probe (at least 2)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON (format agentfootprint-go.ablation/1)")
	addStoreFlag(cmd, &target)
	cmd.Flags().StringVar(&compare, "compare", "similarity", `what counts as a changed answer: "similarity" (word overlap below 0.8) or "first-word" (a different leading label such as APPROVED)`)
	return cmd
}

// comparatorFor returns the comparator named by --compare.
func comparatorFor(name string) (explain.Comparator, error) {
	switch name {
	case "", "similarity":
		return explain.DefaultComparator, nil
	case "first-word":
		return func(original, candidate string) bool { return firstWord(original) != firstWord(candidate) }, nil
	}
	return nil, fmt.Errorf("--compare %q: want similarity or first-word", name)
}

// firstWord is the leading run of letters and digits of s, upper-cased.
func firstWord(s string) string {
	s = strings.TrimSpace(s)
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if end >= 0 {
		s = s[:end]
	}
	return strings.ToUpper(s)
}

// rebuildAgent returns the construction inputs and model of the agent that wrote rec. This
// binary can rebuild the agents of its built-in demo parts (matched by the record's agent
// id, which a scenario sets to its name); any other agent's tools and predicates are code
// that only its own program holds.
func rebuildAgent(rec *agent.Record) (explain.Blueprint, llm.Provider, error) {
	for _, load := range []func() (*scenario.File, error){scenario.Demo, scenario.LookbackDemo} {
		f, err := load()
		if err != nil {
			return explain.Blueprint{}, nil, err
		}
		if f.Name() != rec.Manifest.AgentID {
			continue
		}
		p, err := f.Parts()
		if err != nil {
			return explain.Blueprint{}, nil, err
		}
		return explain.Blueprint{Units: p.Units, Tools: p.Tools, Options: p.Options}, p.Provider, nil
	}
	return explain.Blueprint{}, nil, fmt.Errorf("this binary cannot rebuild agent %q (its tools and predicates are code); call explain.Probe from Go with the agent's Blueprint", rec.Manifest.AgentID)
}

// parseSpec reads one --without value.
func parseSpec(s string) (explain.Spec, error) {
	kind, id, ok := strings.Cut(s, ":")
	if !ok {
		return explain.Unit(s), nil
	}
	switch kind {
	case "unit":
		return explain.Unit(id), nil
	case "tool":
		return explain.Tool(id), nil
	case "force":
		return explain.Force(id), nil
	case "message":
		var n int
		if _, err := fmt.Sscan(id, &n); err != nil {
			return explain.Spec{}, fmt.Errorf("--without %s: the message index is not a number", s)
		}
		return explain.Message(n), nil
	}
	return explain.Spec{}, fmt.Errorf("--without %s: unknown kind %q (want unit, tool, message or force)", s, kind)
}

// ablateRecord probes each suspect of without on the agent built from bp,
// in the frozen world of rec, and prints the report.
func ablateRecord(ctx context.Context, w io.Writer, rec *agent.Record, bp explain.Blueprint, live llm.Provider, without []string, samples int, cmp explain.Comparator, asJSON bool) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var specs []explain.Spec
	for _, s := range without {
		sp, err := parseSpec(s)
		if err != nil {
			return err
		}
		specs = append(specs, sp)
	}
	world, err := explain.FrozenWorld(rec, live)
	if err != nil {
		return err
	}
	rep, err := explain.Probe(ctx, rec, bp, world, explain.ProbeOptions{Samples: samples, Suspects: specs, Comparator: cmp})
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(w, rep)
	}
	fmt.Fprintf(w, "baseline: %d/%d flipped, %d distinct answers (seeds %v)\n", rep.Baseline.Flips, rep.Baseline.Samples, rep.Baseline.DistinctSamples, rep.Seeds)
	for _, s := range rep.Suspects {
		fmt.Fprintf(w, "%-14s %s %d/%d  wilson95 [%.2f, %.2f]\n  %s\n", s.Verdict, s.Kind+":"+s.ID, s.Flips, s.Samples, s.Wilson95[0], s.Wilson95[1], s.Claim)
	}
	if len(rep.Flags) > 0 {
		fmt.Fprintf(w, "flags: %s\n", strings.Join(rep.Flags, ", "))
	}
	fmt.Fprintf(w, "%d runs\n", rep.Runs)
	return nil
}

// preview cuts s to n runes.
func preview(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// short abbreviates a hash for display.
func short(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
