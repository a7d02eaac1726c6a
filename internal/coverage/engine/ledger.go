// This file holds the Wrap door: a coverage ledger around a result, "this value covers this ground
// and not that", with its in-progress list and period.

package engine

import cw "github.com/agentfootprint/agentfootprint-go/coverage/wire"

// LedgerDecl is what a tool author declares around a result. A nil slice or pointer means left out.
type LedgerDecl struct {
	// Checked is the ground the result stands on.
	Checked []Item
	// CheckedDeclared leaves checked to the dispatch funnel (the tool's search declaration).
	CheckedDeclared bool
	// NotChecked is ground the answering call could have covered and did not.
	NotChecked []Item
	// CannotCover is ground no call to this tool reaches; each item needs a Why.
	CannotCover []Item
	// Period says what span of time the read behind the result covered.
	Period *Period
	// InProgress lists what the read saw still running. Present (even empty) needs Checked.
	InProgress []InProgressItem
}

// Covered is a minted coverage ledger: the boundary, then the author's result untouched.
type Covered struct {
	// Checked, NotChecked and CannotCover are the normalized lists; CheckedDeclared mints the
	// literal "declared" for checked.
	Checked         []Item
	CheckedDeclared bool
	NotChecked      []Item
	CannotCover     []Item
	// InProgress is the normalized in-progress list; nil when empty.
	InProgress []InProgressItem
	// Period is the checked period, nil when not declared.
	Period *Period
	// Result is the author's value, untouched (nil included).
	Result any
}

var ledgerFieldsCamel = []string{"checked", "notChecked", "cannotCover", "period", "inProgress"}

// Wrap mints a coverage ledger around result, or returns a [*Refusal] naming the first fault. A
// result with no boundary to declare is returned plain, without this door.
func Wrap(result any, d LedgerDecl) (*Covered, error) {
	if d.CheckedDeclared && len(d.Checked) > 0 {
		return nil, bothCheckedProblem().refusal()
	}
	return WrapData(result, d.data())
}

func (d LedgerDecl) data() Object {
	o := listsData(Object{}, d.Checked, d.CheckedDeclared, d.NotChecked, d.CannotCover)
	if d.Period != nil {
		o = append(o, Member{Key: "period", Value: d.Period.object(inCamel)})
	}
	if d.InProgress != nil {
		o = append(o, Member{Key: "inProgress", Value: inProgressData(d.InProgress)})
	}
	return o
}

// WrapData mints a coverage ledger around result from a declaration given as data (a decoded JSON
// object or JSON bytes, camelCase). It applies the same rules as [Wrap].
func WrapData(result any, decl any) (*Covered, error) {
	c, p := wrapFrom(result, decl)
	if p != nil {
		return nil, p.refusal()
	}
	return c, nil
}

func wrapFrom(result any, decl any) (*Covered, *Problem) {
	o, p := declObject(decl, ledgerFieldsCamel)
	if p != nil {
		p.Message += "; a result with no boundary to declare is returned plain, without this door"
		return nil, p
	}
	if p := checkUnknown(o, "", ledgerFieldsCamel); p != nil {
		return nil, p
	}
	c := &Covered{Result: result}
	chk, _ := o.Get("checked")
	if s, isStr := chk.(string); isStr && s == DeclaredChecked {
		c.CheckedDeclared = true
	} else if c.Checked, p = mintList(chk, sectionChecked, "checked"); p != nil {
		return nil, p
	}
	nc, _ := o.Get("notChecked")
	if c.NotChecked, p = mintList(nc, sectionNotChecked, "notChecked"); p != nil {
		return nil, p
	}
	cc, _ := o.Get("cannotCover")
	if c.CannotCover, p = mintList(cc, sectionCannotCover, "cannotCover"); p != nil {
		return nil, p
	}
	ip, hasIP := o.Get("inProgress")
	hasIP = hasIP && ip != nil
	if hasIP && !c.CheckedDeclared && len(c.Checked) == 0 {
		return nil, problemf("inProgress", "`inProgress` needs `checked` beside it: work seen in flight is ground the call read, so name that ground in `checked`")
	}
	if hasIP {
		items, p := inProgressList(ip, "inProgress", true)
		if p != nil {
			return nil, p
		}
		if len(items) > 0 {
			c.InProgress = items
		}
	}
	if v, present := o.Get("period"); present && v != nil {
		if c.Period, p = mintPeriod(v, "period"); p != nil {
			return nil, p
		}
	}
	if !c.CheckedDeclared && len(c.Checked) == 0 && len(c.NotChecked) == 0 && len(c.CannotCover) == 0 && c.Period == nil {
		return nil, problemf("", "this ledger bounds nothing: all three lists are empty and no period is declared. Name some ground, or return the plain result")
	}
	return c, nil
}

// Wire returns the ledger in wire form: af_coverage first, then result.
func (c *Covered) Wire() Object {
	inner := Object{}
	if c.CheckedDeclared {
		inner = append(inner, Member{Key: "checked", Value: DeclaredChecked})
	} else if len(c.Checked) > 0 {
		inner = append(inner, Member{Key: "checked", Value: itemsWire(c.Checked)})
	}
	if len(c.NotChecked) > 0 {
		inner = append(inner, Member{Key: "not_checked", Value: itemsWire(c.NotChecked)})
	}
	if len(c.CannotCover) > 0 {
		inner = append(inner, Member{Key: "cannot_cover", Value: itemsWire(c.CannotCover)})
	}
	if len(c.InProgress) > 0 {
		inner = append(inner, Member{Key: InProgressKey, Value: inProgressWire(c.InProgress)})
	}
	if c.Period != nil {
		inner = append(inner, Member{Key: PeriodKey, Value: c.Period.Wire()})
	}
	inner = append(inner, Member{Key: "note", Value: CoverageNote})
	return Object{{Key: cw.CoverageMarker, Value: inner}, {Key: "result", Value: c.Result}}
}

// MarshalJSON encodes the wire form.
func (c *Covered) MarshalJSON() ([]byte, error) { return c.Wire().MarshalJSON() }
