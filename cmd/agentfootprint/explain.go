// This file holds `agentfootprint explain` and `agentfootprint ablate`: the
// backtrack chain of a recorded run, and the ablation probe of one suspect,
// read from a record file or, by run id, from the store (--store).

package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/spf13/cobra"
	"io"
	"strings"
	"unicode"
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
			if err := explainRecord(cmd.OutOrStdout(), rec, args[0], from, asJSON); err != nil {
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
func missingRecord(w io.Writer, rec *record.Record, from string, asJSON bool) error {
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

// explainRecord prints the chain of rec from from ("answer" or a call step); arg is how the
// person named the run, for the ablate line.
func explainRecord(w io.Writer, rec *record.Record, arg, from string, asJSON bool) error {
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
	if err := ch.WriteText(w); err != nil {
		return err
	}
	// The chain's suspects carry Rank's scores already, best first; the
	// ranking is not computed a second time.
	ranked := make([]explain.Ranked, len(ch.Suspects))
	for i, s := range ch.Suspects {
		ranked[i] = explain.Ranked{ID: s.Unit, Score: s.Score}
	}
	conf := explain.RankingConfidence(ranked)
	fmt.Fprintf(w, "\nranking: %s\n", byName(conf.Reason, ch.Suspects))
	if len(ch.Suspects) > 0 {
		fmt.Fprintf(w, "Each suspect is named as ablate takes it: `agentfootprint ablate %s --without %s`\n"+
			"reruns the turn without it and says whether the answer changes.\n", arg, ch.Suspects[0].Name)
	}
	return nil
}

// byName rewrites the suspect ids in a ranking sentence (history/4, a unit id) as their
// suspect names, so one sentence uses one vocabulary.
func byName(sentence string, suspects []explain.Suspect) string {
	names := map[string]string{}
	for _, s := range suspects {
		names[s.Unit] = s.Name
	}
	words := strings.Split(sentence, " ")
	for i, w := range words {
		core := strings.TrimRight(w, ",;:.)")
		if n, ok := names[core]; ok && n != "" {
			words[i] = n + w[len(core):]
		}
	}
	return strings.Join(words, " ")
}

func newAblateCmd() *cobra.Command {
	var without []string
	var target string
	var samples int
	var asJSON bool
	var compare string
	cmd := &cobra.Command{
		Use:   "ablate RUN|FILE --without NAME",
		Short: "Rerun a recorded turn without a suspect and report whether the answer changes",
		Long: "ablate reruns a recorded turn N times (--samples) with a suspect removed, in a frozen world:\n" +
			"recorded tool outputs are replayed and the clock is held. It then says, per suspect, whether\n" +
			"the answer changed in those reruns. Suspects are named as `explain` prints them:\n" +
			"  unit:ID       a context unit (a fact, instruction or steering text)\n" +
			"  tool:NAME     a tool's results (the rerun does not offer the tool)\n" +
			"  message:N     message N of the earlier conversation the turn continued\n" +
			"  force:ID      the opposite probe: place unit ID whatever its trigger\n" +
			"The ids of `explain --json` (history/N, a bare unit id) are taken too. A name that removes\n" +
			"nothing is refused with the list of what can be removed.\n\n" +
			"Rebuilding an agent needs its code (tool functions, rule predicates), so this binary can\n" +
			"ablate the runs of its built-in demo (`agentfootprint demo`); for your own agent, call\n" +
			"explain.Probe from Go with the agent's Blueprint.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rec, err := loadRecord(commandContext(cmd), target, args[0])
			if err != nil {
				return inputError(cmd, err)
			}
			if len(without) == 0 {
				return inputError(cmd, errors.New("--without names no suspect (`agentfootprint explain RUN` lists them by name)"))
			}
			bp, live, err := rebuildAgent(rec)
			if err != nil {
				return inputError(cmd, err)
			}
			cmp, err := comparatorFor(compare)
			if err != nil {
				return inputError(cmd, err)
			}
			err = ablateRecord(cmd.Context(), cmd.OutOrStdout(), rec, bp, live, without, samples, cmp, asJSON)
			var bad *badSuspectError
			switch {
			case errors.As(err, &bad):
				return inputError(cmd, errors.New(strings.TrimPrefix(bad.Error(), "explain: ")))
			case err != nil:
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: the reruns failed: %s\n", cmd.CommandPath(), strings.TrimPrefix(err.Error(), "explain: "))
				return &exitError{code: exitNegative}
			}
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&without, "without", nil, "the suspect to remove, as explain names it: unit:ID, tool:NAME, message:N, or force:ID (repeatable)")
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
func rebuildAgent(rec *record.Record) (explain.Blueprint, llm.Provider, error) {
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

// badSuspectError is a --without value ablate refuses before any rerun.
type badSuspectError struct{ err error }

func (e *badSuspectError) Error() string { return e.err.Error() }
func (e *badSuspectError) Unwrap() error { return e.err }

// ablateRecord probes each suspect of without on the agent built from bp,
// in the frozen world of rec, and prints the report.
func ablateRecord(ctx context.Context, w io.Writer, rec *record.Record, bp explain.Blueprint, live llm.Provider, without []string, samples int, cmp explain.Comparator, asJSON bool) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var specs []explain.Spec
	var given []string // given[i] is how specs[i] was written on the command line
	for _, s := range without {
		sp, err := explain.ParseSuspect(rec, bp, s)
		if err != nil {
			return &badSuspectError{err}
		}
		if _, err := explain.Ablate(bp, sp); err != nil {
			return &badSuspectError{err}
		}
		specs = append(specs, sp)
		given = append(given, s)
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
	fmt.Fprintf(w, "baseline: with nothing removed, the answer changed in %d of %d reruns (%d distinct answers; seeds %v)\n",
		rep.Baseline.Flips, rep.Baseline.Samples, rep.Baseline.DistinctSamples, rep.Seeds)
	for i, s := range rep.Suspects {
		name := s.Kind + ":" + s.ID
		if i < len(specs) { // Probe reports the given specs one each, in order
			name = specs[i].String()
			if g := given[i]; g != name {
				name += " (asked as " + g + ")"
			}
		}
		changed := fmt.Sprintf("the answer changed in %d of %d reruns", s.Flips, s.Samples)
		if s.Flips == 0 {
			changed = fmt.Sprintf("the answer did not change in any of %d reruns", s.Samples)
		}
		fmt.Fprintf(w, "%-14s %s: %s  (wilson95 [%.2f, %.2f])\n  %s\n",
			s.Verdict, name, changed, s.Wilson95[0], s.Wilson95[1], s.Claim)
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
