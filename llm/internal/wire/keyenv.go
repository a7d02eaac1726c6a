// The environment variables that hold the hosted providers' API keys, named
// once for the clients, the embedder and the provider registry.

package wire

// Environment variables holding an API key when the options leave it empty.
const (
	OpenAIKeyEnv    = "OPENAI_API_KEY"
	AnthropicKeyEnv = "ANTHROPIC_API_KEY"
)
