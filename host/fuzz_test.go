// This file fuzzes the reading of request bodies: whatever the bytes, decodeBody answers a
// decoded value or a 400/413 naming what is wrong, and never panics.

package host

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func FuzzDecodeBody(f *testing.F) {
	for _, s := range []string{`{"message":"hi"}`, `{"message":7}`, `{"mesage":"x"}`, `{"message":"a"} {}`, ``, `{"time":{"now":"x"}}`, `[`, `{"answer":{"a":[1,2]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest("POST", "/v1/conversations/c/turns", strings.NewReader(body))
		r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 256)
		var req turnRequest
		bad := decodeBody(r, &req, false)
		if bad == nil {
			return
		}
		if bad.status != http.StatusBadRequest && bad.status != http.StatusRequestEntityTooLarge {
			t.Errorf("status %d for %q", bad.status, body)
		}
		if bad.msg == "" || bad.code == "" {
			t.Errorf("an empty refusal for %q: %+v", body, bad)
		}
		if bad.status == http.StatusRequestEntityTooLarge && len(body) <= 256 {
			t.Errorf("%d bytes refused as too large", len(body))
		}
	})
}
