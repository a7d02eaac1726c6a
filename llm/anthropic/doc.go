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
// no tools, which is what an agent's last, tool-less wrap-up call is. For
// such a request the client declares each tool the history names with an
// open object schema and sets tool_choice to none, so the history is sent
// as it happened and the model cannot call anything. These placeholders
// carry no unit span: the agent's tool schemas were not sent.
//
// The key comes from Options.APIKey or ANTHROPIC_API_KEY and is sent as
// x-api-key with anthropic-version 2023-06-01.
package anthropic
