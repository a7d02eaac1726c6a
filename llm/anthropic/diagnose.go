// This file holds the client's self-check for the CLI's doctor command.

package anthropic

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
)

// Diagnose checks the key, that the server answers, and that the model
// exists (GET /v1/models/{model}). It sends no prompt.
func (c *apiClient) Diagnose(ctx context.Context) []llm.Diagnosis {
	var out []llm.Diagnosis
	if c.key == "" {
		out = append(out, llm.Diagnosis{Check: "key", OK: false, Message: fmt.Sprintf("no API key is set; set %s or anthropic.Options.APIKey", keyEnv)})
	} else {
		out = append(out, llm.Diagnosis{Check: "key", OK: true, Message: "an API key is set"})
	}
	path := "/v1/models"
	if c.opts.Model != "" {
		path += "/" + url.PathEscape(c.opts.Model)
	}
	h := c.header(false)
	h.Del("Content-Type")
	status, body, le := c.sender.Get(ctx, c.base+path, h)
	switch {
	case le != nil:
		return append(out, llm.Diagnosis{Check: "server", OK: false, Message: le.Message})
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return append(out, llm.Diagnosis{Check: "server", OK: false, Message: wire.Classify(c.sender.Profile, status, nil, body).Message})
	}
	out = append(out, llm.Diagnosis{Check: "server", OK: true, Message: "the server at " + c.base + " answers"})
	switch {
	case c.opts.Model == "":
		out = append(out, llm.Diagnosis{Check: "model", OK: false, Message: "no model is configured; set anthropic.Options.Model (or name one per request)"})
	case status == http.StatusOK:
		out = append(out, llm.Diagnosis{Check: "model", OK: true, Message: fmt.Sprintf("model %q is available", c.opts.Model)})
	case status == http.StatusNotFound:
		out = append(out, llm.Diagnosis{Check: "model", OK: false, Message: fmt.Sprintf("model %q is not available at %s; check the model name", c.opts.Model, c.base)})
	default:
		out = append(out, llm.Diagnosis{Check: "model", Skipped: true, Message: fmt.Sprintf("model %q could not be checked (the server answered HTTP %d); the first call will tell", c.opts.Model, status)})
	}
	return out
}
