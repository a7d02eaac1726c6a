// Package wirecheck is a test-only module. It puts Ollama's own
// OpenAI-compatible and Anthropic-compatible translation layer
// (github.com/ollama/ollama/middleware) in front of a small fake native
// /api/chat handler, and proves that the project's hand-written openai and
// anthropic clients decode every stream that layer produces and that the
// layer accepts every request the clients send. The main module never
// imports it, so its dependencies never reach a user's build.
package wirecheck
