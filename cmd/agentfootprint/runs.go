// This file holds `agentfootprint runs` (list the stored runs) and `agentfootprint show`
// (one stored run: its manifest, its stages in order, its tool calls and its answer).

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/agentfootprint/agentfootprint-go/store/runrecord"
	"github.com/spf13/cobra"
)

func newRunsCmd() *cobra.Command {
	var target string
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List the stored runs, newest first",
		Long: "runs lists the runs kept in the store: id, start time (UTC), how the run ended and the\n" +
			"start of its answer. --json prints the same headers as a JSON array.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 0 {
				return inputError(cmd, fmt.Errorf("--limit %d: want 0 (no limit) or more", limit))
			}
			ctx := commandContext(cmd)
			st, where, err := openStore(ctx, target)
			if err != nil {
				return runError(cmd, err)
			}
			defer st.Close()
			infos, err := st.ListRuns(ctx, store.Filter{Limit: limit})
			if err != nil {
				return runError(cmd, fmt.Errorf("listing the runs in %s: %w", where, err))
			}
			if asJSON {
				if infos == nil {
					infos = []store.RunInfo{}
				}
				return printJSON(cmd.OutOrStdout(), infos)
			}
			return writeRuns(cmd.OutOrStdout(), infos, where)
		},
	}
	addStoreFlag(cmd, &target)
	cmd.Flags().IntVar(&limit, "limit", 20, "list at most this many runs (0: all)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run headers as a JSON array")
	return cmd
}

// writeRuns prints one line per run.
func writeRuns(w io.Writer, infos []store.RunInfo, where string) error {
	if len(infos) == 0 {
		_, err := fmt.Fprintf(w, "No runs in %s yet; `agentfootprint demo` stores one.\n", where)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSTARTED (UTC)\tSTATUS\tANSWER")
	for _, r := range infos {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.StartedAt.UTC().Format(time.DateTime), r.Status, oneLine(r.Answer, 60))
	}
	return tw.Flush()
}

// oneLine puts s on one line and cuts it to n runes.
func oneLine(s string, n int) string {
	return preview(strings.Join(strings.Fields(s), " "), n)
}

// runError reports a failure that is not the caller's input, with exit status 1.
func runError(cmd *cobra.Command, err error) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "agentfootprint %s: %v\n", cmd.Name(), err)
	return &exitError{code: 1}
}

func newShowCmd() *cobra.Command {
	var target string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show RUN",
		Short: "Show one stored run: manifest, stages, tool calls and answer",
		Long: "show prints a stored run: who ran it with what, its stages in the order they committed,\n" +
			"each tool call with what the model was served, and the answer. --json prints the run\n" +
			"record (format agentfootprint-go.record/1), blobs included. An unknown id exits 1.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			run, err := getRun(commandContext(cmd), target, args[0])
			if err != nil {
				return runError(cmd, err)
			}
			rec, err := runrecord.Decode(run)
			if err != nil {
				return runError(cmd, err)
			}
			if asJSON {
				data, err := json.Marshal(rec)
				if err != nil {
					return runError(cmd, err)
				}
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "%s\n", data)
				return err
			}
			return writeRun(cmd.OutOrStdout(), run.RunInfo, rec)
		},
	}
	addStoreFlag(cmd, &target)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run record as JSON")
	return cmd
}

