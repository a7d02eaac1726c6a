// This file holds `agentfootprint mcp`: list an MCP server's tools, call one
// and show what the framework records and serves for its result, and serve
// a scenario file's canned tools as an MCP server over stdio.

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/mcp"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

func newMCPCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Use MCP servers' tools, and serve a scenario's tools over MCP (see docs/MCP.md)",
	}
	cmd.AddCommand(newMCPToolsCmd(), newMCPCallCmd(), newMCPServeCmd())
	return cmd
}

// mcpSource reads the server from --url or the words after "--".
func mcpSource(url string, command []string) (mcp.Source, error) {
	switch {
	case url != "" && len(command) > 0:
		return mcp.Source{}, fmt.Errorf("give either --url or a command after --, not both")
	case url == "" && len(command) == 0:
		return mcp.Source{}, fmt.Errorf("name the server: --url URL, or -- COMMAND ARGS…")
	case url != "":
		return mcp.Source{URL: url}, nil
	}
	return mcp.Source{Command: command}, nil
}

// afterDash returns the arguments after "--" and those before it.
func afterDash(cmd *cobra.Command, args []string) (before, after []string) {
	if i := cmd.ArgsLenAtDash(); i >= 0 {
		return args[:i], args[i:]
	}
	return args, nil
}

func newMCPToolsCmd() *cobra.Command {
	var url string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "tools [--url URL] [-- COMMAND ARGS…]",
		Short: "List an MCP server's tools as the framework offers them",
		Long: "tools connects to an MCP server (a command started over stdio after --, or a streamable\n" +
			"HTTP endpoint with --url), lists its tools, and prints each with its description and where\n" +
			"it is defined; tools the framework cannot offer are listed with the reason.",
		RunE: func(cmd *cobra.Command, args []string) error {
			before, command := afterDash(cmd, args)
			if len(before) > 0 {
				return inputError(cmd, fmt.Errorf("unexpected arguments %q before --", before))
			}
			src, err := mcpSource(url, command)
			if err != nil {
				return inputError(cmd, err)
			}
			ctx := commandContext(cmd)
			c, err := mcp.Connect(ctx, src, mcp.WithStderr(cmd.ErrOrStderr()))
			if err != nil {
				return inputError(cmd, err)
			}
			defer c.Close()
			l, err := c.List(ctx)
			if err != nil {
				return inputError(cmd, err)
			}
			if asJSON {
				type row struct {
					Name        string          `json:"name"`
					Description string          `json:"description"`
					InputSchema json.RawMessage `json:"inputSchema"`
					DefinedAt   tool.Site       `json:"definedAt"`
					Info        mcp.ToolInfo    `json:"info"`
				}
				rows := []row{}
				for i, t := range l.Tools {
					rows = append(rows, row{t.Name(), t.Declaration().Description, t.Declaration().InputSchema, t.Declaration().DefinedAt, l.Info[i]})
				}
				skipped := l.Skipped
				if skipped == nil {
					skipped = []mcp.Skipped{}
				}
				return printJSON(cmd.OutOrStdout(), map[string]any{"server": c.Name(), "tools": rows, "skipped": skipped})
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%d tools from %s\n", len(l.Tools), c.Name())
			for _, t := range l.Tools {
				fmt.Fprintf(&b, "  %s: %s\n", t.Name(), firstLine(t.Declaration().Description))
			}
			for _, s := range l.Skipped {
				fmt.Fprintf(&b, "  not offered: %s: %s\n", s.Tool, s.Reason)
			}
			_, err = io.WriteString(cmd.OutOrStdout(), b.String())
			return err
		},
	}
	cmd.Flags().StringVar(&url, "url", "", "the server's streamable HTTP endpoint")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func newMCPCallCmd() *cobra.Command {
	var url string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "call TOOL 'JSON' [--json] [--url URL] [-- COMMAND ARGS…]",
		Short: "Call one tool of an MCP server and show what the framework records and serves",
		Long: "call connects to an MCP server, calls TOOL with the JSON arguments (validated first\n" +
			"against the server's schema), and prints what the framework makes of the result, as\n" +
			"`agentfootprint check` does: the envelope it recognized, the declarations it records, the\n" +
			"ones it left off and why, and what the model is served; then the whole result as the\n" +
			"server sent it, which is what goes on the record.\n\n" +
			"Exit status: 0 when the call returned a result, 1 when it failed, 2 for bad input.",
		RunE: func(cmd *cobra.Command, args []string) error {
			before, command := afterDash(cmd, args)
			if len(before) != 2 {
				return inputError(cmd, fmt.Errorf("give the tool's name and its JSON arguments, then -- COMMAND or --url"))
			}
			name, argText := before[0], before[1]
			if !json.Valid([]byte(argText)) {
				return inputError(cmd, fmt.Errorf("the arguments %q are not valid JSON", argText))
			}
			src, err := mcpSource(url, command)
			if err != nil {
				return inputError(cmd, err)
			}
			ctx := commandContext(cmd)
			c, err := mcp.Connect(ctx, src, mcp.WithStderr(cmd.ErrOrStderr()))
			if err != nil {
				return inputError(cmd, err)
			}
			defer c.Close()
			l, err := c.List(ctx)
			if err != nil {
				return inputError(cmd, err)
			}
			var t *tool.Tool
			for _, lt := range l.Tools {
				if lt.Name() == name {
					t = lt
				}
			}
			if t == nil {
				return inputError(cmd, fmt.Errorf("server %s offers no tool %q (see `agentfootprint mcp tools`)", c.Name(), name))
			}
			var rec *mcp.CallRecord
			callCtx := toolrun.WithCall(ctx, tool.Call{ID: "cli", Name: name, Progress: func(p any) {
				if m, ok := p.(map[string]any); ok {
					if r, ok := m["mcp"].(mcp.CallRecord); ok {
						rec = &r
					}
				}
			}})
			o := toolrun.Invoke(callCtx, t.Declaration(), json.RawMessage(argText), "")
			if !o.Ran {
				return inputError(cmd, fmt.Errorf("%s", o.Rejection.Text()))
			}
			if o.Err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "agentfootprint mcp call: %v\n", o.Err)
				return &exitError{code: 1}
			}
			report := checkReport(o.Output.Value, name)
			if o.Output.Status != "" {
				report = append(wire.Object{{Key: "callStatus", Value: string(o.Output.Status)}}, report...)
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), wire.Object{{Key: "server", Value: c.Name()}, {Key: "tool", Value: name}, {Key: "check", Value: report}, {Key: "record", Value: rec}})
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "server: %s\ntool: %s\n", c.Name(), name)
			if o.Output.Status != "" {
				fmt.Fprintf(w, "call status: %s (the server set isError)\n", o.Output.Status)
			}
			if err := printCheckText(w, report); err != nil {
				return err
			}
			if rec != nil {
				if rec.DeclaredIn != "" {
					fmt.Fprintf(w, "declarations read from: %s\n", rec.DeclaredIn)
				}
				for _, p := range rec.Problems {
					fmt.Fprintf(w, "_meta %s left off the record: %s\n", p.Key, p.Problem)
				}
				fmt.Fprintf(w, "recorded result:\n%s\n", rec.Result)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&url, "url", "", "the server's streamable HTTP endpoint")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func newMCPServeCmd() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "serve --scenario FILE",
		Short: "Serve a scenario file's canned tools as an MCP server over stdio",
		Long: "serve reads a scenario file and serves its tools, with their canned results, as an MCP\n" +
			"server on standard input and output: a test double any MCP client can use. Declarations\n" +
			"travel as the envelope in structuredContent and under _meta (see docs/MCP.md).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" {
				return inputError(cmd, fmt.Errorf("name the scenario file with --scenario FILE"))
			}
			f, err := loadScenario(cmd, []string{file})
			if err != nil {
				return err
			}
			p, err := f.Parts()
			if err != nil {
				return inputError(cmd, err)
			}
			t := &sdk.IOTransport{Reader: io.NopCloser(cmd.InOrStdin()), Writer: nopWriteCloser{cmd.OutOrStdout()}}
			if err := mcp.Serve(commandContext(cmd), t, p.Tools...); err != nil {
				return inputError(cmd, err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "scenario", "", "the scenario file whose tools to serve")
	return cmd
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
