package ollama_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/ollama"
)

// Diagnose says what to fix before a run: here the model is not pulled.
func Example_diagnose() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"models":[{"name":"llama3.2:latest"}]}`)
	}))
	defer srv.Close()

	// The self-check is an optional interface of the provider New returns.
	doctor, ok := ollama.New(ollama.Options{BaseURL: srv.URL, Model: "qwen3:0.6b"}).(llm.Diagnoser)
	if !ok {
		fmt.Println("this provider cannot check itself")
		return
	}
	for _, d := range doctor.Diagnose(context.Background()) {
		fmt.Println(d.Check, d.OK)
	}
	// Output:
	// key true
	// server true
	// model false
}
