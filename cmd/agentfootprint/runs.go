// This file holds `agentfootprint runs` (list the stored runs) and `agentfootprint show`
// (one stored run: its manifest, its stages in order, its tool calls and its answer).

package main

import (
	"encoding/json"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
	"github.com/agentfootprint/agentfootprint-go/store"
	"github.com/spf13/cobra"
	"io"
	"strings"
	"text/tabwriter"
	"time"
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

// runError reports a store or record the command could not read (a missing store, an
// unknown run id, an unreadable record) with exitUsage: there was nothing to judge.
func runError(cmd *cobra.Command, err error) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: %v\n", cmd.CommandPath(), err)
	return &exitError{code: exitUsage}
}

func newShowCmd() *cobra.Command {
	var target string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show RUN",
		Short: "Show one stored run: manifest, stages, tool calls, answer, standing and limits",
		Long: "show prints a stored run: who ran it with what, its stages in the order they committed,\n" +
			"each tool call with what the model was served, the answer, the answer's standing (what\n" +
			"the run concluded about how far the answer can be trusted, each reason with what it\n" +
			"means) and the limits block the answer carries. --json prints one object: run (the\n" +
			"header), standing (null when the run reported none), limits (\"\" when the answer carries\n" +
			"no block) and record (format agentfootprint-go.record/4, blobs included); `explain FILE`\n" +
			"reads that output as it reads a record file.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			run, err := getRun(commandContext(cmd), target, args[0])
			if err != nil {
				return runError(cmd, err)
			}
			rec, err := store.DecodeRecord(run)
			if err != nil {
				return runError(cmd, err)
			}
			if asJSON {
				return writeRunJSON(cmd.OutOrStdout(), run.RunInfo, rec)
			}
			return writeRun(cmd.OutOrStdout(), run.RunInfo, rec)
		},
	}
	addStoreFlag(cmd, &target)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the header, standing, limits and record as one JSON object")
	return cmd
}

// writeRun prints a stored run for a person.
func writeRun(w io.Writer, info store.RunInfo, rec *record.Record) error {
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

	calls := toolCalls(rec.Events.Slice())
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

	fmt.Fprintf(&b, "\nEvents: %d", rec.Events.Len())
	if rec.DroppedEvents > 0 {
		fmt.Fprintf(&b, " (%d more dropped)", rec.DroppedEvents)
	}
	fmt.Fprintf(&b, ". Blobs: %d.\n", len(rec.Blobs))

	answer, block := splitLimits(info.Answer)
	switch {
	case answer != "":
		b.WriteString("\nAnswer:\n")
		for _, line := range strings.Split(answer, "\n") {
			b.WriteString(strings.TrimRight("  "+line, " ") + "\n")
		}
	default:
		fmt.Fprintf(&b, "\nNo answer (the run is %s).\n", info.Status)
	}
	b.WriteByte('\n')
	if a := assessmentOf(rec); a != nil {
		reasons, checked := standingWords(a)
		if err := writeStanding(&b, a.Standing, reasons, checked); err != nil {
			return err
		}
	} else {
		b.WriteString("Standing: not reported (the run's results layer was not armed, or the run did not finish).\n")
	}
	if block != "" {
		b.WriteString("\nLimits (the block the answer carries):\n")
		for _, line := range strings.Split(block, "\n") {
			b.WriteString(strings.TrimRight("  "+line, " ") + "\n")
		}
	} else {
		b.WriteString("\nLimits: the answer carries no limits block.\n")
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

// splitLimits cuts the limits block off an answer: the text before it and the block from its
// heading on ("" when the answer carries none). limitsblock.Attach puts the block after a "---"
// line, so that separator goes too.
func splitLimits(answer string) (string, string) {
	i := strings.Index(answer, limits.Heading)
	if i < 0 {
		return answer, ""
	}
	text := strings.TrimRight(answer[:i], "\n ")
	text = strings.TrimRight(strings.TrimSuffix(text, "---"), "\n ")
	return text, strings.TrimRight(answer[i:], "\n")
}

// shownRun is `show --json`: the header, the standing the run reported, the limits block
// and the record.
type shownRun struct {
	Run      store.RunInfo  `json:"run"`
	Standing *shownStanding `json:"standing"`
	Limits   string         `json:"limits"`
	Record   *record.Record `json:"record"`
}

// shownStanding is the standing with each reason's meaning.
type shownStanding struct {
	Standing string        `json:"standing"`
	Meaning  string        `json:"meaning"`
	Reasons  []shownReason `json:"reasons"`
	Checked  []event.Check `json:"checked"`
}

// shownReason is one reason word with its sentence and the record pointers it rests on.
type shownReason struct {
	Reason  string           `json:"reason"`
	Meaning string           `json:"meaning"`
	Witness []assess.Pointer `json:"witness"`
}

// writeRunJSON prints the run as `show --json` does.
func writeRunJSON(w io.Writer, info store.RunInfo, rec *record.Record) error {
	out := shownRun{Run: info, Record: rec}
	_, out.Limits = splitLimits(info.Answer)
	if a := assessmentOf(rec); a != nil {
		st := &shownStanding{Standing: a.Standing, Meaning: meaningOf(standingMeaning, a.Standing), Reasons: []shownReason{}}
		_, st.Checked = standingWords(a)
		for _, r := range a.Reasons {
			st.Reasons = append(st.Reasons, shownReason{Reason: r.Reason, Meaning: meaningOf(reasonMeaning, r.Reason), Witness: r.Witness})
		}
		out.Standing = st
	}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}
