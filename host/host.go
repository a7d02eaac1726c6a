// Package host serves an agent's conversations over HTTP: create a conversation, take turns
// and answer paused ones (as JSON, or as a stream of server-sent events), replay and tail a
// conversation's events with resumable ids, and read stored runs and their explanations.
//
// Turns run detached from the request that started them: a client that hangs up does not
// cancel its turn. Every event is appended to the session store before it is sent, and the
// conversation's checkpoint is saved when each turn ends or pauses, so any host sharing the
// store can continue it. A lease per conversation lets one host at a time run its turn;
// a host that stops mid-turn loses the conversation when its lease expires, and the next
// host to take it marks the unfinished turn failed.
//
// This file holds the Host, its options and its routes. The contract is in docs/HOST.md.
package host

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/agentfootprint/agentfootprint-go/agent"
	"github.com/agentfootprint/agentfootprint-go/host/session"
	"github.com/agentfootprint/agentfootprint-go/store"
)

// Defaults of the options.
const (
	DefaultMaxBody      = 1 << 20
	DefaultLeaseTTL     = 15 * time.Second
	defaultTurnTimeout  = 10 * time.Minute
	defaultPollInterval = 250 * time.Millisecond
	defaultWriteTimeout = 30 * time.Second
)

// Host is an http.Handler serving conversations with one or more agents.
type Host struct {
	agents      map[string]*agent.Agent
	first       string
	sessions    session.Store
	runs        store.Store
	id          string
	maxBody     int64
	leaseTTL    time.Duration
	turnTimeout time.Duration
	poll        time.Duration
	writeTO     time.Duration
	token       string
	lens        http.Handler
	log         *slog.Logger

	mux   *http.ServeMux
	unsub []func()

	// base bounds every turn; Close cancels it after the drain.
	base   context.Context
	cancel context.CancelFunc
	turns  sync.WaitGroup

	mu       sync.Mutex
	draining bool
	byConv   map[string]*turn         // conversation id → its turn running on this host
	watch    map[string]chan struct{} // conversation id → closed at its next event
	streams  map[string]int           // conversation id → streams following it
}

// Option configures a Host.
type Option func(*Host) error

// WithAgent serves a under name. The first agent given is the default for a conversation
// created without naming one. The host subscribes to every event of a; the agent should
// not run turns outside the host, whose events the host could not place.
func WithAgent(name string, a *agent.Agent) Option {
	return func(h *Host) error {
		if name == "" || a == nil {
			return errors.New("host: WithAgent needs a name and an agent")
		}
		if _, dup := h.agents[name]; dup {
			return fmt.Errorf("host: agent %q given twice", name)
		}
		h.agents[name] = a
		if h.first == "" {
			h.first = name
		}
		return nil
	}
}

// WithSessions keeps conversations, their events and their leases in s. Required.
func WithSessions(s session.Store) Option {
	return func(h *Host) error { h.sessions = s; return nil }
}

// WithRuns stores each turn's run record in s and serves /v1/runs from it. Without it the
// runs endpoints answer 404 and no record is kept.
func WithRuns(s store.Store) Option {
	return func(h *Host) error { h.runs = s; return nil }
}

// WithHostID names this host as the owner of the leases it takes (default: random). Two
// processes must not share one.
func WithHostID(id string) Option {
	return func(h *Host) error {
		if id == "" {
			return errors.New("host: WithHostID: empty id")
		}
		h.id = id
		return nil
	}
}

// WithMaxBody caps request bodies at n bytes (default 1 MiB).
func WithMaxBody(n int64) Option {
	return func(h *Host) error {
		if n <= 0 {
			return fmt.Errorf("host: WithMaxBody(%d): want a positive size", n)
		}
		h.maxBody = n
		return nil
	}
}

// Timing holds the host's time bounds for WithTiming. A zero field keeps its default.
type Timing struct {
	// Lease is how long a host's claim on a conversation lasts without renewal (default
	// DefaultLeaseTTL, 15s; at least 100ms; renewed every third of it while a turn runs). A
	// host that dies holds its conversations at most this long.
	Lease time.Duration
	// Turn bounds one turn (default 10 minutes).
	Turn time.Duration
	// Write bounds each write to a client (default 30s); a stream whose reader stalls longer is
	// dropped (the turn goes on).
	Write time.Duration
	// Poll is how often an event stream reads the store for events other hosts appended
	// (default 250ms). Events of this host's own turns are sent at once.
	Poll time.Duration
}

// WithTiming sets the host's time bounds; each zero field of t keeps its default. It refuses
// a negative duration and a lease under 100ms, naming the field.
func WithTiming(t Timing) Option {
	return func(h *Host) error {
		for _, f := range []struct {
			name string
			d    time.Duration
			dst  *time.Duration
		}{{"Lease", t.Lease, &h.leaseTTL}, {"Turn", t.Turn, &h.turnTimeout}, {"Write", t.Write, &h.writeTO}, {"Poll", t.Poll, &h.poll}} {
			switch {
			case f.d < 0:
				return fmt.Errorf("host: Timing.%s %v: want a positive duration, or zero for the default", f.name, f.d)
			case f.d > 0 && f.name == "Lease" && f.d < 100*time.Millisecond:
				return fmt.Errorf("host: Timing.Lease %v: want at least 100ms", f.d)
			case f.d > 0:
				*f.dst = f.d
			}
		}
		return nil
	}
}

