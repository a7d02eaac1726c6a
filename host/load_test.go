// This file holds the loopback load benchmark: 200 conversations of 3 turns each through
// one host on SQLite against the scripted model, 32 clients at a time, with turn latency
// percentiles and throughput; the baseline is the same turns sent straight to
// agent.Conversation, with no HTTP and no store, measured in the same run.
//
//	go test ./host -run '^$' -bench BenchmarkLoad -benchtime 1x

package host_test

import (
	"context"
	"fmt"
	"github.com/agentfootprint/agentfootprint-go/internal/pgtest"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/host"
	sessionpg "github.com/agentfootprint/agentfootprint-go/host/session/postgres"
	storepg "github.com/agentfootprint/agentfootprint-go/store/postgres"
)

const (
	loadConversations = 200
	loadTurns         = 3
	loadClients       = 32
)

// runLoad runs every conversation's turns with turn, loadClients at a time, and returns
// each turn's latency and the wall time.
func runLoad(b *testing.B, newConv func() (func(msg string) error, error)) ([]time.Duration, time.Duration) {
	var mu sync.Mutex
	lat := make([]time.Duration, 0, loadConversations*loadTurns)
	sem := make(chan struct{}, loadClients)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range loadConversations {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			turn, err := newConv()
			if err != nil {
				b.Error(err)
				return
			}
			for j := range loadTurns {
				t0 := time.Now()
				if err := turn(fmt.Sprintf("svc%d-%d status", i, j)); err != nil {
					b.Error(err)
					return
				}
				d := time.Since(t0)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return lat, time.Since(start)
}

func report(b *testing.B, lat []time.Duration, wall time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(len(lat))/wall.Seconds(), "turns/s")
}

func BenchmarkLoad(b *testing.B) {
	b.Run("direct", func(b *testing.B) {
		a := testAgent(b, newGate())
		for range b.N {
			lat, wall := runLoad(b, func() (func(string) error, error) {
				c := a.NewConversation()
				return func(msg string) error {
					_, err := c.Send(context.Background(), agent.Input{Message: msg})
					return err
				}, nil
			})
			report(b, lat, wall)
		}
	})
	b.Run("host", func(b *testing.B) {
		loadHost(b, newHost(b, "", host.WithTiming(host.Timing{Poll: 100 * time.Millisecond})))
	})
	b.Run("host-postgres", func(b *testing.B) {
		dsn := os.Getenv("AGENTFOOTPRINT_TEST_POSTGRES")
		if dsn == "" {
			b.Skip("AGENTFOOTPRINT_TEST_POSTGRES is not set: the PostgreSQL host load is not measured")
		}
		dsn = pgSchema(b, dsn)
		ss, err := sessionpg.Open(context.Background(), dsn)
		if err != nil {
			b.Fatal(err)
		}
		rs, err := storepg.Open(context.Background(), dsn)
		if err != nil {
			b.Fatal(err)
		}
		loadHost(b, serveOn(b, ss, rs, "", host.WithTiming(host.Timing{Poll: 100 * time.Millisecond})))
	})
}

// pgSchema creates a schema for one benchmark and returns a DSN that writes to it.
func pgSchema(b *testing.B, dsn string) string {
	b.Helper()
	return pgtest.Schema(b, "host_load", "host load")
}

func loadHost(b *testing.B, f *fixture) {
	{
		http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = loadClients
		for range b.N {
			lat, wall := runLoad(b, func() (func(string) error, error) {
				code, body := do(b, "POST", f.url+"/v1/conversations", `{}`)
				if code != http.StatusCreated {
					return nil, fmt.Errorf("create: %d %s", code, body)
				}
				id := decode[struct{ ID string }](b, body).ID
				return func(msg string) error {
					code, body := do(b, "POST", f.url+"/v1/conversations/"+id+"/turns", `{"message":"`+msg+`"}`)
					tok, _, _ := strings.Cut(msg, " ")
					if code != 200 || decode[host.Result](b, body).Answer != tok+": "+tok+" is healthy" {
						return fmt.Errorf("turn %q: %d %s", msg, code, body)
					}
					return nil
				}, nil
			})
			report(b, lat, wall)
		}
	}
}
