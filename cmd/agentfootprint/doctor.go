// This file holds `agentfootprint doctor`: check a model provider's configuration (key,
// server, model) without sending a prompt, and say what to fix.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/providers"
	"github.com/spf13/cobra"
)

// doctorReport is one provider's checks, as `doctor --json` prints them.
type doctorReport struct {
	Provider string          `json:"provider"`
	Model    string          `json:"model"`
	BaseURL  string          `json:"baseUrl,omitempty"`
	Checks   []llm.Diagnosis `json:"checks"`
}

func newDoctorCmd() *cobra.Command {
	var cfg providers.Config
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor [--provider P] [--model M] [--base-url U]",
		Short: "Check a model provider's configuration and say what to fix",
		Long: "doctor checks a provider configuration the way a run would use it: that a key is set\n" +
			"(keys come from " + keyEnvList() + "), that something answers at the\n" +
			"base URL, and that the model is available there. It sends no prompt. Without --provider\n" +
			"it checks every provider. Each check prints OK, FAIL or SKIP with one sentence: FAIL says\n" +
			"what to change, SKIP says why the check could not run here (it neither passed nor\n" +
			"failed). A failed check exits 1; skipped ones do not.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			names := providers.Names()
			if cfg.Provider != "" {
				if err := knownProvider(cfg.Provider); err != nil {
					return inputError(cmd, err)
				}
				names = []string{cfg.Provider}
			} else if cfg.BaseURL != "" {
				return inputError(cmd, errors.New("--base-url needs --provider (the URL belongs to one provider)"))
			}
			if cfg.Timeout <= 0 {
				return inputError(cmd, fmt.Errorf("--timeout %s: want a positive duration", cfg.Timeout))
			}
			ctx := commandContext(cmd)
			reports := make([]doctorReport, 0, len(names))
			failed := 0
			for _, name := range names {
				c := cfg
				c.Provider = name
				r := diagnoseProvider(ctx, c)
				for _, d := range r.Checks {
					if !d.OK && !d.Skipped {
						failed++
					}
				}
				reports = append(reports, r)
			}
			var err error
			if asJSON {
				err = printJSON(cmd.OutOrStdout(), reports)
			} else {
				err = writeDoctor(cmd.OutOrStdout(), reports, failed)
			}
			if err != nil {
				return err
			}
			if failed > 0 {
				return &exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&cfg.Provider, "provider", "", "the provider to check: "+strings.Join(providers.Names(), ", ")+" (default: all)")
	cmd.Flags().StringVar(&cfg.Model, "model", "", "the model to look for")
	cmd.Flags().StringVar(&cfg.BaseURL, "base-url", "", "the server to check instead of the provider's default (or its *_BASE_URL / OLLAMA_HOST variable)")
	cmd.Flags().DurationVar(&cfg.Timeout, "timeout", 10*time.Second, "give up on a check after this long")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the checks as JSON")
	return cmd
}

// diagnoseProvider runs the provider's self-check within cfg.Timeout. A configuration the
// client refuses (unknown provider, no model) is one failed "config" check.
func diagnoseProvider(ctx context.Context, cfg providers.Config) doctorReport {
	r := doctorReport{Provider: cfg.Provider, Model: cfg.Model}
	if c, err := providers.Open(cfg); err == nil {
		r.BaseURL = c.BaseURL()
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	r.Checks = providers.Diagnose(ctx, cfg)
	return r
}

// writeDoctor prints each provider's checks, the fix for each failure, and a summary.
func writeDoctor(w io.Writer, reports []doctorReport, failed int) error {
	var b strings.Builder
	for i, r := range reports {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(r.Provider)
		switch {
		case r.Model != "" && r.BaseURL != "":
			fmt.Fprintf(&b, ": model %s at %s", r.Model, r.BaseURL)
		case r.Model != "":
			fmt.Fprintf(&b, ": model %s", r.Model)
		}
		b.WriteByte('\n')
		for _, d := range r.Checks {
			mark := "OK  "
			switch {
			case d.Skipped:
				mark = "SKIP"
			case !d.OK:
				mark = "FAIL"
			}
			fmt.Fprintf(&b, "  %s  %-7s %s\n", mark, d.Check, d.Message)
			if fix := cliFix(r, d); fix != "" {
				fmt.Fprintf(&b, "                fix: %s\n", fix)
			}
		}
	}
	skipped := 0
	for _, r := range reports {
		for _, d := range r.Checks {
			if d.Skipped {
				skipped++
			}
		}
	}
	switch {
	case failed == 0 && skipped == 0:
		b.WriteString("\nEvery check passed.\n")
	case failed == 0:
		fmt.Fprintf(&b, "\nEvery check that ran passed; %d could not run here (SKIP).\n", skipped)
	default:
		fmt.Fprintf(&b, "\n%d check(s) failed.\n", failed)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cliFix is the command-line form of the fix for a failed check, when the client's sentence
// speaks in Go options rather than in what a person at a shell does.
func cliFix(r doctorReport, d llm.Diagnosis) string {
	if d.OK || d.Skipped {
		return ""
	}
	switch d.Check {
	case "key":
		if env := providers.KeyEnv(r.Provider); env != "" {
			return "export " + env + "=<your key>"
		}
	case "model":
		if r.Model == "" {
			return "name the model with --model"
		}
	}
	return ""
}

// keyEnvList names the key variables of the providers that use one.
func keyEnvList() string {
	var envs []string
	for _, p := range providers.Names() {
		if env := providers.KeyEnv(p); env != "" {
			envs = append(envs, env)
		}
	}
	return strings.Join(envs, " and ")
}
