// The lens over a store: an http.Handler that lists the stored runs and
// serves each run's page, read-only, for mounting at /lens/.

package lens

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"

	"github.com/agentfootprint/agentfootprint-go/internal/idchars"
	"github.com/agentfootprint/agentfootprint-go/store"
)

// Prefix is the path the handler serves under: Prefix lists the runs and
// Prefix + id shows one.
const Prefix = "/lens/"

// defaultListLimit is how many runs the list shows unless WithListLimit says
// otherwise.
const defaultListLimit = 50

// What a run id in a URL may look like: a letter or digit, then up to 199 letters, digits,
// '.', '_', ':' or '-'.
var (
	runIDFirst = idchars.Of(idchars.Lower, idchars.Upper, idchars.Digits)
	runIDRest  = idchars.Of(idchars.Lower, idchars.Upper, idchars.Digits, "._:-")
)

// maxRunID is the longest run id the lens serves.
const maxRunID = 200

// runsHandler is the http.Handler NewHandler returns.
type runsHandler struct {
	st    store.Store
	where string
	limit int
	mux   *http.ServeMux
}

// HandlerOption configures NewHandler.
type HandlerOption func(*runsHandler) error

// WithListLimit sets how many runs the list shows, newest first (default
// 50; 0 shows them all). It refuses a negative limit.
func WithListLimit(n int) HandlerOption {
	return func(h *runsHandler) error {
		if n < 0 {
			return fmt.Errorf("lens: list limit %d: want 0 (all) or more", n)
		}
		h.limit = n
		return nil
	}
}

// WithStoreName sets how the list names the store (a path or a URL without
// its password).
func WithStoreName(name string) HandlerOption {
	return func(h *runsHandler) error { h.where = name; return nil }
}

// NewHandler returns the lens over st as an http.Handler: the run list at
// /lens/ and each run's page at /lens/{run}. It only reads: every method but
// GET and HEAD is refused. Mount it with mux.Handle(lens.Prefix, h).
// It refuses a nil store and what its options refuse.
func NewHandler(st store.Store, opts ...HandlerOption) (http.Handler, error) {
	if st == nil {
		return nil, errors.New("lens: NewHandler: the store is nil")
	}
	h := &runsHandler{st: st, where: "the run store", limit: defaultListLimit, mux: http.NewServeMux()}
	for _, opt := range opts {
		if err := opt(h); err != nil {
			return nil, err
		}
	}
	h.mux.HandleFunc("GET "+Prefix+"{$}", h.list)
	h.mux.HandleFunc("GET "+Prefix+"{run}", h.run)
	return h, nil
}

// MustHandler is NewHandler that panics on an error, for wiring code whose
// arguments are fixed.
func MustHandler(st store.Store, opts ...HandlerOption) http.Handler {
	h, err := NewHandler(st, opts...)
	if err != nil {
		panic(err)
	}
	return h
}

// ServeHTTP implements http.Handler.
func (h *runsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// list serves the run list.
func (h *runsHandler) list(w http.ResponseWriter, r *http.Request) {
	infos, err := h.st.ListRuns(r.Context(), store.Filter{Limit: h.limit})
	if err != nil {
		http.Error(w, "listing the runs: "+err.Error(), http.StatusInternalServerError)
		return
	}
	runs := make([]runSummary, 0, len(infos))
	for _, info := range infos {
		var s runSummary
		run, err := h.st.GetRun(r.Context(), info.ID)
		if err == nil {
			rec, derr := store.DecodeRecord(run)
			s = summarize(info, rec)
			if derr != nil {
				s.Err = "its record cannot be read: " + derr.Error()
			}
		} else {
			s = summarize(info, nil)
			s.Err = "it cannot be read: " + err.Error()
		}
		runs = append(runs, s)
	}
	var buf bytes.Buffer
	if err := renderList(&buf, h.where, Prefix, runs); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writePage(w, buf.Bytes())
}

// run serves one run's page.
func (h *runsHandler) run(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("run")
	if !idchars.Valid(id, &runIDFirst, &runIDRest, maxRunID) {
		http.Error(w, fmt.Sprintf("%q is not a run id", id), http.StatusBadRequest)
		return
	}
	run, err := h.st.GetRun(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		http.Error(w, fmt.Sprintf("no run %q in %s", id, h.where), http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, "reading run "+id+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	rec, err := store.DecodeRecord(run)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	page, err := Page(rec, withListLink(Prefix))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writePage(w, page)
}

// writePage sends an HTML page with the lens's security headers.
func writePage(w http.ResponseWriter, page []byte) {
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Security-Policy", contentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "no-store")
	_, _ = w.Write(page)
}
