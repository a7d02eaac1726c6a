// Examples: using a server's tools, and serving native tools. The server in
// the first is an in-process go-sdk server over HTTP, so the example runs
// anywhere; a real one is a Source with a Command or a URL.

package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentfootprint/agentfootprint-go/mcp"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

func ExampleConnect() {
	// A stand-in MCP server with one tool.
	s := sdk.NewServer(&sdk.Implementation{Name: "notes", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes the message."},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Echo: " + in.Message}}}, nil, nil
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	defer srv.Close()

	ctx := context.Background()
	c, err := mcp.Connect(ctx, mcp.Source{Name: "notes", URL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	l, err := c.List(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	// l.Tools go to agent.New(provider, agent.WithTools(l.Tools...)).
	echo := l.Tools[0]
	fmt.Println(echo.Name(), "-", echo.Declaration().Description)
	fmt.Println("defined at", echo.Declaration().DefinedAt.Function)
	out, err := toolrun.Execute(ctx, echo.Declaration(), []byte(`{"message":"hi"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.Value)
	// Output:
	// echo - Echoes the message.
	// defined at tool echo
	// Echo: hi
}

func ExampleNewServer() {
	greet := tool.Must(tool.New("greet", "Greets someone by name.", func(_ context.Context, in struct {
		Name string `json:"name"`
	}) (string, error) {
		return "hello " + in.Name, nil
	}))
	s, err := mcp.NewServer(greet)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Serve it over streamable HTTP (or call mcp.Serve with a stdio transport).
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	fmt.Printf("%T\n", h)
	// Output: *mcp.StreamableHTTPHandler
}
