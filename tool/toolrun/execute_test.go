// Tests of executing a tool and reading what it returned: result objects,
// typed results, panics, pauses, the call context, check-ins, the result
// ceiling and the statuses.

package toolrun

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/tool"
)

// searchSchema is a tool schema with service and window required, window an
// enum of look-backs.
const searchSchema = `{"type":"object","properties":{"service":{"type":"string"},"window":{"type":"string","enum":["1h","2h","24h","7d"]},"limit":{"type":"integer","minimum":1},"verbose":{"type":"boolean"},"tags":{"type":"array","items":{"type":"string"}},"since":{"type":["string","null"]}},"required":["service","window"]}`

func noop(context.Context, json.RawMessage) (any, error) { return "ok", nil }

func newSearch(opts ...tool.Option) (*tool.Tool, error) {
	return tool.NewRaw("search_logs", "Search a service's logs.", json.RawMessage(searchSchema), noop, opts...)
}

func TestReadRawResults(t *testing.T) {
	tests := []struct {
		name string
		ret  any
		want Output
		text string
	}{
		{"string is data", "plain text", Output{Value: "plain text"}, "plain text"},
		{"map is data", map[string]any{"rows": []any{1.0}}, Output{Value: map[string]any{"rows": []any{1.0}}}, `{"rows":[1]}`},
		{"result object", map[string]any{"content": "done", "status": "partial"}, Output{Value: "done", Status: tool.StatusPartial, Wrapped: true}, "done"},
		{"result object with effects", map[string]any{"content": []any{"a"}, "effects": map[string]any{"wrote": 1.0}}, Output{Value: []any{"a"}, Effects: json.RawMessage(`{"wrote":1}`), Wrapped: true}, `["a"]`},
		{"result object, content only", map[string]any{"content": nil}, Output{Value: nil, Wrapped: true}, "null"},
		{"unknown status is data", map[string]any{"content": "x", "status": "ok"}, Output{Value: map[string]any{"content": "x", "status": "ok"}}, `{"content":"x","status":"ok"}`},
		{"extra key is data", map[string]any{"content": "x", "note": "y"}, Output{Value: map[string]any{"content": "x", "note": "y"}}, `{"content":"x","note":"y"}`},
		{"no content is data", map[string]any{"status": "success"}, Output{Value: map[string]any{"status": "success"}}, `{"status":"success"}`},
		{"json text result object", json.RawMessage(`{"content":"done","status":"absent"}`), Output{Value: "done", Status: tool.StatusAbsent, Wrapped: true}, "done"},
		{"json text content kept as bytes", json.RawMessage(` {"content": [1, 2.50], "effects": {"a": 1}} `), Output{Value: json.RawMessage(`[1, 2.50]`), Effects: json.RawMessage(`{"a": 1}`), Wrapped: true}, "[1, 2.50]"},
		{"json text data", json.RawMessage(`{"rows":[]}`), Output{Value: json.RawMessage(`{"rows":[]}`)}, `{"rows":[]}`},
		{"json text, bad status", json.RawMessage(`{"content":"x","status":7}`), Output{Value: json.RawMessage(`{"content":"x","status":7}`)}, `{"content":"x","status":7}`},
		{"string holding an object stays data", `{"content":"x"}`, Output{Value: `{"content":"x"}`}, `{"content":"x"}`},
		{"tool.Result", tool.Result{Content: "r", Status: tool.StatusDenied}, Output{Value: "r", Status: tool.StatusDenied, Wrapped: true}, "r"},
		{"html stays unescaped", map[string]any{"q": "<a & b>"}, Output{Value: map[string]any{"q": "<a & b>"}}, `{"q":"<a & b>"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, err := tool.NewRaw("raw", "Raw tool.", json.RawMessage(`{"type":"object"}`), func(context.Context, json.RawMessage) (any, error) { return tt.ret, nil })
			if err != nil {
				t.Fatal(err)
			}
			got, err := Execute(context.Background(), tl.Declaration(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("Output (-want +got):\n%s", diff)
			}
			text, err := Text(got.Value)
			if err != nil || text != tt.text {
				t.Fatalf("Text() = %q, %v; want %q", text, err, tt.text)
			}
		})
	}
}

func TestTypedResults(t *testing.T) {
	type out struct {
		Count int    `json:"count"`
		Note  string `json:"note,omitempty"`
	}
	tests := []struct {
		name    string
		fn      func(context.Context, struct{}) (any, error)
		want    Output
		text    string
		wantErr string
	}{
		{"struct marshalled", func(context.Context, struct{}) (any, error) { return out{Count: 2}, nil }, Output{Value: out{Count: 2}}, `{"count":2}`, ""},
		{"result map is data for typed tools", func(context.Context, struct{}) (any, error) { return map[string]any{"content": "x"}, nil }, Output{Value: map[string]any{"content": "x"}}, `{"content":"x"}`, ""},
		{"Result unwrapped", func(context.Context, struct{}) (any, error) {
			return tool.Result{Content: out{Count: 1}, Status: tool.StatusSuccess}, nil
		}, Output{Value: out{Count: 1}, Status: tool.StatusSuccess, Wrapped: true}, `{"count":1}`, ""},
		{"*Result unwrapped", func(context.Context, struct{}) (any, error) {
			return &tool.Result{Content: "p", Status: tool.StatusPending}, nil
		}, Output{Value: "p", Status: tool.StatusPending, Wrapped: true}, "p", ""},
		{"bad status refused", func(context.Context, struct{}) (any, error) { return tool.Result{Content: "x", Status: "done"}, nil }, Output{}, "", `result status "done" is not one of`},
		{"tool error passes through", func(context.Context, struct{}) (any, error) { return nil, errors.New("disk full") }, Output{}, "", "disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := tool.Must(tool.New("typed", "Typed tool.", tt.fn))
			got, err := Execute(context.Background(), tl.Declaration(), json.RawMessage(`{}`))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("Output (-want +got):\n%s", diff)
			}
			if text, _ := Text(got.Value); text != tt.text {
				t.Fatalf("Text() = %q, want %q", text, tt.text)
			}
		})
	}
}

func TestStringOutPassesAsIs(t *testing.T) {
	tl := tool.Must(tool.New("echo", "Echo.", func(_ context.Context, in struct {
		S string `json:"s"`
	}) (string, error) {
		return in.S, nil
	}))
	out, err := Execute(context.Background(), tl.Declaration(), json.RawMessage(`{"s":"a \"quoted\" <b>"}`))
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := Text(out.Value); text != `a "quoted" <b>` {
		t.Fatalf("Text() = %q", text)
	}
}

func TestPanicAndPauseReachTheDispatcher(t *testing.T) {
	panicky := tool.Must(tool.New("panicky", "Panics.", func(context.Context, struct{}) (string, error) { panic("index out of range") }))
	_, err := Execute(context.Background(), panicky.Declaration(), nil)
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Tool != "panicky" || pe.Value != "index out of range" || len(pe.Stack) == 0 {
		t.Fatalf("err = %#v, want *PanicError", err)
	}
	if err.Error() != `tool "panicky" panicked: index out of range` {
		t.Fatalf("Error() = %q", err.Error())
	}

	asking := tool.Must(tool.New("restart", "Restarts a service.", func(context.Context, struct{}) (string, error) {
		return "", tool.Pause(map[string]any{"question": "Restart checkout?"})
	}))
	o := Invoke(context.Background(), asking.Declaration(), nil, "")
	data, ok := PauseData(o.Err)
	if !ok || !o.Ran {
		t.Fatalf("outcome %+v is not a pause", o)
	}
	if diff := cmp.Diff(map[string]any{"question": "Restart checkout?"}, data); diff != "" {
		t.Fatalf("pause data (-want +got):\n%s", diff)
	}
	if data, ok := PauseData(&wrapErr{tool.Pause("x")}); !ok || data != "x" {
		t.Fatalf("a wrapped pause is not found: %v %v", data, ok)
	}
	if data, ok := PauseData(errors.New("disk full")); ok || data != nil {
		t.Fatalf("a plain error reads as a pause: %v", data)
	}
	if got := tool.Pause(1).Error(); got != "tool asked to pause the run for a person (data: int)" {
		t.Fatalf("Pause(1).Error() = %q", got)
	}
}

type wrapErr struct{ err error }

func (w *wrapErr) Error() string { return "wrapped: " + w.err.Error() }
func (w *wrapErr) Unwrap() error { return w.err }

func TestExecuteDoesNotLetTheToolModifyArgs(t *testing.T) {
	tl := tool.Must(tool.NewRaw("mutator", "Mutates.", json.RawMessage(`{"type":"object"}`), func(_ context.Context, args json.RawMessage) (any, error) {
		for i := range args {
			args[i] = 'x'
		}
		return "ok", nil
	}))
	args := json.RawMessage(`{"a":1}`)
	if _, err := Execute(context.Background(), tl.Declaration(), args); err != nil {
		t.Fatal(err)
	}
	if string(args) != `{"a":1}` {
		t.Fatalf("caller's args changed to %s", args)
	}
}

func TestRawToolGetsEmptyObjectForNoArgs(t *testing.T) {
	var seen string
	tl := tool.Must(tool.NewRaw("noargs", "No args.", json.RawMessage(`{"type":"object","properties":{}}`), func(_ context.Context, args json.RawMessage) (any, error) {
		seen = string(args)
		return "", nil
	}))
	if o := Invoke(context.Background(), tl.Declaration(), json.RawMessage("  "), ""); o.Rejection != nil || o.Err != nil {
		t.Fatalf("outcome %+v", o)
	}
	if seen != "{}" {
		t.Fatalf("fn saw %q, want {}", seen)
	}
}

func TestCallContext(t *testing.T) {
	var got tool.Call
	tl := tool.Must(tool.New("ctxtool", "Reads its call.", func(ctx context.Context, _ struct{}) (string, error) {
		var err error
		if got, err = tool.CallFrom(ctx); err != nil {
			return "", err
		}
		got.Progress(map[string]int{"done": 1})
		return "", nil
	}))
	var progress []any
	now := time.Date(2026, 10, 9, 15, 40, 0, 0, time.UTC)
	call := tool.Call{ID: "c1", Name: "ctxtool", Iteration: 2, Turn: 1, Progress: func(p any) { progress = append(progress, p) },
		Time: &tool.CallTime{Zone: "America/Los_Angeles", Now: now, DispatchedAt: now.Add(1500 * time.Millisecond)}}
	if _, err := Execute(WithCall(context.Background(), call), tl.Declaration(), nil); err != nil {
		t.Fatal(err)
	}
	if got.ID != "c1" || got.Name != "ctxtool" || got.Iteration != 2 || got.Turn != 1 || got.Time == nil {
		t.Fatalf("CallFrom = %+v", got)
	}
	if diff := cmp.Diff([]any{map[string]int{"done": 1}}, progress); diff != "" {
		t.Fatalf("progress (-want +got):\n%s", diff)
	}
	b, err := json.Marshal(got.Time)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"version":1,"zone":"America/Los_Angeles","now":"2026-10-09T15:40:00Z","dispatchedAt":"2026-10-09T15:40:01.5Z"}`; string(b) != want {
		t.Fatalf("CallTime JSON\n got %s\nwant %s", b, want)
	}
	b, _ = json.Marshal(tool.CallTime{Zone: "UTC", ZoneUnknown: true, Now: now.In(time.FixedZone("x", 3600)), DispatchedAt: now})
	if want := `{"version":1,"zone":"UTC","zoneUnknown":true,"now":"2026-10-09T15:40:00Z","dispatchedAt":"2026-10-09T15:40:00Z"}`; string(b) != want {
		t.Fatalf("CallTime JSON\n got %s\nwant %s", b, want)
	}

	none, err := tool.CallFrom(context.Background())
	if err == nil || !strings.Contains(err.Error(), "no call in this context") || none.ID != "" || none.Progress == nil {
		t.Fatalf("CallFrom without a call = %+v, %v; want a zero Call and the no-call error", none, err)
	}
	none.Progress("ignored") // must not panic
}

func TestCheckIn(t *testing.T) {
	plain := tool.Must(newSearch())
	if need, err := NeedsCheckIn(plain.Declaration(), nil); need || err != nil || (plain.Declaration().CheckIn != nil) {
		t.Fatalf("a tool without check-in needs one: %v %v", need, err)
	}
	always := tool.Must(newSearch(tool.WithCheckIn(func(json.RawMessage) bool { return true })))
	if need, err := NeedsCheckIn(always.Declaration(), json.RawMessage(`{}`)); !need || err != nil || !(always.Declaration().CheckIn != nil) {
		t.Fatalf("always: %v %v", need, err)
	}
	big := tool.Must(newSearch(tool.WithCheckIn(func(args json.RawMessage) bool {
		var a struct {
			Limit int `json:"limit"`
		}
		_ = json.Unmarshal(args, &a)
		return a.Limit > 100
	})))
	for _, tc := range []struct {
		args string
		want bool
	}{{`{"limit":5}`, false}, {`{"limit":500}`, true}} {
		if need, _ := NeedsCheckIn(big.Declaration(), json.RawMessage(tc.args)); need != tc.want {
			t.Errorf("NeedsCheckIn(%s) = %v, want %v", tc.args, need, tc.want)
		}
	}
	broken := tool.Must(newSearch(tool.WithCheckIn(func(json.RawMessage) bool { panic("nil map") })))
	need, err := NeedsCheckIn(broken.Declaration(), nil)
	if err == nil || !need || !strings.Contains(err.Error(), "check-in predicate panicked: nil map") {
		t.Fatalf("a panicking predicate: %v %v", need, err)
	}
}

func TestResultCeiling(t *testing.T) {
	tl := tool.Must(newSearch(tool.WithResultCeiling(10, "a shorter window")))
	d := tl.Declaration()
	if d.ResultCeiling != 10 || d.NarrowBy != "a shorter window" {
		t.Fatalf("declared ceiling = %d %q", d.ResultCeiling, d.NarrowBy)
	}
	tests := []struct {
		served string
		size   int
		over   bool
	}{
		{"0123456789", 10, false},
		{"0123456789a", 11, true},
		{"ééééééééé😀", 11, true}, // 9 + a surrogate pair
		{"éééééééé😀", 10, false},
	}
	for _, tt := range tests {
		refusal, size, over := CheckCeiling(d, tt.served)
		if size != tt.size || over != tt.over {
			t.Errorf("Check(%q) size %d over %v, want %d %v", tt.served, size, over, tt.size, tt.over)
		}
		if over != (refusal != "") || strings.Contains(refusal, tt.served) {
			t.Errorf("refusal %q for %q", refusal, tt.served)
		}
	}
	if got := ceilingRefusal("search_logs", 52000, 8000, "a shorter window"); got != "No data was returned: the search_logs result was 52000 characters, over the tool's limit of 8000 characters, so it was withheld rather than cut. Call it again asking for less, narrowing by a shorter window." {
		t.Errorf("refusal text: %q", got)
	}
	if _, _, over := CheckCeiling(tool.Must(newSearch()).Declaration(), strings.Repeat("x", 1<<20)); over {
		t.Errorf("a tool without a ceiling refuses a result")
	}
}

func TestStatuses(t *testing.T) {
	want := []string{"success", "failure", "denied", "invalid", "partial", "pending", "absent"}
	var got []string
	for _, s := range Statuses() {
		got = append(got, string(s))
		if !validStatus(s) {
			t.Errorf("validStatus(%q) = false", s)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("statuses (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"", "Success", " success", "ok", "error"} {
		if validStatus(tool.Status(bad)) {
			t.Errorf("validStatus(%q) accepted", bad)
		}
	}
}
