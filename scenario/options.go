// This file holds the options of a run: your own Go tools in place of canned ones, further
// agent options, and another model in place of the scripted replies.

package scenario

import (
	"errors"
	"fmt"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Option adjusts one run of a scenario; the File itself never changes.
type Option func(*runConfig)

type runConfig struct {
	tools     []*tool.Tool
	agentOpts []agent.Option
	provider  llm.Provider
	timeout   time.Duration
}

// WithTools runs your own tools instead of the file's canned ones: a tool whose name the
// file declares takes that tool's place (its canned results are not served), any other is
// offered besides. Run refuses a nil tool and two tools of one name.
func WithTools(tools ...*tool.Tool) Option {
	return func(c *runConfig) { c.tools = append(c.tools, tools...) }
}

// WithAgentOptions applies further agent options after the file's own (a later option of
// the same kind wins, as agent.New applies them in order).
func WithAgentOptions(opts ...agent.Option) Option {
	return func(c *runConfig) { c.agentOpts = append(c.agentOpts, opts...) }
}

// WithProvider runs the file's agent on p instead of its scripted replies, which are then
// not used; the tools still serve their canned results. The file's agent.model is what the
// agent asks p for unless WithAgentOptions(agent.WithModel(…)) names another. A live model
// writes its own replies, so expectations about them may not hold. A nil p keeps the
// scripted replies.
func WithProvider(p llm.Provider) Option {
	return func(c *runConfig) { c.provider = p }
}

// WithModelTimeout gives every model call of the run, scripted or real, a deadline of d; a
// call that runs past it fails the run with a timeout *llm.Error that names the limit. Zero
// or less means no deadline beyond the provider's own.
func WithModelTimeout(d time.Duration) Option {
	return func(c *runConfig) { c.timeout = d }
}

func newRunConfig(opts []Option) (*runConfig, error) {
	c := &runConfig{}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	seen := map[string]bool{}
	for i, t := range c.tools {
		if t == nil {
			return nil, fmt.Errorf("scenario: WithTools: tool %d is nil", i)
		}
		if seen[t.Name()] {
			return nil, fmt.Errorf("scenario: WithTools: two tools are named %q", t.Name())
		}
		seen[t.Name()] = true
	}
	return c, nil
}

// own returns the caller's tool named name, if any.
func (c *runConfig) own(name string) (*tool.Tool, bool) {
	for _, t := range c.tools {
		if t.Name() == name {
			return t, true
		}
	}
	return nil, false
}

var errNilFile = errors.New("scenario: Run needs a file from Parse or Load")
