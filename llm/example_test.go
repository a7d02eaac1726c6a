package llm_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
)

// A stream is drained with Collect; its done event carries the response.
func ExampleCollect() {
	var p llm.Provider = scripted.New(
		scripted.Reply{Content: "Disk db1 is 97% full."},
		scripted.Reply{Content: "Clean /var/log first."},
	)
	req := &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "Why is db1 slow?"}}}
	if s, ok := p.(llm.Streamer); ok {
		for ev, err := range s.Stream(context.Background(), req) {
			if err != nil {
				fmt.Println(err)
				return
			}
			if ev.Kind == llm.EventText {
				fmt.Printf("[%s]", ev.Text)
			}
		}
		fmt.Println()
	}
	resp, err := llm.Collect(p.(llm.Streamer).Stream(context.Background(), req))
	fmt.Println(resp.Content, resp.StopReason, err)
	// Output:
	// [Disk][ db1][ is][ 97%][ full.]
	// Clean /var/log first. stop <nil>
}

// Callers branch on the kind of a provider failure, never on its text.
func ExampleKindOf() {
	p := scripted.New(scripted.Reply{Err: &llm.Error{Kind: llm.KindRateLimit, Retryable: true, Resumable: true,
		Message: "the provider is throttling requests (HTTP 429); retry after 2s as the provider asked"}})
	_, err := p.Complete(context.Background(), &llm.Request{})
	switch llm.KindOf(err) {
	case llm.KindRateLimit:
		var le *llm.Error
		errors.As(err, &le)
		fmt.Println("throttled; resumable:", le.Resumable)
		fmt.Println(err)
	}
	// Output:
	// throttled; resumable: true
	// scripted: the provider is throttling requests (HTTP 429); retry after 2s as the provider asked
}
