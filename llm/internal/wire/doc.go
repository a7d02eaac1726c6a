// Package wire holds what the provider clients share: a JSON writer that
// records byte spans while it encodes, the SSE and NDJSON readers, the
// HTTP sender with retries, and the error classifier.
package wire
