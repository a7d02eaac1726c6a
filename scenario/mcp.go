// This file holds a scenario's MCP servers as tool sources: the "mcp" list
// of the file, and connecting to them for one run so their real tools are
// offered beside the canned ones.

package scenario

import (
	"context"
	"os"

	"github.com/agentfootprint/agentfootprint-go/mcp"
)

// mcpKeys are the keys of one "mcp" entry.
var mcpKeys = []string{"name", "command", "url"}

type mcpSpec struct {
	path string
	src  mcp.Source
}

func parseMCP(path string, v any) ([]mcpSpec, error) {
	list, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]mcpSpec, 0, len(list))
	names := map[string]bool{}
	for i, e := range list {
		p := index(path, i)
		o, err := asObject(p, e)
		if err != nil {
			return nil, err
		}
		if err := checkKeys(p, o, mcpKeys); err != nil {
			return nil, err
		}
		s := mcpSpec{path: p}
		for _, m := range o {
			switch m.Key {
			case "name":
				s.src.Name, err = asString(join(p, m.Key), m.Value)
			case "command":
				s.src.Command, err = asStrings(join(p, m.Key), m.Value)
			case "url":
				s.src.URL, err = asString(join(p, m.Key), m.Value)
			}
			if err != nil {
				return nil, err
			}
		}
		switch {
		case s.src.Name == "":
			return nil, fieldErr(join(p, "name"), "missing: name the server, such as \"filesystem\"")
		case names[s.src.Name]:
			return nil, fieldErr(join(p, "name"), "%q names another server already", s.src.Name)
		case (len(s.src.Command) == 0) == (s.src.URL == ""):
			return nil, fieldErr(p, "give exactly one of command (a program and its arguments) or url")
		}
		names[s.src.Name] = true
		out = append(out, s)
	}
	return out, nil
}

// connectMCP connects to the file's MCP servers for one run, with $VAR and
// ${VAR} in commands and URLs expanded from the environment, and adds their
// tools to the run's own tools. The returned func closes every session.
func (f *File) connectMCP(ctx context.Context, rc *runConfig) (func(), error) {
	var clients []*mcp.Client
	closeAll := func() {
		for _, c := range clients {
			_ = c.Close() // the run is over; a close failure changes nothing in its report
		}
	}
	for _, s := range f.mcp {
		src := s.src
		src.Command = make([]string, len(s.src.Command))
		for i, w := range s.src.Command {
			src.Command[i] = os.ExpandEnv(w)
		}
		if len(src.Command) == 0 {
			src.Command = nil
		}
		src.URL = os.ExpandEnv(src.URL)
		c, err := mcp.Connect(ctx, src)
		if err != nil {
			closeAll()
			return nil, fieldErr(s.path, "%v", err)
		}
		clients = append(clients, c)
		l, err := c.List(ctx)
		if err != nil {
			closeAll()
			return nil, fieldErr(s.path, "%v", err)
		}
		for _, t := range l.Tools {
			if _, taken := rc.own(t.Name()); taken {
				closeAll()
				return nil, fieldErr(s.path, "the server's tool %q has the name of another tool of this run", t.Name())
			}
			for _, ft := range f.tools {
				if ft.name == t.Name() {
					closeAll()
					return nil, fieldErr(s.path, "the server's tool %q has the name of %s", t.Name(), ft.path)
				}
			}
			rc.tools = append(rc.tools, t)
		}
	}
	return closeAll, nil
}
