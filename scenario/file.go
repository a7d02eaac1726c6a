// This file holds the scenario file format: its Go form, and Parse/Load, which read and
// validate a file and refuse every fault by its field path.

package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/coverage/wire"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
	"github.com/agentfootprint/agentfootprint-go/tool/toolrun"
)

// MaxFileBytes is the largest scenario file Parse reads.
const MaxFileBytes = 8 << 20

// File is one loaded and validated scenario: an agent, its tools with canned results,
// the model's scripted replies, the person's turns and what to expect. Only Parse and
// Load make one, so a File in hand is always runnable; it is immutable and safe to run
// many times and from several goroutines.
type File struct {
	name        string
	description string
	agent       agentSpec
	tools       []toolSpec
	mcp         []mcpSpec // MCP servers as tool sources (mcp.go)
	replies     []scripted.Reply
	turns       []turn
	expect      *expectSpec
	corpora     []corpusSpec // corpus.go
	// composed is set for a file of named agents and a compose section (compose.go).
	composed *composedSpec
}

// Name returns the scenario's name ("" when the file gives none).
func (f *File) Name() string { return f.name }

// Question returns the person's first message.
func (f *File) Question() string { return f.turns[0].user }

type agentSpec struct {
	id            string
	model         string
	systemPrompt  string
	maxIterations int
	wrapUp        *bool
	temperature   *float64
	maxTokens     int
	resultsLayer  bool
	limits        bool
	time          *timeSpec
	units         []unitSpec
	retrieval     []retrievalSpec // corpus.go
}

type unitSpec struct {
	path         string
	id, text     string
	kind         inject.Kind
	slot         inject.Slot
	role         llm.Role
	priority     int
	version      string
	when         *condition
	onToolReturn []string
	skillTools   []string
}

// condition is a declarative rule over one state key.
type condition struct {
	label    string
	key      string
	op       string // equals, contains, atLeast, present
	equals   json.RawMessage
	contains string
	atLeast  float64
	present  bool
}

type toolSpec struct {
	path        string
	name, desc  string
	schema      json.RawMessage
	validation  tool.Mode
	ceiling     *resultCeiling
	rules       map[string]tool.Rule
	period      *tool.Period
	results     []canned
	conditional int // how many results carry a "when"
}

// canned is one scripted tool result.
type canned struct {
	path    string
	when    wire.Object // argument subset; nil: served in call order
	kind    string      // value, error, panic, pause, absent, described
	value   any         // value: the content (decoded, key order kept); pause: the data
	status  tool.Status
	cover   any    // value: the coverage declaration to wrap it in
	message string // error, panic
	decl    any    // absent, described: the declaration
}

type turn struct {
	path   string
	user   string
	resume json.RawMessage // set for a resume turn
}

type expectSpec struct {
	answer         *string
	answerContains []string
	toolCalls      []expectedCall
	statuses       []string
	checkStatuses  bool
	iterations     int
	standing       string
	reasons        []string
}

type expectedCall struct {
	name string
	args wire.Object // nil: any arguments
}

// Keys of each object, in the order the documentation lists them.
var (
	fileKeys    = []string{"$schema", "name", "description", "agent", "tools", "mcp", "replies", "turns", "expect", "corpora"}
	agentKeys   = []string{"id", "model", "systemPrompt", "maxIterations", "wrapUp", "temperature", "maxTokens", "resultsLayer", "limitsTravelWithTheAnswer", "time", "units", "retrieval"}
	unitKeys    = []string{"id", "kind", "text", "slot", "role", "priority", "version", "when", "onToolReturn", "tools"}
	whenKeys    = []string{"label", "key", "equals", "contains", "atLeast", "present"}
	toolKeys    = []string{"name", "description", "inputSchema", "validation", "resultCeiling", "askOrAssume", "period", "retention", "granularity", "results"}
	ceilingKeys = []string{"maxChars", "narrowBy"}
	resultKeys  = []string{"when", "value", "status", "coverage", "error", "panic", "pause", "absent", "described"}
	resultKinds = []string{"value", "error", "panic", "pause", "absent", "described"}
	turnKeys    = []string{"user", "resume"}
	expectKeys  = []string{"answer", "answerContains", "toolCalls", "statuses", "iterations", "standing", "reasons"}
	replyKeys   = []string{"content", "toolCalls", "usage", "stopReason", "error", "delay"}
	callKeys    = []string{"id", "name", "args", "argsText", "argsError"}
	callExpKeys = []string{"name", "args"}
)

