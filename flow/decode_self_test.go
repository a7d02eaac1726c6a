package flow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentfootprint/agentfootprint-go/flow"
)

// loud reads itself from a JSON string, upper-cased, and refuses "bad".
type loud struct{ S string }

func (l *loud) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "bad" {
		return errors.New("loud refuses bad")
	}
	l.S = strings.ToUpper(s)
	return nil
}

func (l loud) MarshalJSON() ([]byte, error) { return json.Marshal(strings.ToLower(l.S)) }

var (
	kLoud  = flow.Key[loud]("loud")
	kLouds = flow.List[loud]("louds")
)

func loudChart(t *testing.T, tail ...loud) *flow.Chart {
	t.Helper()
	return flow.NewBuilder("loud").Keys(kLoud, kLouds).
		Stage("write", func(ctx context.Context, s *flow.Scope) (any, error) {
			kLoud.Set(s, loud{S: "ONE"})
			kLouds.Set(s, []loud{{S: "A"}})
			kLouds.Append(s, tail...)
			return nil, nil
		}).MustBuild()
}

// A decoded log's values of a type that reads itself come out as that
// type's UnmarshalJSON reads them (called on each value and each element of
// an appended tail), and its refusal is the log's error, as it was through
// encoding/json.
func TestDecodeRecordCallsTheTypesOwnReader(t *testing.T) {
	c := loudChart(t, loud{S: "B"}, loud{S: "C"})
	res, err := c.Run(bg(), nil, flow.WithRunID("r"))
	if err != nil {
		t.Fatal(err)
	}
	compact, err := json.Marshal(res.Record)
	if err != nil {
		t.Fatal(err)
	}
	// The compact form is read by the log's own reader, the indented one
	// by encoding/json: both hand their values on checked.
	for _, data := range [][]byte{compact, mustJSON(t, res.Record)} {
		checkLoudLog(t, c, data)
	}
}

func checkLoudLog(t *testing.T, c *flow.Chart, data []byte) {
	t.Helper()
	back, err := c.DecodeRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	for _, cm := range back.Commits {
		for _, op := range cm.Ops {
			got = append(got, op.Value)
		}
	}
	want := []any{loud{S: "ONE"}, []loud{{S: "A"}}, []loud{{S: "B"}, {S: "C"}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("decoded values (-want +got):\n%s", d)
	}

	for _, tc := range []struct{ name, from, to string }{
		{"a set value", `"one"`, `"bad"`},
		{"an element of a tail", `"c"`, `"bad"`},
		{"a tail that is not a list", `["b","c"]`, `{}`},
	} {
		flat := string(data)
		if strings.Contains(flat, "\n") {
			continue // the indented form: the values are the same
		}
		broken := strings.Replace(flat, tc.from, tc.to, 1)
		if broken == flat {
			t.Fatalf("%s: %s is not in %s", tc.name, tc.from, data)
		}
		_, err := c.DecodeRecord([]byte(broken))
		var ce *flow.CorruptLogError
		if !errors.As(err, &ce) || !strings.Contains(ce.Field, ".value") {
			t.Errorf("%s: error %v, want a CorruptLogError on a value", tc.name, err)
		}
		if tc.to == `"bad"` && !strings.Contains(fmt.Sprint(err), "loud refuses bad") {
			t.Errorf("%s: error %v does not carry the type's refusal", tc.name, err)
		}
	}
}
