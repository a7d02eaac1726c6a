// This file holds the package example: serving one agent from a SQLite file.

package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/host"
	sessionsqlite "github.com/agentfootprint/agentfootprint-go/host/session/sqlite"
	"github.com/agentfootprint/agentfootprint-go/llm/scripted"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
)

// Serve one agent from a SQLite file: create a conversation, then take a turn.
func Example() {
	dir, _ := os.MkdirTemp("", "host-example")
	defer os.RemoveAll(dir)
	db := filepath.Join(dir, "host.db")
	ctx := context.Background()
	sessions, err := sessionsqlite.Open(ctx, db)
	if err != nil {
		log.Fatal(err)
	}
	defer sessions.Close()
	runs, err := sqlite.Open(ctx, db)
	if err != nil {
		log.Fatal(err)
	}
	defer runs.Close()

	a, err := agent.New(scripted.New(scripted.Reply{Content: "Checkout is healthy."}))
	if err != nil {
		log.Fatal(err)
	}
	h := host.Must(host.WithAgent("ops", a), host.WithSessions(sessions), host.WithRuns(runs))
	defer h.Close()
	srv := httptest.NewServer(h) // or http.ListenAndServe("127.0.0.1:8080", h)
	defer srv.Close()

	resp, err := http.Post(srv.URL+"/v1/conversations", "application/json", strings.NewReader(`{}`))
	if err != nil {
		log.Fatal(err)
	}
	var conv struct{ ID string }
	json.NewDecoder(resp.Body).Decode(&conv)
	resp.Body.Close()

	resp, err = http.Post(srv.URL+"/v1/conversations/"+conv.ID+"/turns", "application/json",
		strings.NewReader(`{"message":"Is checkout healthy?"}`))
	if err != nil {
		log.Fatal(err)
	}
	var res host.Result
	json.NewDecoder(resp.Body).Decode(&res)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, res.Answer, res.Paused)
	// Output: 200 Checkout is healthy. false
}
