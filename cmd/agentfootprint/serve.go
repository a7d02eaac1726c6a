// This file holds `agentfootprint serve`: the HTTP host (package host) serving the agent a
// scenario file describes, or the built-in demo agent, with its conversations and runs in
// a SQLite file (one host) or a PostgreSQL database (several hosts).

package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/host"
	"github.com/agentfootprint/agentfootprint-go/host/session"
	sessionpg "github.com/agentfootprint/agentfootprint-go/host/session/postgres"
	sessionsqlite "github.com/agentfootprint/agentfootprint-go/host/session/sqlite"
	"github.com/agentfootprint/agentfootprint-go/lens"
	"github.com/agentfootprint/agentfootprint-go/llm"
	"github.com/agentfootprint/agentfootprint-go/llm/providers"
	"github.com/agentfootprint/agentfootprint-go/scenario"
	"github.com/agentfootprint/agentfootprint-go/store/sqlite"
	"github.com/spf13/cobra"
)

type serveFlags struct {
	agentFile, target, addr, tokenFile, hostID string
	drain, lease                               time.Duration
	maxBody                                    int64
	live                                       providers.Config
}

func newServeCmd() *cobra.Command {
	var fl serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve an agent's conversations over HTTP (docs/HOST.md)",
		Long: "serve runs the HTTP host: people create conversations, take turns, answer paused turns and\n" +
			"follow each conversation's events as a stream they can resume (docs/HOST.md has the API).\n\n" +
			"--agent names a scenario file, whose agent options, context units and canned tools are\n" +
			"served (on its scripted replies, replayed for every turn, or with --provider on a real\n" +
			"model), or demo for the built-in operations-triage agent.\n\n" +
			"--store keeps conversations and runs: a SQLite file for one host (default: the file under\n" +
			"your data directory), or a postgres:// URL that several hosts share.\n\n" +
			"The host binds 127.0.0.1 by default; any other address needs --token-file, whose token\n" +
			"every request must send as \"Authorization: Bearer <token>\". SIGTERM or Ctrl-C stops taking\n" +
			"turns and lets the ones in flight finish for --drain, then cancels them with their\n" +
			"checkpoint saved.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runServe(cmd, fl) },
	}
	f := cmd.Flags()
	f.StringVar(&fl.agentFile, "agent", "demo", "a scenario file whose agent to serve, or demo")
	addStoreFlag(cmd, &fl.target)
	f.StringVar(&fl.addr, "addr", "127.0.0.1:8080", "the address to listen on (loopback unless --token-file is given)")
	f.StringVar(&fl.tokenFile, "token-file", "", "a file holding the bearer token every request must carry")
	f.StringVar(&fl.hostID, "host-id", "", "this host's name as the owner of the conversations it runs (default: random)")
	f.DurationVar(&fl.drain, "drain", 30*time.Second, "how long turns in flight may finish at shutdown")
	f.DurationVar(&fl.lease, "lease", host.DefaultLeaseTTL, "how long a host that stopped answering holds its conversations")
	f.Int64Var(&fl.maxBody, "max-body", host.DefaultMaxBody, "the request body cap in bytes")
	f.StringVar(&fl.live.Provider, "provider", "", "run on a real model: "+strings.Join(providers.Names(), ", "))
	f.StringVar(&fl.live.Model, "model", "", "the model to run on (with --provider)")
	f.StringVar(&fl.live.BaseURL, "base-url", "", "the provider's server, for a local or OpenAI-compatible one (with --provider)")
	addTimeoutFlag(cmd, &fl.live.Timeout)
	return cmd
}

