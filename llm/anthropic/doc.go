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
// The key comes from Options.APIKey or ANTHROPIC_API_KEY and is sent as
// x-api-key with anthropic-version 2023-06-01.
package anthropic
