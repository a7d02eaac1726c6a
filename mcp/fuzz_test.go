// Fuzz target for the result reader: any CallToolResult a server can send
// is read without a panic, and what it hands the framework encodes.

package mcp

import (
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentfootprint/agentfootprint-go/coverage/boundary"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

func FuzzReadResult(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"Echo: hi"}]}`,
		`{"content":[],"_meta":{"af_absent":{"checked":[{"what":"orders"}]}}}`,
		`{"content":[{"type":"text","text":"42"}],"_meta":{"af_coverage":{"checked":[{"what":"t"}]},"af_absent":{"checked":[]},"af_semantics":{"series":[]}}}`,
		`{"content":[],"_meta":{"af_absent":"yes","af_x":1,"io.modelcontextprotocol/y":{}}}`,
		`{"content":[{"type":"image","mimeType":"image/png","data":"AAAA"}],"structuredContent":{"af_absent":true,"checked":[{"what":"a"}]}}`,
		`{"content":[{"type":"resource","resource":{"uri":"file:///x","blob":"AAAA"}}],"isError":true}`,
		`{"content":[{"type":"text","text":"x"}],"_meta":{"af_absent":{"af_absent":true}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var res sdk.CallToolResult
		if json.Unmarshal(data, &res) != nil {
			return
		}
		r := readResult(&res)
		if _, err := toolrun.Text(r.value.Content); err != nil {
			t.Fatalf("the value does not encode: %v", err)
		}
		boundary.Read(r.value.Content, "t", nil)
	})
}
