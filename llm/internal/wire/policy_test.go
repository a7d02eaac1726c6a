package wire

import (
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/llm"
)

func TestDefaultPolicy(t *testing.T) {
	tests := []struct {
		kind             llm.ErrorKind
		retry, resumable bool
	}{
		{llm.KindRateLimit, true, true},
		{llm.KindServer, true, true},
		{llm.KindTimeout, true, true},
		{llm.KindUnreachable, false, true},
		{llm.KindUnknown, false, true},
		{llm.KindAuth, false, false},
		{llm.KindBadRequest, false, false},
	}
	for _, tt := range tests {
		r, s := DefaultPolicy(tt.kind)
		if r != tt.retry || s != tt.resumable {
			t.Errorf("DefaultPolicy(%s) = %v, %v; want %v, %v", tt.kind, r, s, tt.retry, tt.resumable)
		}
	}
}

func TestRetryDefaults(t *testing.T) {
	got := RetryDefaults(llm.RetryPolicy{MaxDelay: time.Second})
	want := llm.RetryPolicy{Attempts: 3, BaseDelay: 500 * time.Millisecond, MaxDelay: time.Second}
	if got != want {
		t.Errorf("RetryDefaults = %+v, want %+v", got, want)
	}
}
