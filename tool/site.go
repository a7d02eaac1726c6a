// Definition sites: where a tool was defined, captured when tool.New or
// tool.NewRaw is called, so a record can name the line that defined each
// tool.

package tool

import (
	"fmt"
	"runtime"
	"strconv"
)

// Site is where a tool was defined: the file as compiled (module-qualified
// under -trimpath), the line, and the calling function's full name.
type Site struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Function string `json:"function"`
}

// maxCallerSkip is the largest WithCallerSkip accepted.
const maxCallerSkip = 15

// callStack holds the program counters above a constructor's caller, enough
// for any WithCallerSkip.
type callStack struct {
	pcs [maxCallerSkip + 1]uintptr
	n   int
}

// callersOf captures the stack starting at the caller of the function that
// calls callersOf (skip counts runtime.Callers, callersOf and the
// constructor).
func callersOf() callStack {
	var cs callStack
	cs.n = runtime.Callers(3, cs.pcs[:])
	return cs
}

// site returns the frame skip levels above the constructor's caller, or the
// zero Site when the stack is not that deep.
func (cs *callStack) site(skip int) Site {
	frames := runtime.CallersFrames(cs.pcs[:cs.n])
	for i := 0; ; i++ {
		f, more := frames.Next()
		if i == skip {
			if f.PC == 0 {
				return Site{}
			}
			return Site{File: f.File, Line: f.Line, Function: f.Function}
		}
		if !more {
			return Site{}
		}
	}
}

// WithCallerSkip moves the recorded definition site n frames further up the
// stack: a helper that defines tools for its callers passes WithCallerSkip(1)
// so the site is the helper's caller, not the helper. n must be between 0
// and 15; anything else is refused at definition.
func WithCallerSkip(n int) Option {
	return func(c *config) {
		if n < 0 || n > maxCallerSkip {
			c.fail("callerSkip", fmt.Sprintf("WithCallerSkip(%d) is out of range", n), fmt.Sprintf("pass 0 to %d frames", maxCallerSkip))
			return
		}
		c.callerSkip = n
	}
}

// WithDefinitionSite records site as the tool's definition site instead of
// the Go line that called the constructor: for a tool defined somewhere
// else, such as an MCP server's tool (File naming the server, Function the
// tool). A site with a blank File is refused at definition.
func WithDefinitionSite(site Site) Option {
	return func(c *config) {
		if site.File == "" {
			c.fail("definitionSite.file", "the definition site names no file", "name where the tool is defined, for example the server it comes from")
			return
		}
		c.site = &site
	}
}

// Place is where the site is, as a person reads it: "file:line", or the file
// alone when no Go line is known (a tool an MCP server serves is named by its
// server, which has no line of this program).
func (s Site) Place() string {
	if s.Line <= 0 {
		return s.File
	}
	return s.File + ":" + strconv.Itoa(s.Line)
}
