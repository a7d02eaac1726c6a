// This file holds the client's self-check for the CLI's doctor command.

package ollama

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Diagnose checks that Ollama answers GET /api/tags and that the model is
// pulled. Ollama uses no key. It sends no prompt.
func (c *apiClient) Diagnose(ctx context.Context) []llm.Diagnosis {
	out := []llm.Diagnosis{{Check: "key", OK: true, Message: "Ollama needs no API key"}}
	status, body, le := c.sender.Get(ctx, c.base+"/api/tags", http.Header{"Accept": {"application/json"}})
	if le != nil {
		return append(out, llm.Diagnosis{Check: "server", OK: false, Message: le.Message})
	}
	var tags struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &tags) != nil {
		return append(out, llm.Diagnosis{Check: "server", OK: false,
			Message: fmt.Sprintf("the server at %s answered HTTP %d to /api/tags, so it does not look like Ollama; check the URL", c.base, status)})
	}
	out = append(out, llm.Diagnosis{Check: "server", OK: true, Message: "Ollama answers at " + c.base})
	if c.opts.Model == "" {
		return append(out, llm.Diagnosis{Check: "model", OK: false, Message: "no model is configured; set ollama.Options.Model (see `ollama list`)"})
	}
	want := c.opts.Model
	for _, m := range tags.Models {
		for _, have := range []string{m.Name, m.Model} {
			if have == want || (!strings.Contains(want, ":") && have == want+":latest") {
				return append(out, llm.Diagnosis{Check: "model", OK: true, Message: fmt.Sprintf("model %q is pulled", want)})
			}
		}
	}
	return append(out, llm.Diagnosis{Check: "model", OK: false,
		Message: fmt.Sprintf("model %q is not pulled at %s; fetch it with `ollama pull %s`", want, c.base, want)})
}
