// This file holds the wire shape of errors and the JSON reading and writing every endpoint
// shares: {"error": {"code", "message", "field"?}} with the status that says what went
// wrong, and request bodies read under the size cap with unknown fields refused.

package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ErrorBody is the "error" object of an error response.
type ErrorBody struct {
	// Code is a stable word a client branches on: bad_request, too_large, unauthorized,
	// not_found, method_not_allowed, turn_in_flight, paused, not_paused, draining, turn_failed,
	// not_explainable, internal.
	Code string `json:"code"`
	// Message says what went wrong and what to do, for a person.
	Message string `json:"message"`
	// Field names the request field at fault, when one is.
	Field string `json:"field,omitempty"`
	// RunID names the run a failed turn left, when there is one (GET /v1/runs/{id}).
	RunID string `json:"runId,omitempty"`
}

type errorResponse struct {
	Error ErrorBody `json:"error"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorResponse{ErrorBody{Code: "internal", Message: "host: encoding the response: " + err.Error()}})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, status int, code, msg, field string) {
	writeJSON(w, status, errorResponse{ErrorBody{Code: code, Message: msg, Field: field}})
}

// badRequest is a refused request body, naming the field when it can.
type badRequest struct {
	status int
	code   string
	msg    string
	field  string
}

func (e *badRequest) Error() string { return e.msg }

func (e *badRequest) write(w http.ResponseWriter) { writeError(w, e.status, e.code, e.msg, e.field) }

// decodeBody reads one JSON object into v. An empty body is allowed when optional. It
// refuses a body over the cap (413), malformed JSON, an unknown field and trailing data
// (400, naming the field when the decoder does).
func decodeBody(r *http.Request, v any, optional bool) *badRequest {
	data, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return &badRequest{http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("the request body is over the host's cap of %d bytes", tooBig.Limit), ""}
	}
	if err != nil {
		return &badRequest{http.StatusBadRequest, "bad_request", "reading the request body: " + err.Error(), ""}
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		if optional {
			return nil
		}
		return &badRequest{http.StatusBadRequest, "bad_request", "the request needs a JSON object body", ""}
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		var syn *json.SyntaxError
		switch {
		case errors.As(err, &typeErr):
			return &badRequest{http.StatusBadRequest, "bad_request", fmt.Sprintf("field %s: want a JSON %s", typeErr.Field, typeErr.Type), typeErr.Field}
		case errors.As(err, &syn):
			return &badRequest{http.StatusBadRequest, "bad_request", fmt.Sprintf("the body is not JSON (at byte %d): %v", syn.Offset, err), ""}
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			f := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return &badRequest{http.StatusBadRequest, "bad_request", fmt.Sprintf("unknown field %q", f), f}
		}
		return &badRequest{http.StatusBadRequest, "bad_request", "the body is not a JSON object: " + err.Error(), ""}
	}
	if dec.More() {
		return &badRequest{http.StatusBadRequest, "bad_request", "the body holds more than one JSON value", ""}
	}
	return nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(`{"error":{"code":"internal","message":"the result did not encode"}}`)
	}
	return b
}
