// This file holds Source, the description of one MCP server to connect to,
// and what is derived from it: its transport and the definition site of its
// tools.

package mcp

import (
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

// Source says where an MCP server is: a program to start and talk to over
// its standard input and output (Command), or a streamable HTTP endpoint
// (URL). Exactly one of the two is set.
type Source struct {
	// Name is a short name for the server, used in errors, sites and the
	// record. When blank it is derived from the command or the URL.
	Name string `json:"name,omitempty"`
	// Command is the program and its arguments, for a server over stdio.
	Command []string `json:"command,omitempty"`
	// URL is the streamable HTTP endpoint, for a server over HTTP.
	URL string `json:"url,omitempty"`
}

// check refuses a source that sets neither or both of Command and URL, a
// blank program, or a URL that is not http or https.
func (s Source) check() error {
	switch {
	case len(s.Command) == 0 && s.URL == "":
		return &sourceError{Source: s, Problem: "neither a command nor a URL is given"}
	case len(s.Command) > 0 && s.URL != "":
		return &sourceError{Source: s, Problem: "both a command and a URL are given; choose one"}
	case len(s.Command) > 0 && strings.TrimSpace(s.Command[0]) == "":
		return &sourceError{Source: s, Problem: "the command's program is blank"}
	case s.URL != "":
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return &sourceError{Source: s, Problem: fmt.Sprintf("the URL %q is not an http or https address", s.URL)}
		}
	}
	return nil
}

// name returns Name, or the program's base name, or the URL's host.
func (s Source) name() string {
	if s.Name != "" {
		return s.Name
	}
	if len(s.Command) > 0 {
		return filepath.Base(s.Command[0])
	}
	if u, err := url.Parse(s.URL); err == nil && u.Host != "" {
		return u.Host
	}
	return s.URL
}

// String spells the source the way errors and sites name it: the command
// line for stdio, the URL for HTTP.
func (s Source) String() string {
	if len(s.Command) > 0 {
		return strings.Join(s.Command, " ")
	}
	return s.URL
}

// site is the definition site of tool name of the server so named: File names the
// server, Function the tool, and Line is 0 (there is no Go line).
func (s Source) site(server, name string) tool.Site {
	kind := "stdio"
	if s.URL != "" {
		kind = "http"
	}
	return tool.Site{File: fmt.Sprintf("mcp server %s (%s: %s)", server, kind, s.String()), Function: "tool " + name}
}

// command builds the process for a stdio source.
func (s Source) command(cfg *config) *exec.Cmd {
	cmd := exec.Command(s.Command[0], s.Command[1:]...)
	cmd.Stderr = cfg.stderr
	return cmd
}
