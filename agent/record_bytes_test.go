// What was sent is stored once: for every provider encoding and for runs of
// 1, 10 and 200 model calls, every request a record keeps rebuilds to the
// exact bytes whose hash the record holds, after a JSON round trip; and the
// record grows linearly with the run.

package agent_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/anthropic"
	"github.com/agentfootprint/agentfootprint-go/llm/ollama"
	"github.com/agentfootprint/agentfootprint-go/llm/openai"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/tool"
)

// fakeServer answers the first calls-1 requests with one tool call and the
// last with an answer, in the wire form of one provider.
func fakeServer(t testing.TB, calls int, toolCall, answer func(i int) string) *httptest.Server {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		i := int(n.Add(1))
		w.Header().Set("Content-Type", "application/json")
		if i < calls {
			io.WriteString(w, toolCall(i))
			return
		}
		io.WriteString(w, answer(i))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// providerFor builds one provider that makes calls model calls in a turn.
func providerFor(t testing.TB, name string, calls int) llm.Provider {
	switch name {
	case "openai":
		srv := fakeServer(t, calls, func(i int) string {
			return fmt.Sprintf(`{"id":"r%d","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c%d","type":"function","function":{"name":"fetch_logs","arguments":"{\"page\":%d}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`, i, i, i)
		}, func(int) string {
			return `{"id":"rz","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Done."},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`
		})
		return openai.New(openai.Options{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "m"})
	case "anthropic":
		srv := fakeServer(t, calls, func(i int) string {
			return fmt.Sprintf(`{"id":"m%d","type":"message","role":"assistant","model":"m","content":[{"type":"tool_use","id":"c%d","name":"fetch_logs","input":{"page":%d}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}`, i, i, i)
		}, func(int) string {
			return `{"id":"mz","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`
		})
		return anthropic.New(anthropic.Options{BaseURL: srv.URL, APIKey: "k", Model: "m"})
	case "ollama":
		srv := fakeServer(t, calls, func(i int) string {
			return fmt.Sprintf(`{"model":"m","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"fetch_logs","arguments":{"page":%d}}}]},"done":true,"done_reason":"stop","prompt_eval_count":1,"eval_count":1}`, i)
		}, func(int) string {
			return `{"model":"m","message":{"role":"assistant","content":"Done."},"done":true,"done_reason":"stop","prompt_eval_count":1,"eval_count":1}`
		})
		return ollama.New(ollama.Options{BaseURL: srv.URL, Model: "m"})
	}
	var rs []scripted.Reply
	for i := 1; i < calls; i++ {
		rs = append(rs, scripted.Reply{ToolCalls: []llm.ToolCall{call(fmt.Sprintf("c%d", i), "fetch_logs", fmt.Sprintf(`{"page":%d}`, i))}})
	}
	return scripted.New(append(rs, scripted.Reply{Content: "Done."})...)
}

// logsTool returns about 2 KB of log lines per page.
func logsTool(t testing.TB) *tool.Tool {
	return tool.Must(tool.New("fetch_logs", "Fetch one page of logs.",
		func(_ context.Context, in struct {
			Page int `json:"page"`
		}) (string, error) {
			return strings.Repeat(fmt.Sprintf("page %d: checkout error rate 12%%, upstream reset\n", in.Page), 40), nil
		}))
}

// runCalls runs one turn of calls model calls on provider name and returns
// the record after a JSON round trip, and its encoded size.
func runCalls(t testing.TB, name string, calls int) (*record.Record, int) {
	return runCallsWith(t, name, calls, 0)
}

// runCallsWith is runCalls with more tools declared beside the one the
// model calls, each with a description and a schema of a few hundred bytes.
func runCallsWith(t testing.TB, name string, calls, moreTools int) (*record.Record, int) {
	tools := []*tool.Tool{logsTool(t)}
	for i := range moreTools {
		tools = append(tools, tool.Must(tool.New(fmt.Sprintf("lookup_%d", i),
			fmt.Sprintf("Look up one record of kind %d by its id, with the fields the caller names, from the primary store.", i),
			func(_ context.Context, in struct {
				ID     string   `json:"id" jsonschema:"the record's id"`
				Fields []string `json:"fields,omitempty" jsonschema:"the fields to return; all when empty"`
				Region string   `json:"region,omitempty" jsonschema:"the region whose store to read"`
			}) (string, error) {
				return in.ID, nil
			})))
	}
	a, err := agent.New(providerFor(t, name, calls), agent.WithTools(tools...),
		agent.WithSystemPrompt("You read logs page by page."), agent.WithMaxIterations(calls+1))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), agent.Input{Message: "Read every page."})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "Done." {
		t.Fatalf("%s: answer %q after %d iterations", name, res.Answer, res.Iterations)
	}
	b, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return rec, len(b)
}

