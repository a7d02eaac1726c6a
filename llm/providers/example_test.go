package providers_test

import (
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/llm/providers"
)

// A command line turns --provider/--model/--base-url into a client; keys
// come from the provider's usual environment variable.
func ExampleOpen() {
	model, err := providers.Open(providers.Config{Provider: "ollama", Model: "qwen3:0.6b", BaseURL: "http://127.0.0.1:11434"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(model.Name(), model.BaseURL(), model.Capabilities().Seed)
	_, err = providers.Open(providers.Config{Provider: "gemini", Model: "x"})
	fmt.Println(err)
	fmt.Println(providers.KeyEnv("anthropic"))
	// Output:
	// ollama http://127.0.0.1:11434 true
	// providers: provider: "gemini" is not one of anthropic, ollama, openai
	// ANTHROPIC_API_KEY
}
