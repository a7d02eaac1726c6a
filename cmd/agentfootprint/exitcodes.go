// This file holds the one exit-status table every command follows, how it reaches the help
// texts, and how an error a command did not classify itself is reported.

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// The exit statuses of every command (docs/CLI.md shows the same table).
const (
	// exitNegative: a verdict the caller asked about is negative: an audit chain is invalid,
	// a scenario expectation did not hold, a run failed part way, a doctor check failed, a
	// declaration was refused.
	exitNegative = 1
	// exitUsage: the command could not do what it was asked: a usage error (a bad flag or
	// argument, an unknown suspect name), an unknown run id, a store or file that does not
	// exist, cannot be read, or is not the kind of file the command takes.
	exitUsage = 2
)

// exitTable is the exit-status table as the root help prints it.
const exitTable = `Exit status, the same for every command:
  0  done, and every verdict asked about is positive
  1  a verdict you asked about is negative: an invalid audit chain, an expectation that did
     not hold, a run that failed (or whose model's host does not answer), a doctor check
     that failed, a refused declaration
  2  nothing to judge: a usage error (bad flag, argument or suspect name), an unknown run id,
     a missing store, or a file that cannot be read or is not the kind the command takes`

// exitLine is the one line every subcommand's help ends with.
const exitLine = "Exit status: 0 ok, 1 a negative verdict, 2 a usage error, unknown id or unreadable or\n" +
	"wrong kind of file (see `agentfootprint --help`)."

// applyExitTable puts the table in the root help and the one-line summary at the end of
// every subcommand's help, so no command documents a status of its own.
func applyExitTable(root *cobra.Command) {
	root.Long = strings.TrimSpace(root.Long+"\n\n"+exitTable) + "\n"
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Long == "" {
				sub.Long = sub.Short + "."
			}
			sub.Long = strings.TrimRight(sub.Long, "\n") + "\n\n" + exitLine
			walk(sub)
		}
	}
	walk(root)
}

// reportUnclassified prints an error no command classified (cobra's own refusals: an
// unknown command or flag, a wrong number of arguments) and returns exitUsage.
func reportUnclassified(w io.Writer, err error) int {
	fmt.Fprintf(w, "agentfootprint: %v\n(`agentfootprint --help` lists the commands; `agentfootprint COMMAND --help` its flags)\n", err)
	return exitUsage
}