// Load reads and validates the scenario file at path (see Parse).
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	f, err := parse(data, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Parse reads and validates a scenario file. It refuses, with a *FieldError naming the
// field path, anything that is not JSON, an unknown key, a value of the wrong
// type, an unknown status, kind or mode, a tool or unit the agent would refuse, a canned
// coverage declaration the coverage doors would refuse, and a malformed scripted reply.
// It never panics and keeps nothing of data.
func Parse(data []byte) (*File, error) { return parse(data, "") }

// parse is Parse with the directory a corpus file is read from ("" when none can be).
func parse(data []byte, dir string) (*File, error) {
	if len(data) > MaxFileBytes {
		return nil, fieldErr("", "the file is %d bytes; the limit is %d", len(data), MaxFileBytes)
	}
	if err := syntaxCheck(data); err != nil {
		return nil, err
	}
	if err := utf8Check(data); err != nil {
		return nil, err
	}
	v, err := wire.DecodeJSON(data)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "coverage: ")
		return nil, fieldErr("", "%s", strings.TrimPrefix(msg, "not a JSON value: "))
	}
	o, err := asObject("", v)
	if err != nil {
		return nil, fieldErr("", "a scenario file is one JSON object, not %s", jsonType(v))
	}
	return parseFile(o, dir)
}

// syntaxCheck reports a JSON syntax error with its line and column.
func syntaxCheck(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, err2 := dec.Token(); err2 == nil {
			return fieldErr("", "unexpected data after the scenario object")
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, se.Offset-1)
		return fieldErr("", "line %d, column %d: not valid JSON: %v", line, col, se)
	}
	return fieldErr("", "not valid JSON: %v", err)
}

// utf8Check refuses a file that is not UTF-8, naming the first bad byte: a JSON decoder would
// replace it with U+FFFD and the scenario would run on text nobody wrote.
func utf8Check(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	line, col := lineCol(data, int64(off))
	return fieldErr("", "line %d, column %d: byte 0x%02x is not UTF-8; a scenario file must be UTF-8 text (nothing was replaced)", line, col, data[off])
}

