package engine

import (
	"strings"
	"testing"
)

// TestEveryRefusal walks the refusal sites not already pinned by the spec vectors: each case names
// the door, the declaration and the field the refusal must name.
func TestEveryRefusal(t *testing.T) {
	base := `"what":"x","checked":["y"]`
	absent := func(s string) error { _, err := AbsentData([]byte(s)); return err }
	wrap := func(s string) error { _, err := WrapData(nil, []byte(s)); return err }
	described := func(s string) error { _, err := DescribedData([]byte(s)); return err }
	cases := []struct {
		door  func(string) error
		in    string
		field string
	}{
		{absent, `"text"`, ""},
		{absent, `{"what":5,"checked":["y"]}`, "what"},
		{absent, `{` + base + `,"tryInsteadTool":"t"}`, "tryInsteadTool"},
		{absent, `{` + base + `,"provenance":{"measuredAt":"m","source":"s","sourceExportDate":" "}}`, "provenance.sourceExportDate"},
		{absent, `{` + base + `,"provenance":{"measuredAt":"","source":"s"}}`, "provenance.measuredAt"},
		{absent, `{` + base + `,"provenance":{"measuredAt":"m","source":"s","ageSeconds":"1"}}`, "provenance.ageSeconds"},
		{absent, `{` + base + `,"resolved":{"argument":"a"}}`, "resolved"},
		{absent, `{` + base + `,"resolved":["a"]}`, "resolved[0]"},
		{absent, `{` + base + `,"resolved":[{"argument":"a","id":"b","ids":[]}]}`, "resolved[0].ids"},
		{absent, `{` + base + `,"resolved":[{"argument":"a","id":"b","name":""}]}`, "resolved[0].name"},
		{absent, `{` + base + `,"resolved":[{"argument":"a","id":"b","aliases":"c"}]}`, "resolved[0].aliases"},
		{absent, `{` + base + `,"resolved":[{"argument":"a","id":"b","aliases":[" "]}]}`, "resolved[0].aliases[0]"},
		{absent, `{` + base + `,"paging":"next"}`, "paging"},
		{absent, `{` + base + `,"paging":{"next":null,"page":2}}`, "paging.page"},
		{absent, `{"what":"x","among":[]}`, "among"},
		{absent, `{"what":"x","among":{"argument":"a","source":"s","measuredAt":"m","count":1,"list":[]}}`, "among.list"},
		{absent, `{"what":"x","among":{"source":"s","measuredAt":"m","count":1}}`, "among.argument"},
		{absent, `{"what":"x","among":{"argument":"a","source":"s\nt","measuredAt":"m","count":1}}`, "among.source"},
		{absent, `{"what":"x","among":{"argument":"a","source":"s","measuredAt":"m","count":-1}}`, "among.count"},
		{absent, `{"what":"x","among":{"argument":"a","source":"s","measuredAt":"m","count":1,"names":"n"}}`, "among.names"},
		{absent, `{"what":"x","among":{"argument":"a","source":"s","measuredAt":"m","count":1,"names":[1]}}`, "among.names[0]"},
		{absent, `{"what":"x","among":{"argument":"a","source":"s","measuredAt":"m","count":1,"partial":"yes"}}`, "among.partial"},
		{absent, `{"what":"x","among":{"argument":"a","source":"s","measuredAt":"m","count":1,"authoritative":true}}`, "among.authoritative"},
		{absent, `{"what":"x","among":{"argument":"a","source":"s","measuredAt":"m","count":1,"authoritative":{}}}`, "among.authoritative.why"},
		{absent, `{"what":"x","among":{"argument":"a","source":"s","measuredAt":"m","count":1,"authoritative":{"why":"w","by":"me"}}}`, "among.authoritative.by"},
		{absent, `{"what":"x","checked":[{"what":"a","short":5}]}`, "checked[0].short"},
		{absent, `{"what":"x","checked":[{"what":"abc","short":"a\u200bb"}]}`, "checked[0].short"},
		{absent, `{"what":"x","checked":[{"what":"` + strings.Repeat("a", 100) + `","short":"` + strings.Repeat("a", 81) + `"}]}`, "checked[0].short"},
		{absent, `{"what":"x","checked":[{"why":"no what"}]}`, "checked[0]"},
		{absent, `{"what":"x","checked":[{"what":"a","why":5}]}`, "checked[0].why"},
		{wrap, `{"checked":["a"],"inProgress":[5]}`, "inProgress[0]"},
		{wrap, `{"checked":["a"],"inProgress":[{"what":"a","why":""}]}`, "inProgress[0].why"},
		{wrap, `{"checked":["a"],"inProgress":[{"what":"a","short":"abc"}]}`, "inProgress[0].short"},
		{wrap, `{"checked":["a"],"inProgress":[{"what":"a","count":-3}]}`, "inProgress[0].count"},
		{wrap, `{"notChecked":"a"}`, "notChecked"},
		{wrap, `{"cannotCover":[{"what":"a","why":"b","kind":"existence","short":"a b c"}]}`, "cannotCover[0].short"},
		{wrap, `{"checked":[],"notChecked":[],"cannotCover":[]}`, ""},
		{described, `{"series":{"a":1}}`, "series"},
		{described, `{"edges":[]}`, "edges"},
		{described, `{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"coverage":{"checked":"a"}}`, "coverage.checked"},
		{described, `{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"coverage":{"cannotCover":["a"]}}`, "coverage.cannotCover[0]"},
		{described, `{"facts":[1],"provenance":{"measuredAt":"m","source":"s"},"coverage":{"not_checked":["a"]}}`, "coverage.not_checked"},
		{described, `5`, ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			refusedAt(t, c.door(c.in), c.field)
		})
	}
}
