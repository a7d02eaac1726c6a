// Package anthropic is a hand-written client for the Anthropic Messages
// API (and servers that speak it, such as Ollama's /v1/messages).
//
// The system prompt goes in the top-level "system" string; a batch of tool
// results travels as one user message of tool_result blocks. Streams are
// read with the project's SSE reader: message_start, content_block_start /
// delta / stop (text_delta and input_json_delta), message_delta (usage and
// stop reason), message_stop, ping and error. A refusal maps to the
// content_filter stop reason. Request bytes are recorded exactly, with unit
// spans; failures are *llm.Error values whose message names the fix.
//
// The API refuses tool_use and tool_result blocks in a request that defines
// no tools. A wrap-up call (no tool may run, the history holds calls and
// results) should therefore keep its real tool declarations and set
// ToolChoice to none: they are sent as declared, with tool_choice
// {"type":"none"}, so the model sees what it used and cannot call anything.
// A request that declares no tools at all while its history holds tool
// blocks is still accepted as a fallback: the client then declares each tool
// the history names with an open object schema and tool_choice none. These
// placeholders carry no unit span, since no tool schema of the caller's was
// sent.
//
// The key comes from Options.APIKey or ANTHROPIC_API_KEY and is sent as
// x-api-key with anthropic-version 2023-06-01.
package anthropic
