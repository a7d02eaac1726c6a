package explain_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agentfootprint/agentfootprint-go/explain"
)

// Every name a backtrack prints is a name ablation takes back, and means the same spec.
func TestSuspectNamesRoundTrip(t *testing.T) {
	r := newRefunds(t)
	rec := r.run(t, refundsModel(false))
	ch, err := explain.Backtrack(rec, explain.Target{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range ch.Suspects {
		names = append(names, s.Name)
		sp, err := explain.ParseSuspect(rec, r.bp, s.Name)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if sp.String() != s.Name {
			t.Errorf("ParseSuspect(%q) = %s", s.Name, sp)
		}
		// The raw id the chain's JSON carries resolves to the same spec.
		byID, err := explain.ParseSuspect(rec, r.bp, s.Unit)
		if err != nil || byID != sp {
			t.Errorf("ParseSuspect(%q) = %v, %v; want %s", s.Unit, byID, err, sp)
		}
	}
	want := []string{"unit:vip-override", "tool:lookup_order", "unit:style"}
	if !slices.Equal(names, want) {
		t.Errorf("suspect names = %v, want %v", names, want)
	}
}

func TestParseSuspectRefusals(t *testing.T) {
	r := newRefunds(t)
	rec := r.run(t, refundsModel(false))
	for _, name := range []string{"history/5", "unit:history/5", "message:5", "nothing", "tool:nothing"} {
		_, err := explain.ParseSuspect(rec, r.bp, name)
		var unk *explain.UnknownSpecError
		if !errors.As(err, &unk) {
			t.Errorf("%s: %v, want an *UnknownSpecError", name, err)
			continue
		}
		if want := []string{"unit:vip-override", "unit:style", "tool:lookup_order"}; !slices.Equal(unk.Removable, want) {
			t.Errorf("%s: removable %v, want %v", name, unk.Removable, want)
		}
		if !strings.Contains(err.Error(), "removable: unit:vip-override, unit:style, tool:lookup_order") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := explain.ParseSuspect(rec, r.bp, "bogus:x"); err == nil || !strings.Contains(err.Error(), `unknown kind "bogus"`) {
		t.Errorf("bogus kind: %v", err)
	}
	if _, err := explain.ParseSuspect(rec, r.bp, "message:x"); err == nil || !strings.Contains(err.Error(), "not a whole number") {
		t.Errorf("message:x: %v", err)
	}
	if sp, err := explain.ParseSuspect(rec, r.bp, "force:vip-override"); err != nil || sp != explain.Force("vip-override") {
		t.Errorf("force: %v %v", sp, err)
	}
}

// FuzzParseSuspect: any name is refused with an error or read as a spec whose own name reads
// back as the same spec.
func FuzzParseSuspect(f *testing.F) {
	r := newRefunds(f)
	rec := r.run(f, refundsModel(false))
	for _, s := range []string{"unit:vip-override", "tool:lookup_order", "history/2", "history/99", "message:0",
		"message:-1", "force:history/1", "vip-override", ":", "unit:", "message:history/3", "bogus:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		sp, err := explain.ParseSuspect(rec, r.bp, name)
		if err != nil {
			return
		}
		again, err := explain.ParseSuspect(rec, r.bp, sp.String())
		if err != nil || again != sp {
			t.Fatalf("%q read as %s, which reads back as %v, %v", name, sp, again, err)
		}
	})
}
