// This file holds `agentfootprint demo`: the built-in operations-triage scenarios, run offline
// on the scripted model through the same runner as `scenario run` (or, with --provider, with
// the same tools on a real model), stored so that `show` and `explain` can read it back.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/providers"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/spf13/cobra"
)

// demoPart is one of the demo's built-in scenarios.
type demoPart struct {
	title string
	load  func() (*scenario.File, error)
	file  func() []byte
}

// demoParts returns the demo's scenarios in the order `demo` runs them.
func demoParts() []demoPart {
	return []demoPart{
		{"an empty search of an hour the store does not hold", scenario.Demo, scenario.DemoFile},
		{"a look-back the tool clamped", scenario.LookbackDemo, scenario.LookbackDemoFile},
	}
}

func newDemoCmd() *cobra.Command {
	var asJSON, printFile, verbose bool
	var part int
	var keep storeFlags
	var live providers.Config
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the built-in operations-triage scenarios offline (no key, no network)",
		Long: "demo runs two operations-triage agents on the scripted model. In part 1 the model checks a\n" +
			"service, then looks for a deploy and searches the logs; the log store does not hold the hour\n" +
			"it searched. The model is served that verdict, the results layer files it, the answer carries\n" +
			"the limits block and its standing is not sure. In part 2 the person asks about 30 days and the\n" +
			"log store reads 7: the time layer files the difference and the answer ends with the line the\n" +
			"person reads, in their zone. Each part prints the question, each step and the answer.\n\n" +
			"--part 1 or --part 2 runs one part. --json prints one part's run as `scenario run --json`\n" +
			"does (part 1 unless --part 2). Each part is a scenario file: --scenario prints it, to copy\n" +
			"and change; it carries no \"$schema\" reference, since a relative one would resolve to\n" +
			"nothing where the copy lands (`agentfootprint scenario schema > scenario.schema.json`\n" +
			"writes the schema, to point an editor at).\n\n" +
			"--provider and --model run the same agents and tools on a real model instead (the scripted\n" +
			"replies are not used, the tools still serve their canned results; keys come from\n" +
			"" + keyEnvList() + "). Before anything runs, an unknown provider, a missing key and a host\n" +
			"that does not answer are each reported in their own words. `agentfootprint doctor` checks\n" +
			"such a configuration in more detail.\n\n" +
			"Each run is stored (--store, default: the SQLite file under your data directory; --no-store\n" +
			"skips it) and the commands that read it back are printed. --verbose also prints the\n" +
			"record's steps by their stage ids (the names `explain --from` and `show` use).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			all := demoParts()
			if part < 0 || part > len(all) {
				return inputError(cmd, fmt.Errorf("--part %d: want 1 or 2 (or 0 for both)", part))
			}
			parts := all
			switch {
			case part > 0:
				parts = all[part-1 : part]
			case asJSON || printFile:
				parts = all[:1]
			}
			if printFile {
				_, err := cmd.OutOrStdout().Write(withoutSchemaRef(parts[0].file()))
				return err
			}
			opts, err := demoModel(commandContext(cmd), live)
			if f, ok := asProviderFault(err); ok {
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", cmd.CommandPath(), f.msg)
				return &exitError{code: f.code}
			}
			if err != nil {
				return inputError(cmd, err)
			}
			opts = append(opts, scenario.WithModelTimeout(live.Timeout))
			for i, p := range parts {
				n := i + 1
				if part > 0 {
					n = part
				}
				if len(parts) > 1 && !asJSON {
					sep := ""
					if i > 0 {
						sep = "\n"
					}
					fmt.Fprintf(cmd.OutOrStdout(), "%s=== Part %d of %d: %s ===\n\n", sep, n, len(all), p.title)
				}
				if err := runDemoPart(cmd, p, n, opts, keep, asJSON, verbose, live.Provider != ""); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run as one JSON object (one part: 1 unless --part 2)")
	cmd.Flags().BoolVar(&printFile, "scenario", false, "print the part's scenario file instead of running it")
	cmd.Flags().IntVar(&part, "part", 0, "run only this part: 1 or 2 (0: both)")
	cmd.Flags().StringVar(&live.Provider, "provider", "", "run on a real model: "+strings.Join(providers.Names(), ", "))
	cmd.Flags().StringVar(&live.Model, "model", "", "the model to run on (with --provider)")
	cmd.Flags().StringVar(&live.BaseURL, "base-url", "", "the provider's server, for a local or OpenAI-compatible one (with --provider)")
	keep.register(cmd, true)
	cmd.Flags().BoolVar(&verbose, "verbose", false, "also print the record's steps by their stage ids")
	addTraceFlags(cmd)
	addTimeoutFlag(cmd, &live.Timeout)
	return cmd
}

// runDemoPart runs one part, stores its run as keep says, and prints it.
func runDemoPart(cmd *cobra.Command, p demoPart, n int, opts []scenario.Option, keep storeFlags, asJSON, verbose, live bool) error {
	f, err := p.load()
	if err != nil {
		return fmt.Errorf("the built-in demo scenario %d is malformed: %w", n, err)
	}
	ctx := commandContext(cmd)
	rep, runErr := scenario.Run(ctx, f, opts...)
	traceReport(cmd, rep)
	stored, kept := keep.save(cmd, rep, runErr)
	lost := !kept
	var llmErr *llm.Error
	if live && errors.As(runErr, &llmErr) {
		// A real model that cannot be reached: its sentence says what to fix.
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", cmd.CommandPath(), llmErr.Error())
		if stored != "" {
			fmt.Fprintf(cmd.ErrOrStderr(), "The failed run is kept:\n%s", stored)
		}
		return &exitError{code: 1}
	}
	text := func(rep *scenario.Report, w io.Writer) error {
		if err := writeDemo(rep, w, n, verbose); err != nil {
			return err
		}
		_, err := io.WriteString(w, stored)
		return err
	}
	if err := reportScenario(cmd, rep, runErr, asJSON, live, text); err != nil {
		return err
	}
	if lost {
		return &exitError{code: exitNotStored}
	}
	return nil
}

// exitNotStored is the status of demo and scenario run when a run ran but could not be
// stored: the transcript was printed, the evidence is gone, and a script must not read that
// as success. It is the table's 1 (the run, as the caller asked for it, failed).
const exitNotStored = 1

// demoModel returns the scenario options that run the demo on the real model live names,
// or none for the scripted model. It refuses --model or --base-url without --provider; a
// real model's configuration goes through preflight, whose faults are *providerFault.
func demoModel(ctx context.Context, live providers.Config) ([]scenario.Option, error) {
	if live.Provider == "" {
		if live.Model != "" || live.BaseURL != "" {
			return nil, errors.New("--model and --base-url choose a real model: name its --provider too")
		}
		return nil, nil
	}
	p, err := preflight(ctx, live)
	if err != nil {
		return nil, err
	}
	return []scenario.Option{scenario.WithProvider(p), scenario.WithAgentOptions(agent.WithModel(live.Model))}, nil
}

// storedLines says where the run went and how to read it back.
func storedLines(id, where, target string) string {
	flag := ""
	if target != "" {
		flag = " --store " + target
	}
	return fmt.Sprintf("\nStored as run %s in %s:\n"+
		"  agentfootprint show %s%s      its manifest, stages, tool calls and answer\n"+
		"  agentfootprint explain %s%s   the answer walked back to the context that produced it\n"+
		"  agentfootprint lens %s%s      the run as one web page: answer, story, backtrack\n",
		id, where, id, flag, id, flag, id, flag)
}

// writeDemo prints the transcript, the standing in plain words, what a covered read under a
// not-sure answer means, and where the evidence is; the record's stage ids only when verbose.
func writeDemo(rep *scenario.Report, w io.Writer, n int, verbose bool) error {
	plain := *rep
	plain.Standing = nil // printed below, with what each word means
	if err := plain.WriteTranscript(w); err != nil {
		return err
	}
	var b strings.Builder
	if a := rep.Standing; a != nil {
		reasons, checked := standingWords(a)
		b.WriteByte('\n')
		if err := writeStanding(&b, a.Standing, reasons, checked); err != nil {
			return err
		}
		b.WriteString(coveredButNotSure(rep, reasons))
	}
	if verbose {
		var ids []string
		if rep.Record != nil && rep.Record.Log != nil {
			for _, c := range rep.Record.Log.Commits {
				ids = append(ids, c.RuntimeStageID)
			}
		}
		fmt.Fprintf(&b, "\nRecorded: %d steps, %d events, %d coverage row(s). The steps by stage id, in order:\n", len(ids), len(rep.Events), len(rep.CoverageDeclared))
		for i := 0; i < len(ids); i += 8 {
			fmt.Fprintf(&b, "  %s\n", strings.Join(ids[i:min(i+8, len(ids))], " "))
		}
	} else {
		fmt.Fprintf(&b, "\nEvery step above was recorded (%d events, %d coverage row(s)); --verbose lists the steps.\n", len(rep.Events), len(rep.CoverageDeclared))
	}
	fmt.Fprintf(&b, "`demo --part %d --json` prints the whole run; `demo --part %d --scenario > part%d.json` writes\n"+
		"this part as a scenario file, and `agentfootprint scenario run part%d.json` runs it with its events\n"+
		"and record.\n", n, n, n, n)
	_, err := io.WriteString(w, b.String())
	return err
}

// coveredButNotSure explains, when a read's own verdict is covered but the answer is not sure
// because the read differs from the asked time, why both hold, and how window ends are
// printed. It is "" otherwise.
func coveredButNotSure(rep *scenario.Report, reasons []string) string {
	if !slices.Contains(reasons, "period-differs-from-asked") {
		return ""
	}
	covered := false
	for _, row := range rep.CoverageDeclared {
		if row.Period == nil {
			continue
		}
		if v, err := coverage.VerdictOf(*row.Period); err == nil && v == coverage.VerdictCovered {
			covered = true
		}
	}
	if !covered {
		return ""
	}
	return "\nWhy \"covered\" and \"not sure\" at once: the verdict beside the tool's result judges what it\n" +
		"read: the store holds all of the time the tool searched, so for that time the empty result\n" +
		"stands. The standing judges the answer against what was asked: the question asked about a\n" +
		"longer time than the tool read, and nothing was read for the rest, so the answer cannot be\n" +
		"sure about it.\n" +
		"How windows are printed: A–B runs from A up to B, the moment the window stops. Both the\n" +
		"asked window and the read stop at the moment of the question, so both print that end.\n"
}

// withoutSchemaRef drops the "$schema" line of a built-in scenario file: its path is relative
// to the repository's scenario/examples directory and resolves to nothing in a printed copy.
func withoutSchemaRef(file []byte) []byte {
	lines := strings.SplitAfter(string(file), "\n")
	out := lines[:0]
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), `"$schema":`) {
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, ""))
}
