// This file holds `agentfootprint mint`: it turns a declaration written as JSON (camelCase, as a
// tool author writes it) into the exact wire envelope, for tool authors in any language.

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/spf13/cobra"
)

func newMintCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "mint absent|coverage|described [FILE|-]",
		Short: "Mint a coverage envelope from a declaration written as JSON",
		Long: "mint reads one declaration as JSON (camelCase, as a tool author writes it) from FILE or\n" +
			"standard input and prints the wire envelope with its exact key order. For `coverage` the\n" +
			"input is {\"result\": ..., \"declaration\": {...}}. A refused declaration exits 1 and prints\n" +
			"the refusal; with --json it prints {\"refused\": {\"field\": ..., \"message\": ...}}.",
		Args:      cobra.RangeArgs(1, 2),
		ValidArgs: []string{"absent", "coverage", "described"},
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := readInput(cmd, args[1:])
			if err != nil {
				return inputError(cmd, err)
			}
			decoded, err := wire.DecodeJSON(data)
			if err != nil {
				return inputError(cmd, err)
			}
			var env any
			switch args[0] {
			case "absent":
				env, err = coverage.AbsentData(decoded)
			case "described":
				env, err = coverage.DescribedData(decoded)
			case "coverage":
				result, decl, perr := splitCoverageInput(decoded)
				if perr != nil {
					return inputError(cmd, perr)
				}
				env, err = coverage.WrapData(result, decl)
			default:
				return inputError(cmd, fmt.Errorf("unknown door %q: use absent, coverage or described", args[0]))
			}
			var refusal *coverage.Refusal
			if errors.As(err, &refusal) {
				return printRefusal(cmd, refusal, asJSON)
			}
			if err != nil {
				return err
			}
			return printJSON(cmd.OutOrStdout(), env)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a refusal as JSON on standard output")
	addMaxInputFlag(cmd)
	return cmd
}

// readInput reads FILE, or standard input when there is no argument or it is "-", under the
// --max-input cap.
func readInput(cmd *cobra.Command, args []string) ([]byte, error) {
	if len(args) == 0 {
		return readCapped(cmd, "-")
	}
	return readCapped(cmd, args[0])
}

// splitCoverageInput reads {"result": ..., "declaration": {...}}; result may be left out (null).
func splitCoverageInput(v any) (any, any, error) {
	o, ok := v.(wire.Object)
	if !ok {
		return nil, nil, errors.New(`the input must be an object {"result": ..., "declaration": {...}}`)
	}
	for _, k := range o.Keys() {
		if k != "result" && k != "declaration" {
			return nil, nil, fmt.Errorf(`the input has the key %q; only "result" and "declaration" are read`, k)
		}
	}
	decl, has := o.Get("declaration")
	if !has {
		return nil, nil, errors.New(`the input has no "declaration"`)
	}
	result, _ := o.Get("result")
	return result, decl, nil
}

func printRefusal(cmd *cobra.Command, r *coverage.Refusal, asJSON bool) error {
	if asJSON {
		out := wire.Object{{Key: "refused", Value: wire.Object{
			{Key: "field", Value: r.Field},
			{Key: "message", Value: r.Error()},
		}}}
		if err := printJSON(cmd.OutOrStdout(), out); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(cmd.ErrOrStderr(), r.Error())
	}
	return &exitError{code: 1}
}

// inputError reports input that could not be read as asked, with exit status 2.
func inputError(cmd *cobra.Command, err error) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: %v\n", cmd.CommandPath(), err)
	return &exitError{code: exitUsage}
}

// printJSON writes v as compact JSON (wire.Marshal's form) and a newline, streaming it.
func printJSON(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := newJSONOut(bw, false).write(v, 0); err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}
