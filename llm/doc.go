// Package llm is the port between the agent and a language model.
//
// A provider is anything with a Name and a Complete method: build a
// [Request] (model, system segments, messages, tools), call
// Complete(ctx, req), and read the [Response] — its content, whole tool
// calls, stop reason, usage and the [Exchange] that records the exact
// bytes sent and received. A provider that can stream also implements
// [Streamer]; its iterator yields text deltas and whole tool calls and ends
// with one EventDone event whose Response is authoritative.
//
//	p := openai.New(openai.Options{Model: "gpt-4o-mini"}) // or scripted.New(...)
//	resp, err := p.Complete(ctx, &llm.Request{
//		System:   []llm.Segment{{Unit: "persona", Text: "You are terse."}},
//		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Hello"}},
//	})
//
// Every failure a provider returns is an [*Error] whose Message is one
// sentence saying what to fix; callers branch on its Kind with errors.As.
//
// The implementations live in subpackages: llm/scripted (offline, replays
// scripted replies), llm/openai (Chat Completions and every compatible
// server), llm/anthropic (Messages API) and llm/ollama (native /api/chat).
package llm
