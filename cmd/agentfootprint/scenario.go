// This file holds `agentfootprint scenario`: run a scenario file, check one without running
// it, and print the format's JSON Schema.

package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/spf13/cobra"
)

// Exit statuses of `scenario run` and `demo`, from the one table (exitcodes.go).
const (
	exitMismatch  = exitNegative // the run went, an expectation did not hold
	exitBadFile   = exitUsage    // the file is unreadable or malformed, or a turn was refused
	exitRunFailed = exitNegative // the run failed part way (the script ran out, a model error)
)

func newScenarioCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenario",
		Short: "Run, check and describe scenario files (see docs/SCENARIOS.md)",
	}
	cmd.AddCommand(newScenarioRunCmd(), newScenarioValidateCmd(), newScenarioSchemaCmd())
	return cmd
}

func newScenarioRunCmd() *cobra.Command {
	var asJSON bool
	var keep storeFlags
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "run FILE|-",
		Short: "Run a scenario file offline on the scripted model",
		Long: "run loads a scenario file (or standard input), runs it on the scripted model and prints the\n" +
			"answer, the tool results as served, the events and the record's stage ids. With --json it\n" +
			"prints one JSON object: answer, standing (when the results layer is armed), ledger,\n" +
			"coverageDeclared, toolMessages, events and record.\n\n" +
			"The run is not stored unless --store names a store (a SQLite file or a postgres:// URL);\n" +
			"then `show`, `explain` and `audit export` read it back by the id printed. --no-store\n" +
			"overrides --store. An expectation that did not hold, or a run that failed part way,\n" +
			"exits 1; a malformed file exits 2.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := loadScenario(cmd, args)
			if err != nil {
				return err
			}
			return runScenario(cmd, f, asJSON, keep, (*scenario.Report).WriteText, scenario.WithModelTimeout(timeout))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run as one JSON object")
	keep.register(cmd, false)
	addTraceFlags(cmd)
	addTimeoutFlag(cmd, &timeout)
	return cmd
}

func newScenarioValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE|-",
		Short: "Check a scenario file without running it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := loadScenario(cmd, args)
			if err != nil {
				return err
			}
			name := f.Name()
			if name == "" {
				name = args[0]
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s: ok\n", name)
			return err
		},
	}
}

func newScenarioSchemaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the scenario file format",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := cmd.OutOrStdout().Write(scenario.Schema())
			return err
		},
	}
}

// loadScenario reads and parses FILE (or standard input for "-").
func loadScenario(cmd *cobra.Command, args []string) (*scenario.File, error) {
	data, err := readInput(cmd, args)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %v\n", cmd.CommandPath(), err)
		return nil, &exitError{code: exitBadFile}
	}
	f, err := scenario.Parse(data)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s: %s\n", cmd.CommandPath(), args[0], describe(err))
		return nil, &exitError{code: exitBadFile}
	}
	return f, nil
}

// describe renders a refusal as "path: problem", without the package prefix.
func describe(err error) string {
	var re *scenario.RunError
	if errors.As(err, &re) {
		return re.Turn + ": the run failed: " + re.Err.Error()
	}
	var fe *scenario.FieldError
	if errors.As(err, &fe) {
		if fe.Path == "" {
			return fe.Problem
		}
		return fe.Path + ": " + fe.Problem
	}
	return err.Error()
}

// runScenario runs f, stores its run when keep says so, and prints the report as JSON or
// with text (then where the run was stored); mismatches and failures go to standard error
// and set the exit status.
func runScenario(cmd *cobra.Command, f *scenario.File, asJSON bool, keep storeFlags, text func(*scenario.Report, io.Writer) error, opts ...scenario.Option) error {
	ctx := commandContext(cmd)
	rep, runErr := scenario.Run(ctx, f, opts...)
	traceReport(cmd, rep)
	stored, kept := keep.save(cmd, rep, runErr)
	withStored := func(rep *scenario.Report, w io.Writer) error {
		if err := text(rep, w); err != nil {
			return err
		}
		_, err := io.WriteString(w, stored)
		return err
	}
	if err := reportScenario(cmd, rep, runErr, asJSON, false, withStored); err != nil {
		return err
	}
	if !kept {
		return &exitError{code: exitNotStored}
	}
	return nil
}

// reportScenario prints a run's report as JSON or with text; a failed run goes to standard
// error and sets the exit status (2 for a turn the file could not take, 1 for a run that
// failed part way), as do unmet expectations (1). A live run (a real model, whose replies
// nobody wrote) is not checked against the file's expectations.
func reportScenario(cmd *cobra.Command, rep *scenario.Report, runErr error, asJSON, live bool, text func(*scenario.Report, io.Writer) error) error {
	if rep != nil {
		var err error
		if asJSON {
			err = rep.WriteJSON(cmd.OutOrStdout())
		} else {
			err = text(rep, cmd.OutOrStdout())
		}
		if err != nil {
			return err
		}
	}
	errw := cmd.ErrOrStderr()
	if runErr != nil {
		fmt.Fprintf(errw, "%s: %s\n", cmd.CommandPath(), describe(runErr))
		var fe *scenario.FieldError
		if errors.As(runErr, &fe) {
			return &exitError{code: exitBadFile}
		}
		return &exitError{code: exitRunFailed}
	}
	if live {
		return nil
	}
	if ms := rep.Check(); len(ms) > 0 {
		fmt.Fprintf(errw, "%s: %d expectation(s) not met:\n", cmd.CommandPath(), len(ms))
		for _, m := range ms {
			fmt.Fprintf(errw, "  %s\n", m)
		}
		return &exitError{code: exitMismatch}
	}
	return nil
}