func lineCol(data []byte, off int64) (int, int) {
	off = max(0, min(off, int64(len(data))))
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

func parseFile(o wire.Object, dir string) (*File, error) {
	if _, ok := o.Get("compose"); ok {
		return parseComposed(o, dir)
	}
	if err := checkKeys("", o, fileKeys); err != nil {
		return nil, err
	}
	f := &File{}
	var err error
	for _, m := range o {
		switch m.Key {
		case "$schema":
			_, err = asString(m.Key, m.Value)
		case "name":
			f.name, err = asString(m.Key, m.Value)
		case "description":
			f.description, err = asString(m.Key, m.Value)
		case "agent":
			f.agent, err = parseAgent(m.Key, m.Value)
		case "tools":
			f.tools, err = parseTools(m.Key, m.Value)
		case "mcp":
			f.mcp, err = parseMCP(m.Key, m.Value)
		case "corpora":
			f.corpora, err = parseCorpora(m.Key, m.Value, dir)
		case "replies":
			f.replies, err = parseReplies(m.Key, m.Value)
		case "turns":
			f.turns, err = parseTurns(m.Key, m.Value)
		case "expect":
			f.expect, err = parseExpect(m.Key, m.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	if _, ok := o.Get("replies"); !ok {
		return nil, fieldErr("replies", "missing: list the model's scripted replies, one per model call")
	}
	if len(f.turns) == 0 {
		return nil, fieldErr("turns", "missing: give at least one turn, such as [{\"user\": \"What is broken?\"}]")
	}
	if err := f.crossCheck(); err != nil {
		return nil, err
	}
	if err := f.checkRetrieval(); err != nil {
		return nil, err
	}
	return f, nil
}

// crossCheck refuses references between sections that do not resolve.
func (f *File) crossCheck() error {
	names := map[string]bool{}
	for _, t := range f.tools {
		names[t.name] = true
	}
	known := func() string {
		if len(names) == 0 {
			return "the file declares no tools"
		}
		var ns []string
		for _, t := range f.tools {
			ns = append(ns, t.name)
		}
		return "the tools are " + strings.Join(ns, ", ")
	}
	for _, u := range f.agent.units {
		for i, n := range u.onToolReturn {
			if !names[n] {
				return fieldErr(index(join(u.path, "onToolReturn"), i), "no tool named %q; %s", n, known())
			}
		}
		for i, n := range u.skillTools {
			if !names[n] {
				return fieldErr(index(join(u.path, "tools"), i), "no tool named %q; %s", n, known())
			}
		}
	}
	ids := map[string]string{}
	for _, u := range f.agent.units {
		if prev, ok := ids[u.id]; ok {
			return fieldErr(join(u.path, "id"), "%q is already the id of %s", u.id, prev)
		}
		ids[u.id] = u.path
	}
	if f.agent.systemPrompt != "" {
		if p, ok := ids["system-prompt"]; ok {
			return fieldErr(join(p, "id"), "\"system-prompt\" is the id agent.systemPrompt takes; choose another")
		}
	}
	if f.turns[0].resume != nil {
		return fieldErr("turns[0].resume", "the first turn must be a user message: there is no pause to resume yet")
	}
	return nil
}

func parseAgent(path string, v any) (agentSpec, error) {
	var a agentSpec
	o, err := asObject(path, v)
	if err != nil {
		return a, err
	}
	if err := checkKeys(path, o, agentKeys); err != nil {
		return a, err
	}
	for _, m := range o {
		p := join(path, m.Key)
		switch m.Key {
		case "id":
			a.id, err = asString(p, m.Value)
		case "model":
			a.model, err = asString(p, m.Value)
		case "systemPrompt":
			a.systemPrompt, err = asString(p, m.Value)
			if err == nil && strings.TrimSpace(a.systemPrompt) == "" {
				err = fieldErr(p, "is blank; leave the key out for no system prompt")
			}
		case "maxIterations":
			a.maxIterations, err = asInt(p, m.Value, 1)
		case "wrapUp":
			var b bool
			b, err = asBool(p, m.Value)
			a.wrapUp = &b
		case "temperature":
			var t float64
			t, err = asFloat(p, m.Value)
			if err == nil && (t < 0 || t > 2) {
				err = fieldErr(p, "want a temperature from 0 to 2, got %v", t)
			}
			a.temperature = &t
		case "maxTokens":
			a.maxTokens, err = asInt(p, m.Value, 1)
		case "resultsLayer":
			a.resultsLayer, err = asBool(p, m.Value)
		case "limitsTravelWithTheAnswer":
			a.limits, err = asBool(p, m.Value)
		case "time":
			a.time, err = parseTime(p, m.Value)
		case "units":
			a.units, err = parseUnits(p, m.Value)
		case "retrieval":
			a.retrieval, err = parseRetrievals(p, m.Value)
		}
		if err != nil {
			return a, err
		}
	}
	return a, nil
}

var unitKinds = []string{string(inject.KindFact), string(inject.KindSteering), string(inject.KindInstruction), string(inject.KindSkill)}

func parseUnits(path string, v any) ([]unitSpec, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]unitSpec, 0, len(arr))
	for i, e := range arr {
		u, err := parseUnit(index(path, i), e)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}

func parseUnit(path string, v any) (unitSpec, error) {
	u := unitSpec{path: path}
	o, err := asObject(path, v)
	if err != nil {
		return u, err
	}
	if err := checkKeys(path, o, unitKeys); err != nil {
		return u, err
	}
	for _, k := range []string{"id", "kind", "text"} {
		if _, ok := o.Get(k); !ok {
			return u, fieldErr(join(path, k), "missing: a unit needs an id, a kind and its text")
		}
	}
	for _, m := range o {
		p := join(path, m.Key)
		switch m.Key {
		case "id":
			u.id, err = asString(p, m.Value)
		case "kind":
			var s string
			if s, err = asString(p, m.Value); err == nil {
				err = enumWord(p, "unit kind", s, unitKinds)
				u.kind = inject.Kind(s)
			}
		case "text":
			u.text, err = asString(p, m.Value)
		case "slot":
			var s string
			if s, err = asString(p, m.Value); err == nil {
				err = enumWord(p, "slot", s, []string{string(inject.SlotSystem), string(inject.SlotMessages)})
				u.slot = inject.Slot(s)
			}
		case "role":
			var s string
			if s, err = asString(p, m.Value); err == nil {
				err = enumWord(p, "role", s, []string{string(llm.RoleUser), string(llm.RoleSystem)})
				u.role = llm.Role(s)
			}
		case "priority":
			var n json.Number
			n, _ = m.Value.(json.Number)
			var i int64
			if i, err = n.Int64(); err != nil || i < -1000000 || i > 1000000 {
				err = fieldErr(p, "want a whole number from -1000000 to 1000000, got %s", jsonType(m.Value))
			}
			u.priority = int(i)
		case "version":
			u.version, err = asString(p, m.Value)
		case "when":
			u.when, err = parseCondition(p, m.Value)
		case "onToolReturn":
			u.onToolReturn, err = asStrings(p, m.Value)
			if err == nil && len(u.onToolReturn) == 0 {
				err = fieldErr(p, "is empty; name at least one tool, or leave the key out")
			}
		case "tools":
			u.skillTools, err = asStrings(p, m.Value)
		}
		if err != nil {
			return u, err
		}
	}
	if u.role != "" && u.slot != inject.SlotMessages {
		return u, fieldErr(join(path, "role"), "applies only with \"slot\": \"messages\"")
	}
	if u.slot == inject.SlotMessages && u.role == "" {
		u.role = llm.RoleUser
	}
	switch u.kind {
	case inject.KindInstruction:
		if u.when == nil {
			return u, fieldErr(join(path, "when"), "missing: an instruction applies under a rule; give {\"key\": …, \"contains\": …} or another condition")
		}
		if u.onToolReturn != nil {
			return u, fieldErr(join(path, "onToolReturn"), "an instruction fires by its \"when\" rule; use a fact or steering unit to fire on a tool's return")
		}
	case inject.KindSkill:
		for _, k := range []string{"when", "onToolReturn", "slot", "role"} {
			if _, ok := o.Get(k); ok {
				return u, fieldErr(join(path, k), "a skill is loaded by the model through read_skill; it takes no %s", k)
			}
		}
	}
	if u.kind != inject.KindSkill && u.skillTools != nil {
		return u, fieldErr(join(path, "tools"), "only a skill names the tools it is about")
	}
	if u.when != nil && u.onToolReturn != nil {
		return u, fieldErr(join(path, "onToolReturn"), "cannot be given together with \"when\"; a unit has one trigger")
	}
	if strings.TrimSpace(u.text) == "" {
		return u, fieldErr(join(path, "text"), "is blank; write the unit's text")
	}
	// Let inject judge the rest (the id's shape) now, so the error names the unit.
	if _, err := buildUnit(u); err != nil {
		msg := strings.TrimPrefix(err.Error(), "inject: ")
		if strings.HasPrefix(msg, "unit id ") {
			return u, fieldErr(join(path, "id"), "%s", msg)
		}
		return u, fieldErr(path, "%s", msg)
	}
	return u, nil
}

func parseCondition(path string, v any) (*condition, error) {
	o, err := asObject(path, v)
	if err != nil {
		return nil, err
	}
	if err := checkKeys(path, o, whenKeys); err != nil {
		return nil, err
	}
	c := &condition{}
	if c.key, err = requiredString(path, o, "key"); err != nil {
		return nil, err
	}
	if lv, ok := o.Get("label"); ok {
		if c.label, err = asString(join(path, "label"), lv); err != nil {
			return nil, err
		}
	}
	op, err := oneOf(path, o, []string{"equals", "contains", "atLeast", "present"})
	if err != nil {
		return nil, err
	}
	c.op = op
	val, _ := o.Get(op)
	p := join(path, op)
	switch op {
	case "equals":
		c.equals, err = rawJSON(val)
	case "contains":
		c.contains, err = asString(p, val)
	case "atLeast":
		c.atLeast, err = asFloat(p, val)
	case "present":
		c.present, err = asBool(p, val)
	}
	if err != nil {
		return nil, err
	}
	if c.label == "" {
		c.label = c.describe()
	}
	return c, nil
}

func requiredString(path string, o wire.Object, key string) (string, error) {
	v, ok := o.Get(key)
	if !ok {
		return "", fieldErr(join(path, key), "missing")
	}
	s, err := asString(join(path, key), v)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		return "", fieldErr(join(path, key), "is blank")
	}
	return s, nil
}

func parseTools(path string, v any) ([]toolSpec, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	out := make([]toolSpec, 0, len(arr))
	for i, e := range arr {
		t, err := parseTool(index(path, i), e)
		if err != nil {
			return nil, err
		}
		if j, ok := seen[t.name]; ok {
			return nil, fieldErr(join(t.path, "name"), "%q is already the name of tools[%d]", t.name, j)
		}
		seen[t.name] = i
		out = append(out, t)
	}
	return out, nil
}

var validationModes = []string{string(tool.ModeEnforce), string(tool.ModeWarn), string(tool.ModeOff)}

func parseTool(path string, v any) (toolSpec, error) {
	t := toolSpec{path: path}
	o, err := asObject(path, v)
	if err != nil {
		return t, err
	}
	if err := checkKeys(path, o, toolKeys); err != nil {
		return t, err
	}
	if t.name, err = requiredString(path, o, "name"); err != nil {
		return t, err
	}
	for _, m := range o {
		p := join(path, m.Key)
		switch m.Key {
		case "description":
			t.desc, err = asString(p, m.Value)
		case "inputSchema":
			if _, err = asObject(p, m.Value); err == nil {
				t.schema, err = rawJSON(m.Value)
			}
		case "validation":
			var s string
			if s, err = asString(p, m.Value); err == nil {
				err = enumWord(p, "validation mode", s, validationModes)
				t.validation = tool.Mode(s)
			}
		case "resultCeiling":
			t.ceiling, err = parseCeiling(p, m.Value)
		case "askOrAssume":
			t.rules, err = parseRules(p, m.Value)
		case "period":
			t.period, err = parsePeriod(p, m.Value)
		case "results":
			t.results, err = parseResults(p, m.Value)
		}
		if err != nil {
			return t, err
		}
	}
	for _, k := range []string{"retention", "granularity"} {
		v, ok := o.Get(k)
		if !ok {
			continue
		}
		if t.period == nil {
			return t, fieldErr(join(path, k), "describes the tool's period source; declare \"period\" too")
		}
		s, err := asString(join(path, k), v)
		if err != nil {
			return t, err
		}
		if k == "retention" {
			t.period.Retention = s
		} else {
			t.period.Granularity = s
		}
	}
	if t.desc == "" {
		t.desc = "Scripted tool " + t.name + "."
	}
	if t.schema == nil {
		t.schema = json.RawMessage(`{"type":"object"}`)
	}
	for _, r := range t.results {
		if r.when != nil {
			t.conditional++
		}
	}
	// Let the tool package judge the definition now, so the error names the tool.
	if _, err := t.build(nil); err != nil {
		var de *tool.DefinitionError
		if errors.As(err, &de) {
			msg := strings.TrimSpace(de.Problem + "; " + de.Fix)
			if de.Err != nil {
				msg += " (" + de.Err.Error() + ")"
			}
			return t, fieldErr(join(path, toolField(de.Path)), "%s", msg)
		}
		return t, fieldErr(path, "%v", err)
	}
	return t, nil
}

// toolField maps a tool.DefinitionError path onto the scenario's key names.
func toolField(p string) string {
	switch {
	case p == "period.retention" || p == "period.granularity":
		return strings.TrimPrefix(p, "period.")
	case p == "schema" || strings.HasPrefix(p, "schema."):
		return "inputSchema" + strings.TrimPrefix(p, "schema")
	case p == "":
		return "name"
	}
	return p
}

func parseCeiling(path string, v any) (*resultCeiling, error) {
	o, err := asObject(path, v)
	if err != nil {
		return nil, err
	}
	if err := checkKeys(path, o, ceilingKeys); err != nil {
		return nil, err
	}
	c := &resultCeiling{}
	mv, ok := o.Get("maxChars")
	if !ok {
		return nil, fieldErr(join(path, "maxChars"), "missing: the largest served text, in UTF-16 units")
	}
	if c.MaxChars, err = asInt(join(path, "maxChars"), mv, 1); err != nil {
		return nil, err
	}
	if nv, ok := o.Get("narrowBy"); ok {
		if c.NarrowBy, err = asString(join(path, "narrowBy"), nv); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func parseResults(path string, v any) ([]canned, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]canned, 0, len(arr))
	for i, e := range arr {
		r, err := parseResult(index(path, i), e)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

var standingWords = []string{assess.StandingKnown, assess.StandingConsistent, assess.StandingNotSure, assess.StandingAsk, assess.StandingNotAssessed}

var statusWords = func() []string {
	var out []string
	for _, s := range toolrun.Statuses() {
		out = append(out, string(s))
	}
	return out
}()

func parseResult(path string, v any) (canned, error) {
	r := canned{path: path}
	o, err := asObject(path, v)
	if err != nil {
		return r, err
	}
	if err := checkKeys(path, o, resultKeys); err != nil {
		return r, err
	}
	if r.kind, err = oneOf(path, o, resultKinds); err != nil {
		return r, err
	}
	if r.kind != "value" {
		for _, k := range []string{"status", "coverage"} {
			if _, ok := o.Get(k); ok {
				return r, fieldErr(join(path, k), "goes with \"value\" only; a result is one of %s", strings.Join(resultKinds, ", "))
			}
		}
	}
	for _, m := range o {
		p := join(path, m.Key)
		switch m.Key {
		case "when":
			r.when, err = asObject(p, m.Value)
		case "value", "pause":
			r.value = m.Value
		case "status":
			var s string
			if s, err = asString(p, m.Value); err == nil {
				err = enumWord(p, "status", s, statusWords)
				r.status = tool.Status(s)
			}
		case "coverage":
			r.cover = m.Value
		case "error", "panic":
			r.message, err = asString(p, m.Value)
			if err == nil && strings.TrimSpace(r.message) == "" {
				err = fieldErr(p, "is blank; say what went wrong")
			}
		case "absent", "described":
			r.decl = m.Value
		}
		if err != nil {
			return r, err
		}
	}
	// Mint the envelope once now so a refused declaration names its field here.
	if _, err := r.content(); err != nil {
		var rf *coverage.Refusal
		if errors.As(err, &rf) {
			key := r.kind
			if r.cover != nil {
				key = "coverage"
			}
			fp := join(path, key)
			if rf.Field != "" {
				fp = join(fp, rf.Field)
			}
			return r, fieldErr(fp, "%s", strings.TrimPrefix(rf.Message, wire.RefusedPrefix))
		}
		return r, fieldErr(path, "%v", err)
	}
	return r, nil
}

func parseReplies(path string, v any) ([]scripted.Reply, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]scripted.Reply, len(arr))
	for i, e := range arr {
		p := index(path, i)
		o, err := asObject(p, e)
		if err != nil {
			return nil, err
		}
		if err := checkKeys(p, o, replyKeys); err != nil {
			return nil, err
		}
		if tcs, ok := o.Get("toolCalls"); ok {
			calls, err := asArray(join(p, "toolCalls"), tcs)
			if err != nil {
				return nil, err
			}
			for j, c := range calls {
				cp := index(join(p, "toolCalls"), j)
				co, err := asObject(cp, c)
				if err != nil {
					return nil, err
				}
				if err := checkKeys(cp, co, callKeys); err != nil {
					return nil, err
				}
			}
		}
		if err := checkReplyTypes(p, o); err != nil {
			return nil, err
		}
		raw, err := rawJSON(o)
		if err != nil {
			return nil, fieldErr(p, "%v", err)
		}
		if err := out[i].UnmarshalJSON(raw); err != nil {
			return nil, replyErr(p, err)
		}
	}
	return out, nil
}

var (
	usageKeys      = []string{"input", "output", "cacheRead", "cacheWrite", "reported"}
	replyErrorKeys = []string{"kind", "message", "status", "retryAfter", "retryable", "resumable"}
)

// checkReplyTypes checks the types of a reply's members, so that a wrong type is named by
// its path rather than by the decoder's Go names.
func checkReplyTypes(path string, o wire.Object) error {
	for _, m := range o {
		p := join(path, m.Key)
		var err error
		switch m.Key {
		case "content", "stopReason", "delay":
			_, err = asString(p, m.Value)
		case "usage":
			var u wire.Object
			if u, err = asObject(p, m.Value); err == nil {
				if err = checkKeys(p, u, usageKeys); err == nil {
					for _, um := range u {
						if um.Key == "reported" {
							_, err = asBool(join(p, um.Key), um.Value)
						} else {
							_, err = asInt(join(p, um.Key), um.Value, 0)
						}
						if err != nil {
							break
						}
					}
				}
			}
		case "error":
			if _, isStr := m.Value.(string); isStr {
				continue
			}
			var e wire.Object
			if e, err = asObject(p, m.Value); err != nil {
				return fieldErr(p, "want a sentence or {kind, message, …}, got %s", jsonType(m.Value))
			}
			err = checkKeys(p, e, replyErrorKeys)
		case "toolCalls":
			calls, _ := m.Value.([]any)
			for j, c := range calls {
				co, _ := c.(wire.Object)
				for _, cm := range co {
					if cm.Key == "id" || cm.Key == "name" || cm.Key == "argsText" || cm.Key == "argsError" {
						if _, err = asString(join(index(p, j), cm.Key), cm.Value); err != nil {
							return err
						}
					}
				}
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// replyKeyPath matches a key path the scripted package puts before its problems.
var replyKeyPath = regexp.MustCompile(`^[a-zA-Z]+(\[[0-9]+\])?(\.[a-zA-Z]+)*$`)

// replyErr turns the scripted package's "reply: key: key: problem" into a field error.
func replyErr(path string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "reply: ")
	known := append(append(append([]string{}, replyKeys...), replyErrorKeys...), callKeys...)
	for {
		key, rest, ok := strings.Cut(msg, ": ")
		if !ok || !replyKeyPath.MatchString(key) {
			break
		}
		base, _, _ := strings.Cut(key, "[")
		if !slices.Contains(known, base) {
			break
		}
		path, msg = join(path, key), rest
	}
	return fieldErr(path, "%s", msg)
}

func parseTurns(path string, v any) ([]turn, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]turn, 0, len(arr))
	for i, e := range arr {
		p := index(path, i)
		o, err := asObject(p, e)
		if err != nil {
			return nil, err
		}
		if err := checkKeys(p, o, turnKeys); err != nil {
			return nil, err
		}
		k, err := oneOf(p, o, turnKeys)
		if err != nil {
			return nil, err
		}
		val, _ := o.Get(k)
		t := turn{path: p}
		if k == "user" {
			if t.user, err = asString(join(p, k), val); err != nil {
				return nil, err
			}
			if strings.TrimSpace(t.user) == "" {
				return nil, fieldErr(join(p, k), "is blank; write the person's message")
			}
		} else {
			if t.resume, err = rawJSON(val); err != nil {
				return nil, fieldErr(join(p, k), "%v", err)
			}
		}
		out = append(out, t)
	}
	return out, nil
}

func parseExpect(path string, v any) (*expectSpec, error) {
	o, err := asObject(path, v)
	if err != nil {
		return nil, err
	}
	if err := checkKeys(path, o, expectKeys); err != nil {
		return nil, err
	}
	e := &expectSpec{}
	for _, m := range o {
		p := join(path, m.Key)
		switch m.Key {
		case "answer":
			var s string
			s, err = asString(p, m.Value)
			e.answer = &s
		case "answerContains":
			e.answerContains, err = asStrings(p, m.Value)
		case "toolCalls":
			e.toolCalls, err = parseExpectedCalls(p, m.Value)
		case "statuses":
			e.checkStatuses = true
			e.statuses, err = asStrings(p, m.Value)
			for i, s := range e.statuses {
				if err == nil && s != "" {
					err = enumWord(index(p, i), "status", s, statusWords)
				}
			}
		case "iterations":
			e.iterations, err = asInt(p, m.Value, 1)
		case "standing":
			if e.standing, err = asString(p, m.Value); err == nil {
				err = enumWord(p, "standing", e.standing, standingWords)
			}
		case "reasons":
			e.reasons, err = asStrings(p, m.Value)
			for i, r := range e.reasons {
				if err == nil {
					err = enumWord(index(p, i), "reason", r, assess.ReasonOrder())
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return e, nil
}

func parseExpectedCalls(path string, v any) ([]expectedCall, error) {
	arr, err := asArray(path, v)
	if err != nil {
		return nil, err
	}
	out := make([]expectedCall, 0, len(arr))
	for i, e := range arr {
		p := index(path, i)
		if s, ok := e.(string); ok {
			out = append(out, expectedCall{name: s})
			continue
		}
		o, err := asObject(p, e)
		if err != nil {
			return nil, fieldErr(p, "want a tool name or {\"name\", \"args\"}, got %s", jsonType(e))
		}
		if err := checkKeys(p, o, callExpKeys); err != nil {
			return nil, err
		}
		c := expectedCall{}
		if c.name, err = requiredString(p, o, "name"); err != nil {
			return nil, err
		}
		if a, ok := o.Get("args"); ok {
			if c.args, err = asObject(join(p, "args"), a); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// resultCeiling is a tool's resultCeiling key as read: the largest served
// text and how to ask for less (passed on to tool.WithResultCeiling).
type resultCeiling struct {
	MaxChars int
	NarrowBy string
}