func runServe(cmd *cobra.Command, fl serveFlags) error {
	token, err := serveToken(fl.addr, fl.tokenFile)
	if err != nil {
		return inputError(cmd, err)
	}
	name, a, err := serveAgent(commandContext(cmd), fl.agentFile, fl.live)
	if err != nil {
		return inputError(cmd, err)
	}
	ctx, stop := signal.NotifyContext(commandContext(cmd), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sessions, err := openSessions(ctx, fl.target)
	if err != nil {
		return err
	}
	defer sessions.Close()
	runs, where, err := openStore(ctx, fl.target)
	if err != nil {
		return err
	}
	defer runs.Close()
	if fl.lease < 100*time.Millisecond { // a zero Timing.Lease would mean the default; the flag wants a value
		return inputError(cmd, fmt.Errorf("--lease %v: want at least 100ms", fl.lease))
	}
	opts := []host.Option{host.WithAgent(name, a), host.WithSessions(sessions), host.WithRuns(runs),
		host.WithTiming(host.Timing{Lease: fl.lease}), host.WithMaxBody(fl.maxBody),
		host.WithLogger(slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil)))}
	if fl.hostID != "" {
		opts = append(opts, host.WithHostID(fl.hostID))
	}
	if token != "" {
		opts = append(opts, host.WithToken(token))
	}
	// The lens pages of the stored runs, at /lens/ and /lens/{run}.
	lh, err := lens.NewHandler(runs)
	if err != nil {
		return err
	}
	opts = append(opts, host.WithLens(lh))
	h, err := host.New(opts...)
	if err != nil {
		return inputError(cmd, err)
	}
	ln, err := net.Listen("tcp", fl.addr)
	if err != nil {
		return inputError(cmd, fmt.Errorf("--addr %s: %w", fl.addr, err))
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	fmt.Fprintf(cmd.OutOrStdout(), "serving agent %s on http://%s (host %s, store %s)\n", name, ln.Addr(), h.ID(), where)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		h.Close()
		return fmt.Errorf("serving on %s: %w", fl.addr, err)
	case <-ctx.Done():
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "shutting down: turns in flight have %v to finish\n", fl.drain)
	dctx, cancel := context.WithTimeout(context.Background(), fl.drain)
	defer cancel()
	derr := h.Shutdown(dctx)
	// The streams have ended with the host; the server closes what is left.
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	srv.Shutdown(sctx)
	if derr != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "the drain timed out: the turns still running were cancelled and checkpointed")
	}
	return nil
}

// serveToken reads the token file, and refuses a non-loopback address without one.
func serveToken(addr, file string) (string, error) {
	var token string
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--token-file: %w", err)
		}
		token = strings.TrimSpace(string(b))
		if len(token) < 16 {
			return "", fmt.Errorf("--token-file %s: the token is %d characters; use at least 16 (for example `openssl rand -hex 32`)", file, len(token))
		}
	}
	hostPart, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--addr %q: want host:port, such as 127.0.0.1:8080", addr)
	}
	ip := net.ParseIP(hostPart)
	loopback := hostPart == "localhost" || (ip != nil && ip.IsLoopback())
	if !loopback && token == "" {
		return "", fmt.Errorf("--addr %s is reachable from other machines: give --token-file so every request must carry a bearer token", addr)
	}
	return token, nil
}

// serveAgent builds the agent --agent names: the built-in demo or a scenario file's.
func serveAgent(ctx context.Context, file string, live providers.Config) (string, *agent.Agent, error) {
	var f *scenario.File
	var err error
	if file == "demo" {
		f, err = scenario.Demo()
	} else {
		f, err = scenario.Load(file)
	}
	if err != nil {
		return "", nil, fmt.Errorf("--agent %s: %w", file, err)
	}
	opts, err := demoModel(ctx, live)
	if err != nil {
		return "", nil, err
	}
	if live.Timeout > 0 {
		opts = append(opts, scenario.WithModelTimeout(live.Timeout))
	}
	p, err := f.Parts(opts...)
	if err != nil {
		return "", nil, fmt.Errorf("--agent %s: %w", file, err)
	}
	model := p.Provider
	if live.Provider == "" {
		model = perTurn{p.Provider}
	}
	aopts := append([]agent.Option(nil), p.Options...)
	if len(p.Units) > 0 {
		aopts = append(aopts, agent.WithUnits(p.Units...))
	}
	if len(p.Tools) > 0 {
		aopts = append(aopts, agent.WithTools(p.Tools...))
	}
	a, err := agent.New(model, aopts...)
	if err != nil {
		return "", nil, fmt.Errorf("--agent %s: the agent refused this scenario: %w", file, err)
	}
	name := f.Name()
	if name == "" {
		name = "agent"
	}
	return name, a, nil
}

// perTurn shows the scenario's scripted model only the current turn (from the person's
// last message on), so its replies, which a file scripts for one turn, play again on
// every turn of every conversation.
type perTurn struct{ p llm.Provider }

func (m perTurn) Name() string { return m.p.Name() }

func (m perTurn) Complete(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	last := -1
	for i, msg := range req.Messages {
		if msg.Role == llm.RoleUser {
			last = i
		}
	}
	if last > 0 {
		r := *req
		var kept []llm.Message
		for _, msg := range req.Messages[:last] {
			if msg.Role == llm.RoleSystem {
				kept = append(kept, msg)
			}
		}
		r.Messages = append(kept, req.Messages[last:]...)
		req = &r
	}
	return m.p.Complete(ctx, req)
}

// openSessions opens the session store next to the run store --store names.
func openSessions(ctx context.Context, target string) (session.Store, error) {
	if strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://") {
		s, err := sessionpg.Open(ctx, target)
		if err != nil {
			return nil, fmt.Errorf("opening the session store: %w", err)
		}
		return s, nil
	}
	path := target
	if path == "" {
		p, err := sqlite.DefaultPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	s, err := sessionsqlite.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("opening the session store %s: %w", path, err)
	}
	return s, nil
}
