package limits_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
)

func TestBlockWordsAndAnswerCoverageForm(t *testing.T) {
	if !strings.HasPrefix(limits.Heading, wire.CoverageBlockHeading) || !strings.HasSuffix(limits.Heading, "(not by the model):") {
		t.Errorf("Heading = %q", limits.Heading)
	}
	answer := "All backups ran." + limits.Separator + limits.Heading + "\n\nChecked:\n- backups"
	text, block, ok := strings.Cut(answer, limits.Separator)
	if !ok || text != "All backups ran." || !strings.HasPrefix(block, limits.Heading) {
		t.Errorf("Separator does not split the answer from its block: %q / %q", text, block)
	}
	ac := limits.AnswerCoverage{Assumed: []limits.Assumed{{ToolName: "search", Argument: "since", Value: "REDACTED", Hidden: true}}}
	b, err := json.Marshal(ac)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"checked":null,"notChecked":null,"cannotCover":null,"assumed":[{"toolName":"search","argument":"since","value":"REDACTED","hidden":true}]}`
	if string(b) != want {
		t.Errorf("AnswerCoverage JSON\n got %s\nwant %s", b, want)
	}
}
