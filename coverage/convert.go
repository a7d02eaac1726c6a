// This file turns the declaration values of this package into the engine's, which checks and
// mints them. Nil stays nil and empty stays empty: at the typed doors a nil slice or pointer means
// the field was left out.

package coverage

import "github.com/agentfootprint/agentfootprint-go/internal/coverage/engine"

func items(in []Item) []engine.Item {
	if in == nil {
		return nil
	}
	out := make([]engine.Item, len(in))
	for i, it := range in {
		out[i] = engine.Item{What: it.What, Why: it.Why, Short: it.Short, Kind: engine.ItemKind(it.Kind)}
	}
	return out
}

func inProgress(in []InProgressItem) []engine.InProgressItem {
	if in == nil {
		return nil
	}
	out := make([]engine.InProgressItem, len(in))
	for i, it := range in {
		out[i] = engine.InProgressItem(it)
	}
	return out
}

func (s Span) engine() engine.Span { return engine.Span(s) }

func (p Period) engine() engine.Period {
	return engine.Period{
		Queried: p.Queried.engine(),
		Held:    engine.Held{Unknown: p.Held.Unknown, Span: p.Held.Span.engine()},
		ReadAt:  p.ReadAt,
	}
}

func periodPtr(p *Period) *engine.Period {
	if p == nil {
		return nil
	}
	e := p.engine()
	return &e
}

func provenance(p *Provenance) *engine.Provenance {
	if p == nil {
		return nil
	}
	return &engine.Provenance{MeasuredAt: p.MeasuredAt, AgeSeconds: p.AgeSeconds, Source: p.Source, SourceExportDate: p.SourceExportDate}
}

func (d AbsenceDecl) engine() engine.AbsenceDecl {
	e := engine.AbsenceDecl{
		What:            d.What,
		Checked:         items(d.Checked),
		CheckedDeclared: d.CheckedDeclared,
		NotChecked:      items(d.NotChecked),
		CannotCover:     items(d.CannotCover),
		TryInstead:      d.TryInstead,
		Provenance:      provenance(d.Provenance),
		Period:          periodPtr(d.Period),
	}
	if d.TryInsteadTool != nil {
		e.TryInsteadTool = &engine.ToolSuggestion{Tool: d.TryInsteadTool.Tool, Why: d.TryInsteadTool.Why}
	}
	if d.Resolved != nil {
		e.Resolved = make([]engine.Resolved, len(d.Resolved))
		for i, r := range d.Resolved {
			e.Resolved[i] = engine.Resolved(r)
		}
	}
	if d.Paging != nil {
		e.Paging = &engine.Paging{Next: d.Paging.Next}
	}
	if a := d.Among; a != nil {
		e.Among = &engine.Among{Argument: a.Argument, Source: a.Source, MeasuredAt: a.MeasuredAt, Count: a.Count, Names: a.Names, Partial: a.Partial}
		if a.Authoritative != "" {
			e.Among.Authoritative = &engine.Authoritative{Why: a.Authoritative}
		}
	}
	return e
}

func (d LedgerDecl) engine() engine.LedgerDecl {
	return engine.LedgerDecl{
		Checked:         items(d.Checked),
		CheckedDeclared: d.CheckedDeclared,
		NotChecked:      items(d.NotChecked),
		CannotCover:     items(d.CannotCover),
		Period:          periodPtr(d.Period),
		InProgress:      inProgress(d.InProgress),
	}
}

func (d DescribedDecl) engine() engine.DescribedDecl {
	e := engine.DescribedDecl{
		Series:     d.Series,
		Facts:      d.Facts,
		Edges:      d.Edges,
		Provenance: provenance(d.Provenance),
		Period:     periodPtr(d.Period),
	}
	if d.Grain != nil {
		g := engine.Grain(*d.Grain)
		e.Grain = &g
	}
	if d.Coverage != nil {
		e.Coverage = &engine.Ground{Checked: items(d.Coverage.Checked), NotChecked: items(d.Coverage.NotChecked), CannotCover: items(d.Coverage.CannotCover)}
	}
	if d.Clarify != nil {
		c := engine.Clarify(*d.Clarify)
		e.Clarify = &c
	}
	if d.Render != nil {
		r := engine.Render(*d.Render)
		e.Render = &r
	}
	return e
}
