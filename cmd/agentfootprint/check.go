// This file holds `agentfootprint check`: it reads one tool result as JSON and prints what the
// framework makes of it — what it recognized, what it records, what it dropped and what the model
// is served.

package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/internal/coverread"
)

func newCheckCmd() *cobra.Command {
	var asJSON bool
	var tool string
	cmd := &cobra.Command{
		Use:   "check [FILE|-]",
		Short: "Show what the framework records and serves for one tool result",
		Long: "check reads one tool result as JSON from FILE or standard input and prints what the\n" +
			"framework makes of it: the envelope it recognized, the call's status, the declarations it\n" +
			"records (with each period's verdict), the declarations it left off the record and why,\n" +
			"and the JSON the model is served.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := readInput(cmd, args)
			if err != nil {
				return inputError(cmd, err)
			}
			v, err := wire.DecodeJSON(data)
			if err != nil {
				return inputError(cmd, err)
			}
			report := checkReport(v, tool)
			if asJSON {
				return printJSON(cmd.OutOrStdout(), report)
			}
			return printCheckText(cmd.OutOrStdout(), report)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&tool, "tool", "tool", "the tool name the result is read for")
	addMaxInputFlag(cmd)
	return cmd
}

// checkReport builds the --json report: recognized, status?, declared, verdict?, problems, served.
func checkReport(v any, tool string) wire.Object {
	b := boundary.Read(v, tool, nil)
	report := wire.Object{{Key: "recognized", Value: b.Recognized}}
	if b.Absent {
		report = append(report, wire.Member{Key: "status", Value: "absent"}) // the status (tool.StatusAbsent) an absence gives its call
	}
	declared := []any{}
	for _, f := range b.Declared {
		declared = append(declared, declaredRow(f, tool))
	}
	report = append(report, wire.Member{Key: "declared", Value: declared})
	if verdict, ok := b.Verdict(); ok {
		report = append(report, wire.Member{Key: "verdict", Value: string(verdict)})
	}
	problems := b.Problems
	if problems == nil {
		problems = []boundary.Problem{}
	}
	return append(report,
		wire.Member{Key: "problems", Value: problems},
		wire.Member{Key: "served", Value: b.Served})
}

// declaredRow is the record row for one declaration, with its period's verdict beside the period,
// and an absence's suggestions and provenance as the tools.absent event carries them.
func declaredRow(f boundary.Facts, tool string) wire.Object {
	row := f.Row(tool, "", 0)
	o := wire.Object{{Key: "kind", Value: string(row.Kind)}, {Key: "toolName", Value: row.ToolName}}
	if row.LookedFor != "" {
		o = append(o, wire.Member{Key: "lookedFor", Value: row.LookedFor})
	}
	o = append(o,
		wire.Member{Key: "checked", Value: row.Checked},
		wire.Member{Key: "notChecked", Value: row.NotChecked},
		wire.Member{Key: "cannotCover", Value: row.CannotCover})
	if row.Period != nil {
		o = append(o, wire.Member{Key: "period", Value: row.Period})
		if v, err := coverage.VerdictOf(*row.Period); err == nil {
			o = append(o, wire.Member{Key: "verdict", Value: string(v)})
		}
	}
	if len(row.InProgress) > 0 {
		o = append(o, wire.Member{Key: "inProgress", Value: row.InProgress})
	}
	if f.TryInstead != "" {
		o = append(o, wire.Member{Key: "tryInstead", Value: f.TryInstead})
	}
	if f.TryInsteadTool != nil {
		o = append(o, wire.Member{Key: "tryInsteadTool", Value: f.TryInsteadTool})
	}
	if f.Provenance != nil {
		o = append(o, wire.Member{Key: "provenance", Value: f.Provenance})
	}
	return o
}

// printCheckText prints the report for a person.
func printCheckText(w io.Writer, report wire.Object) error {
	var b strings.Builder
	get := func(k string) any { v, _ := report.Get(k); return v }
	fmt.Fprintf(&b, "recognized: %s\n", get("recognized"))
	if s, ok := report.Get("status"); ok {
		fmt.Fprintf(&b, "status: %s\n", s)
	}
	if v, ok := report.Get("verdict"); ok {
		fmt.Fprintf(&b, "verdict: %s\n", v)
	}
	declared, _ := get("declared").([]any)
	for _, d := range declared {
		row := d.(wire.Object)
		kind, _ := row.Get("kind")
		fmt.Fprintf(&b, "declared %s:\n", kind)
		for _, k := range []string{"lookedFor", "checked", "notChecked", "cannotCover", "inProgress", "verdict"} {
			if v, ok := row.Get(k); ok {
				fmt.Fprintf(&b, "  %s: %s\n", k, compact(v))
			}
		}
		if p, ok := row.Get("period"); ok {
			tool, _ := row.Get("toolName")
			fmt.Fprintf(&b, "  Period: %s\n", coverread.PeriodLine(tool.(string), *p.(*coverage.Period)))
		}
	}
	problems, _ := get("problems").([]boundary.Problem)
	for _, p := range problems {
		fmt.Fprintf(&b, "left off the record: %s: %s\n", p.Field, p.Message)
	}
	b.WriteString("served:\n")
	// The served value can be as large as the input: it is written straight to w as it is
	// walked rather than marshalled and indented into copies first (issue 12 item 5).
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(b.String())
	if err := newJSONOut(bw, true).write(get("served"), 0); err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

func compact(v any) string {
	b, err := wire.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
