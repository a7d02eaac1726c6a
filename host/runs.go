// This file holds the run endpoints: the stored runs newest first, one run's record, and
// its backtrack (package explain) as JSON.

package host

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/agentfootprint/agentfootprint-go/explain"
	"github.com/agentfootprint/agentfootprint-go/store"
)

// Bounds of GET /v1/runs?limit=.
const (
	defaultRunsLimit = 50
	maxRunsLimit     = 500
)

// RunList is what GET /v1/runs returns. Next, when set, is the before= of the next page.
type RunList struct {
	Runs []store.RunInfo `json:"runs"`
	Next string          `json:"next,omitempty"`
}

func (h *Host) noRuns(w http.ResponseWriter) bool {
	if h.runs == nil {
		writeError(w, http.StatusNotFound, "not_found", "this host keeps no run records (it was started without a run store)", "")
		return true
	}
	return false
}

func (h *Host) listRuns(w http.ResponseWriter, r *http.Request) {
	if h.noRuns(w) {
		return
	}
	q := r.URL.Query()
	f := store.Filter{Limit: defaultRunsLimit, SessionID: q.Get("conversation")}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxRunsLimit {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("limit=%q: want 1 to %d", v, maxRunsLimit), "limit")
			return
		}
		f.Limit = n
	}
	if v := q.Get("before"); v != "" {
		at, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("before=%q: want an RFC 3339 time (a run's startedAt, or the next of the previous page)", v), "before")
			return
		}
		f.Until = at
	}
	runs, err := h.runs.ListRuns(r.Context(), f)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "listing runs: "+err.Error(), "")
		return
	}
	out := RunList{Runs: runs}
	if out.Runs == nil {
		out.Runs = []store.RunInfo{}
	}
	if len(runs) == f.Limit {
		out.Next = runs[len(runs)-1].StartedAt.Format(time.RFC3339Nano)
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *Host) getRun(w http.ResponseWriter, r *http.Request) {
	if h.noRuns(w) {
		return
	}
	id := r.PathValue("id")
	rec, run, err := store.LoadRecord(r.Context(), h.runs, id)
	if err != nil {
		runError(w, err, id)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		store.RunInfo
		Record any `json:"record"`
	}{run.RunInfo, rec})
}

func (h *Host) explainRun(w http.ResponseWriter, r *http.Request) {
	if h.noRuns(w) {
		return
	}
	id := r.PathValue("id")
	rec, _, err := store.LoadRecord(r.Context(), h.runs, id)
	if err != nil {
		runError(w, err, id)
		return
	}
	var target explain.Target
	if from := r.URL.Query().Get("from"); from != "" && from != "answer" {
		target.Step = from
	}
	ch, err := explain.Backtrack(rec, target)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, "not_explainable", fmt.Sprintf("run %s: %v", id, err), "")
		return
	}
	writeJSON(w, http.StatusOK, ch)
}

func runError(w http.ResponseWriter, err error, id string) {
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("no run %q", id), "")
		return
	}
	writeError(w, http.StatusInternalServerError, "internal", fmt.Sprintf("reading run %s: %v", id, err), "")
}