// writeRun prints a stored run for a person.
func writeRun(w io.Writer, info store.RunInfo, rec *agent.Record) error {
	var b strings.Builder
	m := rec.Manifest
	fmt.Fprintf(&b, "Run %s (%s)\n", info.ID, info.Status)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  agent\t%s\n", orNone(m.AgentID))
	fmt.Fprintf(tw, "  model\t%s on %s\n", orNone(m.Model), orNone(m.Provider))
	fmt.Fprintf(tw, "  started\t%s\n", m.StartedAt)
	fmt.Fprintf(tw, "  ended\t%s\n", orNone(m.EndedAt))
	fmt.Fprintf(tw, "  turn\t%d\n", m.TurnNumber)
	for _, l := range m.Legs {
		if l.ResumedFrom != "" {
			fmt.Fprintf(tw, "  resumed from\t%s\n", l.ResumedFrom)
		}
	}
	fmt.Fprintf(tw, "  tools\t%s\n", orNone(strings.Join(m.ToolNames, ", ")))
	fmt.Fprintf(tw, "  units\t%s\n", orNone(strings.Join(m.UnitIDs, ", ")))
	o := m.Options
	fmt.Fprintf(tw, "  options\tmaxIterations %d, wrapUp %t, capture %s\n", o.MaxIterations, o.WrapUp, orNone(string(o.Capture)))
	fmt.Fprintf(tw, "  library\t%s\n", m.Library)
	tw.Flush()

	var ids []string
	if rec.Log != nil {
		for _, c := range rec.Log.Commits {
			id := c.RuntimeStageID
			if c.Error != "" {
				id += " (failed)"
			}
			ids = append(ids, id)
		}
	}
	fmt.Fprintf(&b, "\nStages (%d commits, in order):\n", len(ids))
	for i := 0; i < len(ids); i += 8 {
		fmt.Fprintf(&b, "  %s\n", strings.Join(ids[i:min(i+8, len(ids))], " "))
	}

	calls := toolCalls(rec.Events)
	fmt.Fprintf(&b, "\nTool calls (%d):\n", len(calls))
	for i, c := range calls {
		fmt.Fprintf(&b, "  %d. %s %s  [%s, %s]\n", i+1, c.name, oneLine(string(c.args), 100), c.id, c.stage)
		switch {
		case !c.done:
			b.WriteString("     no result recorded\n")
		default:
			label := "served"
			if c.err {
				label = "served (error)"
			}
			if c.status != "" {
				label += " status " + c.status
			}
			fmt.Fprintf(&b, "     %s: %s\n", label, oneLine(c.result, 160))
		}
	}

	fmt.Fprintf(&b, "\nEvents: %d", len(rec.Events))
	if rec.DroppedEvents > 0 {
		fmt.Fprintf(&b, " (%d more dropped)", rec.DroppedEvents)
	}
	fmt.Fprintf(&b, ". Blobs: %d.\n", len(rec.Blobs))

	switch {
	case info.Answer != "":
		b.WriteString("\nAnswer:\n")
		for _, line := range strings.Split(info.Answer, "\n") {
			b.WriteString(strings.TrimRight("  "+line, " ") + "\n")
		}
	default:
		fmt.Fprintf(&b, "\nNo answer (the run is %s).\n", info.Status)
	}
	fmt.Fprintf(&b, "\nagentfootprint explain %s       walks the answer back to its context\n", info.ID)
	fmt.Fprintf(&b, "agentfootprint audit export %s  writes its events as a verifiable hash chain\n", info.ID)
	_, err := io.WriteString(w, b.String())
	return err
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// shownCall is one tool call as the events tell it.
type shownCall struct {
	id, name, stage string
	args            json.RawMessage
	done, err       bool
	result, status  string
}

// toolCalls pairs the tools.start and tools.result events of a record, in call order.
// Payloads are read through their JSON form, so a live record (typed payloads) and a
// decoded one (raw JSON) read the same.
func toolCalls(evs []event.Event) []shownCall {
	var calls []shownCall
	index := map[string]int{}
	for _, e := range evs {
		switch e.Type {
		case event.ToolsStart:
			var p event.ToolsStartPayload
			if payloadAs(e.Payload, &p) {
				index[p.ToolCallID] = len(calls)
				calls = append(calls, shownCall{id: p.ToolCallID, name: p.ToolName, args: p.Args, stage: e.Meta.RuntimeStageID})
			}
		case event.ToolsResult:
			var p event.ToolsResultPayload
			if payloadAs(e.Payload, &p) {
				if i, ok := index[p.ToolCallID]; ok {
					c := &calls[i]
					c.done, c.err, c.result, c.status = true, p.Error, p.Result, p.Status
				}
			}
		}
	}
	return calls
}

// payloadAs decodes an event payload into v, reporting whether it could.
func payloadAs(payload any, v any) bool {
	raw, ok := payload.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(payload); err != nil {
			return false
		}
	}
	return json.Unmarshal(raw, v) == nil
}
