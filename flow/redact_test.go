// Tests for redaction: secret keys are listed and masked in the encoded
// record, hidden from decision evidence and never replayed.

package flow_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/google/go-cmp/cmp"
)

func TestRedactedKeys(t *testing.T) {
	token := flow.Key[string]("token")
	n := flow.Key[int]("n")
	c := flow.NewBuilder("secret").Keys(token, n).Redact("token").
		Stage("login", func(ctx context.Context, s *flow.Scope) (any, error) {
			token.Set(s, "s3cr3t")
			n.Set(s, 1)
			return nil, nil
		}).
		Decider("check", func(ctx context.Context, s *flow.Scope) (*flow.Decision, error) {
			return flow.Decide(s, []flow.Rule{{Label: "has token", Branch: "ok",
				Conditions: []flow.Condition{{Key: "token", Op: "eq", Threshold: "s3cr3t"}}}}, "no"), nil
		}, flow.Branch("ok").Stage("use", func(ctx context.Context, s *flow.Scope) (any, error) {
			v, _ := token.Get(s) // the run itself sees the real value
			return v, nil
		}), flow.Branch("no")).
		MustBuild()
	res, err := c.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "s3cr3t" {
		t.Errorf("output = %v", res.Output)
	}
	if got := res.Record.Commits[1].Redacted; !cmp.Equal(got, []string{"token"}) {
		t.Errorf("redacted = %v", got)
	}
	data, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "s3cr3t") {
		t.Fatalf("secret leaked into the record: %s", data)
	}
	back, err := c.DecodeRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []*flow.Record{res.Record, back} {
		_, _, err := flow.ValueAt(rec, 3, "token")
		var re *flow.RedactedError
		if !errors.As(err, &re) || re.Key != "token" || re.Commit != 1 {
			t.Errorf("ValueAt(token) err = %v, want RedactedError at 1", err)
		}
		if v, _, err := flow.ValueAt(rec, 3, "n"); err != nil || v != 1 {
			t.Errorf("ValueAt(n) = %v %v", v, err)
		}
	}
	if _, err := flow.NewBuilder("x").Redact("ghost").Stage("a", noop).Build(); err == nil ||
		!strings.Contains(err.Error(), `redacted key "ghost" is not declared`) {
		t.Errorf("undeclared redaction accepted: %v", err)
	}
}
