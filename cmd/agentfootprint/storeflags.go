// This file holds the --store and --no-store pair that `demo` and `scenario run` share: when
// a run is stored, where, and the lines that say how to read it back.

package main

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/spf13/cobra"
)

// storeFlags is where a command that runs an agent keeps the run. byDefault says whether the
// run is stored when neither flag is given (demo: yes, in the default store; scenario run: no).
type storeFlags struct {
	target    string
	noStore   bool
	byDefault bool
}

// register adds --store and --no-store to cmd.
func (k *storeFlags) register(cmd *cobra.Command, byDefault bool) {
	k.byDefault = byDefault
	usage := storeFlagUsage
	if !byDefault {
		usage = "store the run here: a SQLite file path (created on first use) or a postgres:// URL (default: not stored)"
	}
	addStoreFlag(cmd, &k.target)
	cmd.Flags().Lookup("store").Usage = usage
	cmd.Flags().BoolVar(&k.noStore, "no-store", false, "do not store the run (overrides --store)")
}

// wanted reports whether the run is to be stored.
func (k storeFlags) wanted() bool {
	if k.noStore {
		return false
	}
	return k.byDefault || k.target != ""
}

// save stores rep's run when wanted and returns the lines saying where it went and how to
// read it back ("" when it was not stored). A run that could not be stored is reported on
// standard error; the run itself still counts.
func (k storeFlags) save(cmd *cobra.Command, rep *scenario.Report, runErr error) (lines string, kept bool) {
	if !k.wanted() || rep == nil || rep.Record == nil {
		return "", true
	}
	info, where, err := saveReport(commandContext(cmd), k.target, rep, runErr)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: the run was not stored: %v\n", cmd.CommandPath(), err)
		return "", false
	}
	return storedLines(info.ID, where, k.target), true
}
