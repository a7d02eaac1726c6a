// This file holds the check a command makes before it runs an agent on a real model: an
// unknown provider, a missing API key and an unreachable host are three different faults,
// each named in its own words, and none of them starts a run.

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm/providers"
)

// preflightTimeout bounds the one read-only request that checks the host answers.
const preflightTimeout = 10 * time.Second

// providerFault is a configuration that cannot run, with the exit status it earns: a usage
// error (unknown provider, missing key or model) or a run that cannot start (no host).
type providerFault struct {
	code int
	msg  string
}

func (f *providerFault) Error() string { return f.msg }

// preflight checks cfg in this order and returns the opened client, or the first fault:
//
//  1. the provider is one this binary knows (the fault lists them);
//  2. a provider that needs an API key has one (the fault names the variable);
//  3. a model is named;
//  4. something answers at the provider's host (a read-only request, no prompt).
func preflight(ctx context.Context, cfg providers.Config) (providers.Client, error) {
	if err := knownProvider(cfg.Provider); err != nil {
		return nil, err
	}
	probe := cfg
	if strings.TrimSpace(probe.Model) == "" {
		probe.Model = "unnamed" // only to learn the base URL; the model is checked below
	}
	c, err := providers.Open(probe)
	if err != nil {
		return nil, &providerFault{code: exitUsage, msg: strings.TrimPrefix(err.Error(), "providers: ")}
	}
	if env := providers.KeyEnv(cfg.Provider); env != "" && cfg.APIKey == "" && os.Getenv(env) == "" && needsKey(cfg.Provider, c.BaseURL()) {
		return nil, &providerFault{code: exitUsage, msg: fmt.Sprintf("no API key for %s: set %s (export %s=<your key>)", cfg.Provider, env, env)}
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, &providerFault{code: exitUsage, msg: fmt.Sprintf("no model named for %s: name one with --model", cfg.Provider)}
	}
	if c, err = providers.Open(cfg); err != nil {
		return nil, &providerFault{code: exitUsage, msg: strings.TrimPrefix(err.Error(), "providers: ")}
	}
	// The host check is bounded like a model call: by --timeout when it is
	// shorter than the check's own bound.
	bound := preflightTimeout
	if cfg.Timeout > 0 && cfg.Timeout < bound {
		bound = cfg.Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	for _, d := range c.Diagnose(ctx) {
		if d.Check == "server" && !d.OK {
			if ctx.Err() != nil && bound == cfg.Timeout {
				return nil, &providerFault{code: exitNegative, msg: fmt.Sprintf("cannot reach %s at %s: it did not answer within the model-call timeout of %s (--timeout)", cfg.Provider, c.BaseURL(), bound)}
			}
			return nil, &providerFault{code: exitNegative, msg: fmt.Sprintf("cannot reach %s at %s: %s", cfg.Provider, c.BaseURL(), d.Message)}
		}
	}
	return c, nil
}

// knownProvider refuses a provider name this binary does not know, listing the known ones
// (and the one a typo most likely meant).
func knownProvider(name string) error {
	known := providers.Names()
	if slices.Contains(known, name) {
		return nil
	}
	msg := fmt.Sprintf("unknown provider %q: the known providers are %s", name, strings.Join(known, ", "))
	if near := nearest(name, known); near != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", near)
	}
	return &providerFault{code: exitUsage, msg: msg}
}

// needsKey reports whether the provider's server at base wants a key: Anthropic always, the
// OpenAI API itself, not a local OpenAI-compatible server.
func needsKey(provider, base string) bool {
	switch provider {
	case "anthropic":
		return true
	case "openai":
		return strings.Contains(base, "api.openai.com")
	}
	return false
}

// asProviderFault reports err as its fault's exit status.
func asProviderFault(err error) (*providerFault, bool) {
	var f *providerFault
	return f, errors.As(err, &f)
}

// nearest is the name in names within two edits of s, if exactly one is.
func nearest(s string, names []string) string {
	found := ""
	for _, n := range names {
		if editDistance(strings.ToLower(s), n) <= 2 {
			if found != "" {
				return ""
			}
			found = n
		}
	}
	return found
}

// editDistance is the Levenshtein distance of a and b, with a swap of two neighbours
// counting as one edit.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}
