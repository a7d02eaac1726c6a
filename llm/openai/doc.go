// Package openai is a hand-written client for the OpenAI Chat Completions
// API and every server that speaks it (vLLM, llama.cpp, LM Studio, Ollama's
// /v1, OpenRouter, …): set Options.BaseURL.
//
// It builds each request body into bytes and sends them unmodified, so the
// recorded Exchange holds exactly what went on the wire, with the byte span
// of every context unit. Streams are read with the project's own SSE reader
// and assembled into whole tool calls, tolerating the known quirks of
// compatible servers (a call in one delta, several calls in one chunk,
// finish_reason alone, ids only on the first delta, missing indexes, no
// usage). Failures are *llm.Error values whose message names the fix.
//
// The key comes from Options.APIKey or the OPENAI_API_KEY environment
// variable; the base URL from Options.BaseURL, OPENAI_BASE_URL, or the
// official endpoint.
package openai