func TestRebuiltRequestsHashToTheRecordedHash(t *testing.T) {
	for _, name := range []string{"scripted", "openai", "anthropic", "ollama"} {
		for _, calls := range []int{1, 10, 200} {
			if testing.Short() && calls > 10 {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", name, calls), func(t *testing.T) {
				rec, _ := runCalls(t, name, calls)
				n, deltas := 0, 0
				for _, c := range rec.Log.Commits {
					for _, op := range c.Ops {
						req, ok := op.Value.(state.LLMRequest)
						if op.Key != state.KeyLLMRequest.KeyName() || op.Verb != flow.VerbSet || !ok {
							continue
						}
						n++
						if _, whole := rec.Blobs[req.Request.Sha256]; !whole {
							deltas++
							// The declarations go out with every call and are kept once.
							d := rec.Requests[req.Request.Sha256]
							if tail, _ := rec.Blob(d.Tail); bytes.Contains(tail, []byte("Fetch one page of logs.")) {
								t.Fatalf("call %d: the tool's declaration is stored again in the request's tail", req.Iteration)
							}
						}
						body, ok := rec.Blob(req.Request.Blob)
						if !ok {
							t.Fatalf("call %d: request %s does not rebuild", req.Iteration, req.Request.Blob)
						}
						sum := sha256.Sum256(body)
						if got := hex.EncodeToString(sum[:]); got != req.Request.Sha256 || len(body) != req.Request.Bytes {
							t.Fatalf("call %d: rebuilt %d bytes hashing %s, recorded %d bytes %s", req.Iteration, len(body), got, req.Request.Bytes, req.Request.Sha256)
						}
						for _, s := range rec.RequestSpans(req) {
							if s.Start < 0 || s.Start > s.End || s.End > len(body) {
								t.Fatalf("call %d: span %+v outside the %d-byte request", req.Iteration, s, len(body))
							}
						}
					}
				}
				if n != calls {
					t.Fatalf("%d model calls recorded, want %d", n, calls)
				}
				if calls > 1 && deltas == 0 {
					t.Errorf("no request was kept as a delta in a run of %d calls", calls)
				}
			})
		}
	}
}

// TestRecordGrowsLinearly: with 2 KB tool results, 200 iterations store at
// most 4.5× the bytes of 50 (a record that kept every request whole grew
// 13.7× for 4× the iterations).
func TestRecordGrowsLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 250 model calls")
	}
	_, at50 := runCalls(t, "scripted", 50)
	_, at200 := runCalls(t, "scripted", 200)
	if ratio := float64(at200) / float64(at50); ratio > 4.5 {
		t.Errorf("record of 200 calls: %d bytes, %.2f× the 50-call record (%d bytes); want ≤ 4.5×", at200, ratio, at50)
	}
}

// BenchmarkRecordBytes reports the encoded record size and the time of a
// turn of 1, 10, 50 and 200 model calls (2 KB tool results), and of 50
// calls with twelve more tools declared.
func BenchmarkRecordBytes(b *testing.B) {
	for _, bc := range []struct{ calls, moreTools int }{{1, 0}, {10, 0}, {50, 0}, {200, 0}, {50, 12}} {
		name := fmt.Sprintf("calls=%d", bc.calls)
		if bc.moreTools > 0 {
			name += fmt.Sprintf(",tools=%d", bc.moreTools+1)
		}
		b.Run(name, func(b *testing.B) {
			size := 0
			for b.Loop() {
				_, size = runCallsWith(b, "scripted", bc.calls, bc.moreTools)
			}
			b.ReportMetric(float64(size), "record-bytes")
			b.ReportMetric(float64(size)/float64(bc.calls), "bytes/call")
		})
	}
}

// conversation holds a conversation of turns turns, each: one page of the tool's logs, then
// an answer. It returns every turn's result and the bytes of its unique content: each
// distinct text once — the system prompt, the tool's declaration, every message and
// tool-call argument of the final history.
func conversation(t testing.TB, turns int, lt *tool.Tool) (results []*agent.Result, unique int) {
	var rs []scripted.Reply
	for i := 1; i <= turns; i++ {
		rs = append(rs,
			scripted.Reply{ToolCalls: []llm.ToolCall{call(fmt.Sprintf("c%d", i), "fetch_logs", fmt.Sprintf(`{"page":%d}`, i))}},
			scripted.Reply{Content: fmt.Sprintf("Page %d shows the checkout error rate at 12%% with upstream resets.", i)})
	}
	const system = "You read logs page by page."
	a, err := agent.New(scripted.New(rs...), agent.WithTools(lt), agent.WithSystemPrompt(system))
	if err != nil {
		t.Fatal(err)
	}
	conv := a.NewConversation()
	for i := 1; i <= turns; i++ {
		res, err := conv.Send(context.Background(), agent.Input{Message: fmt.Sprintf("What does page %d say?", i)})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	seen := map[string]bool{system: true}
	seen[lt.Name()+lt.Declaration().Description+string(lt.Declaration().InputSchema)] = true
	for _, m := range conv.History() {
		seen[m.Content] = true
		for _, c := range m.ToolCalls {
			seen[c.Name+string(c.Args)] = true
		}
	}
	for s := range seen {
		unique += len(s)
	}
	return results, unique
}

// conversationBytes holds a conversation of turns turns (each: one 2 KB tool result, then
// an answer) and returns the bytes of its turns' records together and the bytes of its
// unique content (see conversation).
func conversationBytes(t testing.TB, turns int) (records, unique int) {
	results, unique := conversation(t, turns, logsTool(t))
	for _, res := range results {
		b, err := json.Marshal(res.Record)
		if err != nil {
			t.Fatal(err)
		}
		records += len(b)
	}
	return records, unique
}

// TestConversationBytes logs how a 20-turn conversation's records compare
// with its unique content (issue 14 asks ≤ 1.5×; measured, not asserted
// here: see docs/PERFORMANCE.md).
func TestConversationBytes(t *testing.T) {
	stored, unique := conversationBytes(t, 20)
	t.Logf("20 turns: records %d bytes, unique content %d bytes, %.2f×", stored, unique, float64(stored)/float64(unique))
}
