// Tests for Parse: every malformed file is refused with the field path, never a panic.

package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseRefusals(t *testing.T) {
	const tl = `"turns":[{"user":"hi"}]`
	cases := []struct {
		name, in, want string
	}{
		{"not json", `{"replies": [,]}`, `scenario: line 1, column 14: not valid JSON: invalid character ',' looking for beginning of value`},
		// Issue 12 item 8: invalid UTF-8 used to become U+FFFD without a word.
		{"invalid utf-8 in a string", "{\"replies\":[],\"turns\":[{\"user\":\"caf\xe9\"}]}", `scenario: line 1, column 36: byte 0xe9 is not UTF-8; a scenario file must be UTF-8 text (nothing was replaced)`},
		{"invalid utf-8 on line 2", "{\"replies\":[],\n\"turns\":[{\"user\":\"ok \xff\xfe\"}]}", `scenario: line 2, column 22: byte 0xff is not UTF-8`},
		{"not an object", `[]`, `scenario: a scenario file is one JSON object, not an array`},
		{"trailing data", `{"replies":[],` + tl + `} {}`, `scenario: unexpected data after the scenario object`},
		{"duplicate key", `{"replies":[],"replies":[],` + tl + `}`, `scenario: duplicate key "replies"`},
		{"unknown top key", `{"replys":[],` + tl + `}`, `scenario: replys: unknown key "replys" (did you mean "replies"?); the keys here are $schema, name, description, agent, tools, mcp, replies, turns, expect`},
		{"no replies", `{` + tl + `}`, `scenario: replies: missing: list the model's scripted replies, one per model call`},
		{"no turns", `{"replies":[]}`, `scenario: turns: missing: give at least one turn, such as [{"user": "What is broken?"}]`},
		{"empty turns", `{"replies":[],"turns":[]}`, `scenario: turns: missing: give at least one turn, such as [{"user": "What is broken?"}]`},
		{"turn both", `{"replies":[],"turns":[{"user":"a","resume":"b"}]}`, `scenario: turns[0].resume: cannot be given together with "user"; give exactly one of user, resume`},
		{"turn blank", `{"replies":[],"turns":[{"user":"  "}]}`, `scenario: turns[0].user: is blank; write the person's message`},
		{"resume first", `{"replies":[],"turns":[{"resume":"yes"}]}`, `scenario: turns[0].resume: the first turn must be a user message: there is no pause to resume yet`},
		{"status typo", `{"tools":[{"name":"a"},{"name":"b","results":[{"value":1,"status":"sucess"}]}],"replies":[],` + tl + `}`,
			`scenario: tools[1].results[0].status: unknown status "sucess" (did you mean "success"?); use one of success, failure, denied, invalid, partial, pending, absent`},
		{"result two kinds", `{"tools":[{"name":"a","results":[{"value":1,"error":"x"}]}],"replies":[],` + tl + `}`,
			`scenario: tools[0].results[0].error: cannot be given together with "value"; give exactly one of value, error, panic, pause, absent, described`},
		{"result no kind", `{"tools":[{"name":"a","results":[{"status":"success"}]}],"replies":[],` + tl + `}`,
			`scenario: tools[0].results[0]: give exactly one of value, error, panic, pause, absent, described`},
		{"status on error", `{"tools":[{"name":"a","results":[{"error":"x","status":"failure"}]}],"replies":[],` + tl + `}`,
			`scenario: tools[0].results[0].status: goes with "value" only; a result is one of value, error, panic, pause, absent, described`},
		{"blank error", `{"tools":[{"name":"a","results":[{"error":" "}]}],"replies":[],` + tl + `}`,
			`scenario: tools[0].results[0].error: is blank; say what went wrong`},
		{"when not object", `{"tools":[{"name":"a","results":[{"when":[1],"value":1}]}],"replies":[],` + tl + `}`,
			`scenario: tools[0].results[0].when: want an object, got an array`},
		{"coverage refused", `{"tools":[{"name":"a","results":[{"value":1,"coverage":{"chcked":["x"]}}]}],"replies":[],` + tl + `}`,
			"scenario: tools[0].results[0].coverage.chcked: `chcked` is not a field this declaration accepts; the fields are `checked`, `notChecked`, `cannotCover`, `period`, `inProgress`"},
		{"absent refused", `{"tools":[{"name":"a","results":[{"absent":{"checked":["x"]}}]}],"replies":[],` + tl + `}`,
			"scenario: tools[0].results[0].absent.what: "},
		{"tool name", `{"tools":[{"name":"bad name"}],"replies":[],` + tl + `}`, `scenario: tools[0].name: `},
		{"tool blank name", `{"tools":[{"name":""}],"replies":[],` + tl + `}`, `scenario: tools[0].name: is blank`},
		{"tool duplicate", `{"tools":[{"name":"a"},{"name":"a"}],"replies":[],` + tl + `}`, `scenario: tools[1].name: "a" is already the name of tools[0]`},
		{"tool schema", `{"tools":[{"name":"a","inputSchema":{"type":"string"}}],"replies":[],` + tl + `}`, `scenario: tools[0].inputSchema`},
		{"tool schema not object", `{"tools":[{"name":"a","inputSchema":"x"}],"replies":[],` + tl + `}`, `scenario: tools[0].inputSchema: want an object, got a string`},
		{"period no spelling", `{"tools":[{"name":"a","period":{"argument":"w"}}],"replies":[],` + tl + `}`,
			`scenario: tools[0].period.spelling: missing: how the argument is written (lookback, signed-lookback or iso-range)`},
		{"period spelling", `{"tools":[{"name":"a","period":{"argument":"w","spelling":"lookbak"}}],"replies":[],` + tl + `}`,
			`scenario: tools[0].period.spelling: unknown spelling "lookbak" (did you mean "lookback"?); use one of lookback, signed-lookback, iso-range`},
		{"period without rule", `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"w":{"type":"string"}}},"period":{"argument":"w","spelling":"lookback"}}],"replies":[],` + tl + `}`,
			`scenario: tools[0].period.argument: argument "w" has no ask-or-assume rule`},
		{"retention without period", `{"tools":[{"name":"a","retention":"30d"}],"replies":[],` + tl + `}`,
			`scenario: tools[0].retention: describes the tool's period source; declare "period" too`},
		{"retention spelling", `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"w":{"type":"string"}}},"askOrAssume":{"w":{"assume":"1h"}},"period":{"argument":"w","spelling":"lookback"},"retention":"a month"}],"replies":[],` + tl + `}`,
			`scenario: tools[0].retention: `},
		{"rule both", `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"w":{"type":"string"}}},"askOrAssume":{"w":{"assume":"1h","ask":"How far back?"}}}],"replies":[],` + tl + `}`,
			`scenario: tools[0].askOrAssume.w: the rule both asks and assumes`},
		{"rule key", `{"tools":[{"name":"a","askOrAssume":{"w":{"asume":"1h"}}}],"replies":[],` + tl + `}`,
			`scenario: tools[0].askOrAssume.w.asume: unknown key "asume" (did you mean "assume"?)`},
		{"rule schema", `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"w":{"type":"integer"}}},"askOrAssume":{"w":{"assume":"1h"}}}],"replies":[],` + tl + `}`,
			`scenario: tools[0].askOrAssume.w.assume: the argument's own schema rejects the value "1h"`},
		{"tool unknown key", `{"tools":[{"name":"a","reslts":[]}],"replies":[],` + tl + `}`,
			`scenario: tools[0].reslts: unknown key "reslts" (did you mean "results"?); the keys here are name, description, inputSchema, validation, resultCeiling, askOrAssume, period, retention, granularity, results`},
		{"validation mode", `{"tools":[{"name":"a","validation":"strict"}],"replies":[],` + tl + `}`,
			`scenario: tools[0].validation: unknown validation mode "strict"; use one of enforce, warn, off`},
		{"ceiling zero", `{"tools":[{"name":"a","resultCeiling":{"maxChars":0}}],"replies":[],` + tl + `}`,
			`scenario: tools[0].resultCeiling.maxChars: want a whole number from 1 to 2147483647, got 0`},
		{"results layer type", `{"agent":{"resultsLayer":"yes"},"replies":[],` + tl + `}`, `scenario: agent.resultsLayer: want true or false, got a string`},
		{"time zone", `{"agent":{"time":{"zone":"CET"}},"replies":[],` + tl + `}`, `scenario: agent.time.zone: `},
		{"time now", `{"agent":{"time":{"zone":"UTC","now":"2026-09-26 10:00"}},"replies":[],` + tl + `}`,
			`scenario: agent.time.now: "2026-09-26 10:00" is not an instant with its zone, such as 2026-09-26T10:00:00Z`},
		{"time window", `{"agent":{"time":{"zone":"UTC","window":{}}},"replies":[],` + tl + `}`,
			`scenario: agent.time.window.from: missing`},
		{"time window order", `{"agent":{"time":{"window":{"from":"2026-09-26T10:00:00Z","to":"2026-09-26T09:00:00Z"}}},"replies":[],` + tl + `}`,
			`scenario: agent.time.window: `},
		{"time key", `{"agent":{"time":{"zone":"UTC","clock":{}}},"replies":[],` + tl + `}`,
			`scenario: agent.time.clock: unknown key "clock"; the keys here are zone, now, window`},
		{"max iterations", `{"agent":{"maxIterations":0},"replies":[],` + tl + `}`, `scenario: agent.maxIterations: want a whole number from 1 to 2147483647, got 0`},
		{"max iterations float", `{"agent":{"maxIterations":2.5},"replies":[],` + tl + `}`, `scenario: agent.maxIterations: want a whole number from 1 to 2147483647, got 2.5`},
		{"temperature", `{"agent":{"temperature":3},"replies":[],` + tl + `}`, `scenario: agent.temperature: want a temperature from 0 to 2, got 3`},
		{"wrapUp type", `{"agent":{"wrapUp":"yes"},"replies":[],` + tl + `}`, `scenario: agent.wrapUp: want true or false, got a string`},
		{"unit kind", `{"agent":{"units":[{"id":"u","kind":"fakt","text":"t"}]},"replies":[],` + tl + `}`,
			`scenario: agent.units[0].kind: unknown unit kind "fakt" (did you mean "fact"?); use one of fact, steering, instruction, skill`},
		{"unit missing text", `{"agent":{"units":[{"id":"u","kind":"fact"}]},"replies":[],` + tl + `}`,
			`scenario: agent.units[0].text: missing: a unit needs an id, a kind and its text`},
		{"instruction no rule", `{"agent":{"units":[{"id":"u","kind":"instruction","text":"t"}]},"replies":[],` + tl + `}`,
			`scenario: agent.units[0].when: missing: an instruction applies under a rule`},
		{"when two ops", `{"agent":{"units":[{"id":"u","kind":"fact","text":"t","when":{"key":"k","contains":"a","present":true}}]},"replies":[],` + tl + `}`,
			`scenario: agent.units[0].when.present: cannot be given together with "contains"`},
		{"when no key", `{"agent":{"units":[{"id":"u","kind":"fact","text":"t","when":{"present":true}}]},"replies":[],` + tl + `}`,
			`scenario: agent.units[0].when.key: missing`},
		{"on return unknown tool", `{"agent":{"units":[{"id":"u","kind":"fact","text":"t","onToolReturn":["x"]}]},"replies":[],` + tl + `}`,
			`scenario: agent.units[0].onToolReturn[0]: no tool named "x"; the file declares no tools`},
		{"unit duplicate", `{"agent":{"units":[{"id":"u","kind":"fact","text":"t"},{"id":"u","kind":"fact","text":"t"}]},"replies":[],` + tl + `}`,
			`scenario: agent.units[1].id: "u" is already the id of agent.units[0]`},
		{"role without slot", `{"agent":{"units":[{"id":"u","kind":"fact","text":"t","role":"user"}]},"replies":[],` + tl + `}`,
			`scenario: agent.units[0].role: applies only with "slot": "messages"`},
		{"skill trigger", `{"agent":{"units":[{"id":"u","kind":"skill","text":"t","when":{"key":"k","present":true}}]},"replies":[],` + tl + `}`,
			`scenario: agent.units[0].when: a skill is loaded by the model through read_skill; it takes no when`},
		{"reply unknown key", `{"replies":[{"contnet":"x"}],` + tl + `}`,
			`scenario: replies[0].contnet: unknown key "contnet" (did you mean "content"?); the keys here are content, toolCalls, usage, stopReason, error, delay`},
		{"reply call key", `{"replies":[{"toolCalls":[{"nam":"x"}]}],` + tl + `}`,
			`scenario: replies[0].toolCalls[0].nam: unknown key "nam" (did you mean "name"?)`},
		{"reply call no name", `{"replies":[{"toolCalls":[{"id":"x"}]}],` + tl + `}`,
			`scenario: replies[0].toolCalls[0].name: a tool call needs a name`},
		{"reply delay", `{"replies":[{"delay":"soon"}],` + tl + `}`, `scenario: replies[0].delay: "soon" is not a non-negative Go duration`},
		{"reply stop", `{"replies":[{"stopReason":"end"}],` + tl + `}`, `scenario: replies[0].stopReason: "end" is not one of stop, tool_use, max_tokens, content_filter, other`},
		{"reply not object", `{"replies":["hi"],` + tl + `}`, `scenario: replies[0]: want an object, got a string`},
		{"expect statuses", `{"replies":[],` + tl + `,"expect":{"statuses":["ok"]}}`, `scenario: expect.statuses[0]: unknown status "ok"; use one of success`},
		{"expect call", `{"replies":[],` + tl + `,"expect":{"toolCalls":[3]}}`, `scenario: expect.toolCalls[0]: want a tool name or {"name", "args"}, got a number`},
		{"expect standing", `{"replies":[],` + tl + `,"expect":{"standing":"not sure"}}`,
			`scenario: expect.standing: unknown standing "not sure" (did you mean "not-sure"?); use one of known, consistent, not-sure, ask, not-assessed`},
		{"expect reason", `{"replies":[],` + tl + `,"expect":{"reasons":["period-not-hld"]}}`,
			`scenario: expect.reasons[0]: unknown reason "period-not-hld" (did you mean "period-not-held"?)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse([]byte(c.in))
			if err == nil {
				t.Fatalf("accepted: %+v", f)
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %T %v is not a *FieldError", err, err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error\n got: %s\nwant: %s…", err, c.want)
			}
		})
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(p, []byte(`{"replies":[],"turns":[{"usr":"x"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	want := p + `: scenario: turns[0].usr: unknown key "usr" (did you mean "user"?); the keys here are user, resume`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

func TestParseAccepts(t *testing.T) {
	f, err := Parse([]byte(`{"$schema":"x","name":"n","description":"d","replies":[{"content":"hi"}],"turns":[{"user":"hello"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Name() != "n" || f.description != "d" || f.Question() != "hello" {
		t.Errorf("got %q %q %q", f.Name(), f.description, f.Question())
	}
}

func TestDidYouMean(t *testing.T) {
	cases := []struct{ word, want string }{
		{"sucess", ` (did you mean "success"?)`},
		{"partail", ` (did you mean "partial"?)`},
		{"zzzzzz", ``},
		{"a", ``},
	}
	for _, c := range cases {
		if got := didYouMean(c.word, statusWords); got != c.want {
			t.Errorf("%q: got %q, want %q", c.word, got, c.want)
		}
	}
}
