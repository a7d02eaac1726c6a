// Command agentfootprint is the command-line face of agentfootprint-go: it runs the offline
// demo, runs scenario files, mints and checks coverage envelopes for tool authors, and reads
// stored runs back.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	deferFirstCollection(firstCollectionAt)
	if err := newRootCmd().Execute(); err != nil {
		os.Exit(exitCode(err))
	}
}

// newRootCmd builds the command tree. Every subcommand is constructed here, so the tree has
// no package-level state and tests can build a fresh one per case.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "agentfootprint",
		Short: "The explainable agent framework for Go",
		Long: "agentfootprint runs agents whose every step is recorded, and reads those records back:\n" +
			"`demo` and `scenario run` run agents offline, `serve` serves conversations over HTTP,\n" +
			"`show`, `explain`, `ablate` and `lens` read a stored run, `trace` exports one as OpenTelemetry\n" +
			"spans and `audit` as a hash chain, `mcp` uses and serves MCP tools, and `mint` and `check`\n" +
			"help tool authors (docs/CLI.md).",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(
		// subcommands: one constructor per file
		newMintCmd(),
		newCheckCmd(),
		newDemoCmd(),
		newScenarioCmd(),
		newExplainCmd(),
		newAblateCmd(),
		newDoctorCmd(),
		newRunsCmd(),
		newShowCmd(),
		newAuditCmd(),
		newLensCmd(),
		newTraceCmd(),
		newMCPCmd(),
		newServeCmd(),
	)
	applyExitTable(root)
	return root
}

// exitError carries a chosen exit status out of a command; its message has already been
// printed by the command itself.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// exitCode is the status for err: the one an *exitError carries, else exitUsage (see
// exitcodes.go).
func exitCode(err error) int {
	if e, ok := err.(*exitError); ok {
		return e.code
	}
	return reportUnclassified(os.Stderr, err)
}
