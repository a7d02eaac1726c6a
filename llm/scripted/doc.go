// Package scripted is an offline llm.Provider that plays back replies
// written in advance. Tests and demos use it to drive an agent without a
// network or a key.
//
// Replies are consumed in order, one per call, by each Provider; Reset
// rewinds. A call made after the last reply fails with a
// *ScriptExhaustedError. Func builds a provider that computes each reply
// from the request, the call number and the request's seed, for mocks whose
// output must vary with the seed.
//
// Defaults: usage is ⌈chars/4⌉ for input and output (chars counted in
// UTF-16 code units, as in the TypeScript original), the stop reason is
// tool_use when the reply has tool calls and stop otherwise, and an empty
// tool call id becomes call_<n>, where n counts every tool call this
// provider served, those with an id of their own included.
// The exchange recorded for each call is the request's canonical JSON with
// the byte span of every unit, so the explain features work offline.
//
// # JSON form
//
// A reply list is a JSON array of reply objects (see [ParseReplies]); a
// scenario file may embed it, since [Reply] decodes itself. Every key is
// optional:
//
//	[
//	  {"content": "Let me look.",
//	   "toolCalls": [{"name": "search", "args": {"q": "disk"}},
//	                 {"id": "x1", "name": "fetch", "argsText": "{\"url\":"}],
//	   "usage": {"input": 120, "output": 9},
//	   "stopReason": "tool_use",
//	   "delay": "150ms"},
//	  {"error": {"kind": "rate-limit", "message": "slow down", "status": 429, "retryAfter": "2s"}},
//	  {"content": "Done."}
//	]
//
// "args" is the arguments object; "argsText" is raw argument text that is
// not JSON (to script a malformed call). "usage" counts as reported unless
// it says "reported": false; beside input and output it may carry
// cacheRead, cacheWrite and reasoning (the output tokens spent reasoning). "stopReason" is one of stop, tool_use,
// max_tokens, content_filter, other. "delay" is a Go duration. "error" is
// either a sentence (kind unknown) or an object whose "kind" is one of the
// llm error kinds; retryable and resumable default from the kind. Unknown
// keys are refused with their name.
package scripted
