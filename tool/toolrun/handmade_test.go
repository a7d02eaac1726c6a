// Tests of a declaration a dispatcher holds without its funcs (built by
// hand, or copied field by field): every entry point answers instead of
// panicking, and the small readers (Hidden, Rejection.Error, a ceiling
// without a narrowing hint) say what they should.

package toolrun

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

func TestDeclarationWithoutFuncs(t *testing.T) {
	d := tool.Declaration{Name: "bare", HiddenArguments: []string{"token"}, ResultCeiling: 4}
	if rej := Validate(d, json.RawMessage(`{"a":1}`), ""); rej != nil {
		t.Errorf("Validate without a Check = %+v, want nil", rej)
	}
	if rej := Validate(d, json.RawMessage(`{`), "unexpected EOF"); rej == nil || rej.ParseError != "unexpected EOF" || !rej.Stops(d.Validation) {
		t.Errorf("a provider parse error must still reject and stop: %+v", rej)
	}
	if rej := CheckArgument(d, "a", 1); rej != nil {
		t.Errorf("CheckArgument without its func = %+v, want nil", rej)
	}
	if need, err := NeedsCheckIn(d, nil); need || err != nil {
		t.Errorf("NeedsCheckIn without a predicate = %v, %v", need, err)
	}
	if _, err := Execute(context.Background(), d, nil); err == nil || err.Error() != `tool "bare": the declaration has no func` {
		t.Errorf("Execute without a Func: err = %v", err)
	}
	refusal, size, over := CheckCeiling(d, "12345")
	if !over || size != 5 || refusal != "No data was returned: the bare result was 5 characters, over the tool's limit of 4 characters, so it was withheld rather than cut. Call it again asking for less." {
		t.Errorf("CheckCeiling = %q, %d, %v", refusal, size, over)
	}
}

func TestRejectionError(t *testing.T) {
	tl := tool.Must(newSearch())
	rej := Validate(tl.Declaration(), json.RawMessage(`{}`), "")
	if rej == nil {
		t.Fatal("no rejection for missing required arguments")
	}
	var err error = rej
	if got := err.Error(); got != `tool "search_logs": arguments rejected: 2 issue(s)` {
		t.Errorf("Error() = %q", got)
	}
	if !strings.HasPrefix(rej.Text(), "The search_logs tool was not run: its arguments do not match its input schema (2 issues).") {
		t.Errorf("Text() = %q", rej.Text())
	}
}
