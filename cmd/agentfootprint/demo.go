// This file holds `agentfootprint demo`: the built-in operations-triage scenario, run offline
// on the scripted model through the same runner as `scenario run`.

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/spf13/cobra"
)

func newDemoCmd() *cobra.Command {
	var asJSON, printFile bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the built-in operations-triage scenario offline (no key, no network)",
		Long: "demo runs an operations-triage agent on the scripted model: the model checks a service,\n" +
			"then looks for a deploy and searches the logs; the log store does not hold the hour it\n" +
			"searched. The model is served that verdict, the results layer files it, the answer carries\n" +
			"the limits block and its standing is not sure. It prints the question, each step and the\n" +
			"answer; --json prints the run as `scenario run --json` does. The demo is itself a scenario\n" +
			"file: --scenario prints it, to copy and change.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if printFile {
				_, err := cmd.OutOrStdout().Write(scenario.DemoFile())
				return err
			}
			f, err := scenario.Demo()
			if err != nil {
				return fmt.Errorf("the built-in demo scenario is malformed: %w", err)
			}
			return runScenario(cmd, f, asJSON, writeDemo)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run as one JSON object")
	cmd.Flags().BoolVar(&printFile, "scenario", false, "print the demo's scenario file instead of running it")
	return cmd
}

// writeDemo prints the transcript, then where the evidence is.
func writeDemo(rep *scenario.Report, w io.Writer) error {
	if err := rep.WriteTranscript(w); err != nil {
		return err
	}
	var ids []string
	if rep.Record != nil && rep.Record.Log != nil {
		for _, c := range rep.Record.Log.Commits {
			ids = append(ids, c.RuntimeStageID)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nRecorded: %d commits, %d events, %d coverage row(s). The commits, in order:\n", len(ids), len(rep.Events), len(rep.CoverageDeclared))
	for i := 0; i < len(ids); i += 8 {
		fmt.Fprintf(&b, "  %s\n", strings.Join(ids[i:min(i+8, len(ids))], " "))
	}
	b.WriteString("`demo --json` prints the whole run; `demo --scenario > triage.json` writes this demo as a\n" +
		"scenario file, and `agentfootprint scenario run triage.json` runs it with its events and record.\n")
	_, err := io.WriteString(w, b.String())
	return err
}
