// This file holds the client's self-check for the CLI's doctor command.

package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/internal/wire"
)

// Diagnose checks the key, that the server answers GET {base}/models, and
// that the configured model is listed there. It sends no prompt.
func (c *apiClient) Diagnose(ctx context.Context) []llm.Diagnosis {
	var out []llm.Diagnosis
	official := strings.Contains(c.base, "api.openai.com")
	switch {
	case c.key != "":
		out = append(out, llm.Diagnosis{Check: "key", OK: true, Message: "an API key is set"})
	case official:
		out = append(out, llm.Diagnosis{Check: "key", OK: false, Message: fmt.Sprintf("no API key is set; set %s or openai.Options.APIKey", keyEnv)})
	default:
		out = append(out, llm.Diagnosis{Check: "key", OK: true, Message: fmt.Sprintf("no API key is set, which is fine for a local server that needs none (set %s if it does)", keyEnv)})
	}
	h := c.header(false)
	h.Del("Content-Type")
	status, body, le := c.sender.Get(ctx, wire.JoinURL(c.base, "models"), h)
	var ids []string
	switch {
	case le != nil:
		out = append(out, llm.Diagnosis{Check: "server", OK: false, Message: le.Message})
	case status == http.StatusOK:
		out = append(out, llm.Diagnosis{Check: "server", OK: true, Message: "the server at " + c.base + " answers"})
		var list struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if json.Unmarshal(body, &list) == nil {
			for _, m := range list.Data {
				ids = append(ids, m.ID)
			}
		}
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		out = append(out, llm.Diagnosis{Check: "server", OK: false, Message: wire.Classify(c.sender.Profile, status, nil, body).Message})
	default:
		out = append(out, llm.Diagnosis{Check: "server", OK: true, Message: fmt.Sprintf("the server at %s answers, but not with a model list (HTTP %d)", c.base, status)})
	}
	switch {
	case c.opts.Model == "":
		out = append(out, llm.Diagnosis{Check: "model", OK: false, Message: "no model is configured; set openai.Options.Model (or name one per request)"})
	case ids == nil:
		out = append(out, llm.Diagnosis{Check: "model", Skipped: true, Message: fmt.Sprintf("model %q could not be checked: the server listed no models; the first call will tell", c.opts.Model)})
	case contains(ids, c.opts.Model):
		out = append(out, llm.Diagnosis{Check: "model", OK: true, Message: fmt.Sprintf("model %q is available", c.opts.Model)})
	default:
		out = append(out, llm.Diagnosis{Check: "model", OK: false, Message: fmt.Sprintf("model %q is not listed at %s; check the name (the server lists %d models)", c.opts.Model, c.base, len(ids))})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
