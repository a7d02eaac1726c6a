// Package providers opens a wire client by name, for command lines and
// configuration files that say "openai", "anthropic" or "ollama".
package providers

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/anthropic"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
	"github.com/agentfootprint/agentfootprint-go/llm/ollama"
	"github.com/agentfootprint/agentfootprint-go/llm/openai"
)

// Config names a provider and how to reach it. Empty BaseURL and APIKey
// fall back to each client's environment variables and defaults.
type Config struct {
	Provider string // "openai", "anthropic" or "ollama"
	Model    string
	BaseURL  string
	APIKey   string        // ignored by ollama
	Timeout  time.Duration // one whole call; 0 = the client's default
}

// Names returns the provider names Open accepts, sorted.
func Names() []string { return []string{"anthropic", "ollama", "openai"} }

// KeyEnv returns the environment variable that holds the provider's key,
// or "" when it uses none (ollama) or is unknown.
func KeyEnv(provider string) string {
	switch provider {
	case "openai":
		return wire.OpenAIKeyEnv
	case "anthropic":
		return wire.AnthropicKeyEnv
	}
	return ""
}

// Client is what Open returns: every wire client streams, reports its
// capabilities and can check its own configuration.
type Client interface {
	llm.Provider
	llm.Streamer
	llm.Capabilities
	llm.Diagnoser
	BaseURL() string
}

// Open builds the named client. It refuses an unknown provider (listing
// the known ones) and an empty model; it makes no network call, so a
// missing key or a stopped server is reported by the first call or by
// Diagnose.
func Open(cfg Config) (Client, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, fmt.Errorf("providers: model: name the model to use with %s (for example --model)", orUnknown(cfg.Provider))
	}
	var p llm.Provider
	switch cfg.Provider {
	case "openai":
		p = openai.New(openai.Options{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model, Timeout: cfg.Timeout})
	case "anthropic":
		p = anthropic.New(anthropic.Options{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model, Timeout: cfg.Timeout})
	case "ollama":
		p = ollama.New(ollama.Options{BaseURL: cfg.BaseURL, Model: cfg.Model, Timeout: cfg.Timeout})
	default:
		return nil, fmt.Errorf("providers: provider: %q is not one of %s", cfg.Provider, strings.Join(Names(), ", "))
	}
	// Each wire client has every method of Client; the constructors return the
	// narrower llm.Provider, so the rest is reached here, once.
	c, ok := p.(Client)
	if !ok {
		return nil, fmt.Errorf("providers: provider: the %s client lacks a method of providers.Client", cfg.Provider)
	}
	return c, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "the provider"
	}
	return s
}

// Diagnose opens the client and runs its self-check. A config that cannot
// be opened is reported as a failed "config" check.
func Diagnose(ctx context.Context, cfg Config) []llm.Diagnosis {
	c, err := Open(cfg)
	if err != nil {
		return []llm.Diagnosis{{Check: "config", OK: false, Message: strings.TrimPrefix(err.Error(), "providers: ")}}
	}
	return c.Diagnose(ctx)
}