// WithToken requires "Authorization: Bearer <token>" on every request but GET /healthz,
// compared in constant time.
func WithToken(token string) Option {
	return func(h *Host) error {
		if strings.TrimSpace(token) == "" {
			return errors.New("host: WithToken: empty token")
		}
		h.token = token
		return nil
	}
}

// WithLens mounts the run pages handler lh at /lens/ (GET /lens/ and GET /lens/{run}); lh
// sees the whole path, as lens.NewHandler expects it.
func WithLens(lh http.Handler) Option {
	return func(h *Host) error { h.lens = lh; return nil }
}

// WithLogger logs what the host cannot tell a client (a store write that failed, a turn
// taken over) to l (default: discarded).
func WithLogger(l *slog.Logger) Option {
	return func(h *Host) error {
		if l != nil {
			h.log = l
		}
		return nil
	}
}

// New builds a Host. It refuses a host without an agent or a session store.
func New(opts ...Option) (*Host, error) {
	h := &Host{
		agents: map[string]*agent.Agent{}, maxBody: DefaultMaxBody, leaseTTL: DefaultLeaseTTL,
		turnTimeout: defaultTurnTimeout, poll: defaultPollInterval, writeTO: defaultWriteTimeout,
		log:    slog.New(slog.DiscardHandler),
		byConv: map[string]*turn{}, watch: map[string]chan struct{}{}, streams: map[string]int{},
	}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(h); err != nil {
			return nil, err
		}
	}
	if len(h.agents) == 0 {
		return nil, errors.New("host: no agent to serve (give WithAgent)")
	}
	if h.sessions == nil {
		return nil, errors.New("host: no session store (give WithSessions)")
	}
	if h.id == "" {
		h.id = "host-" + randomHex(8)
	}
	for _, a := range h.agents {
		stop, err := a.On("*", h.onEvent)
		if err != nil {
			for _, s := range h.unsub {
				s()
			}
			return nil, fmt.Errorf("host: subscribing to the agent's events: %w", err)
		}
		h.unsub = append(h.unsub, stop)
	}
	h.base, h.cancel = context.WithCancel(context.Background())
	h.routes()
	return h, nil
}

// Must is New for options known to be good; it panics on the error New would return.
func Must(opts ...Option) *Host {
	h, err := New(opts...)
	if err != nil {
		panic(err)
	}
	return h
}

// ID returns the host's lease owner id.
func (h *Host) ID() string { return h.id }

func (h *Host) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /healthz", h.healthz)
	m.HandleFunc("POST /v1/conversations", h.createConversation)
	m.HandleFunc("GET /v1/conversations/{id}", h.getConversation)
	m.HandleFunc("POST /v1/conversations/{id}/turns", h.postTurn)
	m.HandleFunc("POST /v1/conversations/{id}/answers", h.postAnswer)
	m.HandleFunc("GET /v1/conversations/{id}/events", h.getEvents)
	m.HandleFunc("GET /v1/runs", h.listRuns)
	m.HandleFunc("GET /v1/runs/{id}", h.getRun)
	m.HandleFunc("GET /v1/runs/{id}/explain", h.explainRun)
	if h.lens != nil {
		m.Handle("GET /lens/", h.lens)
	}
	h.mux = m
}

// ServeHTTP checks the token, caps the body and routes the request.
func (h *Host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.token != "" && r.URL.Path != "/healthz" && !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="agentfootprint"`)
		writeError(w, http.StatusUnauthorized, "unauthorized", "this host needs an Authorization: Bearer token", "")
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, h.maxBody)
	}
	if _, pattern := h.mux.Handler(r); pattern == "" {
		h.unrouted(w, r)
		return
	}
	h.mux.ServeHTTP(w, r)
}

// unrouted answers a request no route takes with the mux's own status (404, or 405 with
// its Allow header) in the API's error shape.
func (h *Host) unrouted(w http.ResponseWriter, r *http.Request) {
	c := &statusCapture{header: http.Header{}}
	h.mux.ServeHTTP(c, r)
	if allow := c.header.Get("Allow"); allow != "" {
		w.Header().Set("Allow", allow)
	}
	if c.status == http.StatusMethodNotAllowed {
		writeError(w, c.status, "method_not_allowed", fmt.Sprintf("%s %s: this endpoint takes %s", r.Method, r.URL.Path, c.header.Get("Allow")), "")
		return
	}
	writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("no endpoint %s %s (docs/HOST.md lists them)", r.Method, r.URL.Path), "")
}

// statusCapture keeps the status and headers a handler writes, dropping the body.
type statusCapture struct {
	header http.Header
	status int
}

func (c *statusCapture) Header() http.Header         { return c.header }
func (c *statusCapture) Write(b []byte) (int, error) { return len(b), nil }
func (c *statusCapture) WriteHeader(code int)        { c.status = code }

func (h *Host) authorized(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(h.token)) == 1
}

func (h *Host) healthz(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	draining := h.draining
	h.mu.Unlock()
	if draining {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "draining", "host": h.id})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "host": h.id})
}

// Shutdown stops taking turns (new ones get 503) and waits for the turns in flight to end,
// until ctx is done; then it cancels the turns still running, which end with their
// checkpoint saved, and waits for them. Event streams end. It returns ctx's error when the
// drain did not finish in time.
func (h *Host) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	h.draining = true
	h.mu.Unlock()
	done := make(chan struct{})
	go func() { h.turns.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	h.cancel()
	<-done
	for _, s := range h.unsub {
		s()
	}
	h.unsub = nil
	return err
}

// Close is Shutdown without a drain: turns in flight are cancelled and checkpointed.
func (h *Host) Close() error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h.Shutdown(ctx)
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
