// Package ollama is a hand-written client for Ollama's native /api/chat
// endpoint, streaming newline-delimited JSON.
//
// Tool call arguments arrive as a JSON object (sometimes a string); they
// are kept as raw bytes, and a call without an id gets a stable one,
// ollama-call-<n>, numbered per client. Token counts come from the final
// done frame. Ollama may silently truncate a prompt longer than its
// context window instead of failing; the client never guesses that it did.
//
// No key is used. The server is Options.BaseURL, else $OLLAMA_HOST, else
// http://127.0.0.1:11434.
package ollama
