// This file holds the values a declaration is made of: items of ground, work seen in flight,
// provenance, the suggestion of another tool, and the extensions of an absence (resolved, paging,
// among), plus the small objects a described result carries beside its rows.

package coverage

// Item is one piece of ground: a source, a window, a filter or a population, in the author's
// words, and optionally why it sits in its list. Short and Kind are record-only: the record keeps
// them and the model is never served them. At the typed door an empty string means omitted.
type Item struct {
	// What names the ground. Required.
	What string `json:"what"`
	// Why says why the ground is where it is. Required on cannotCover.
	Why string `json:"why,omitempty"`
	// Short is a plain short form of What for a person's report: one visible line, at most 80
	// UTF-16 units and never longer than What. Never build it from call arguments.
	Short string `json:"short,omitempty"`
	// Kind says what kind of unreached ground this is; refused on checked.
	Kind ItemKind `json:"kind,omitempty"`
}

// ItemKind names what kind of unreached ground a not_checked or cannot_cover item is. The set is
// closed today, but readers keep a default arm so a later member is an additive change.
type ItemKind string

// The item kinds.
const (
	KindExistence ItemKind = "existence"
	KindScope     ItemKind = "scope"
)

// InProgressItem is something the read saw still running, whose outcome is not known yet. Count is
// how many things the entry stands for; zero means omitted, which reads as one.
type InProgressItem struct {
	What  string `json:"what"`
	Why   string `json:"why,omitempty"`
	Short string `json:"short,omitempty"`
	Count int64  `json:"count,omitempty"`
}

// Provenance says where a read looked and how old that source is. MeasuredAt is the tool's own
// words and is never parsed. Values are kept exactly as written, never trimmed.
type Provenance struct {
	// MeasuredAt says when the source was measured. Required.
	MeasuredAt string `json:"measuredAt"`
	// AgeSeconds is the source's age; nil when not declared. Finite and not negative.
	AgeSeconds *float64 `json:"ageSeconds,omitempty"`
	// Source names the system of record. Required.
	Source string `json:"source"`
	// SourceExportDate names the export the source came from; optional.
	SourceExportDate string `json:"sourceExportDate,omitempty"`
}

// ToolSuggestion names the one other tool an absence points at, as data beside the tryInstead
// sentence. The tool is never looked up: a provider may serve it later.
type ToolSuggestion struct {
	Tool string `json:"tool"`
	Why  string `json:"why,omitempty"`
}

// Resolved is the tool's claim that the value sent for Argument resolved to the entity ID. It binds
// that value and no other entity.
type Resolved struct {
	Argument string   `json:"argument"`
	ID       string   `json:"id"`
	Name     string   `json:"name,omitempty"`
	Aliases  []string `json:"aliases,omitempty"`
}

// Paging says whether a result has a next page. Next is the tool's cursor, or nil when there is
// none: {"next": null} says the result is the last page.
type Paging struct {
	Next any
}

// Among is the list a missed name was looked up in. The mint composes from it the names facet
// (first in checked), the gap of names outside the source (first in not_checked, removed only by
// Authoritative), a completeness gap when the read was Partial, and the absence's provenance.
// Names is read only to check Count and is never kept, served or recorded.
type Among struct {
	// Argument is the input argument whose value was looked up.
	Argument string
	// Source names the list, in the author's words; one line.
	Source string
	// MeasuredAt says when the list was read, in the tool's own words.
	MeasuredAt string
	// Count is how many names the list holds.
	Count int64
	// Names, when given, must hold exactly Count names.
	Names []string
	// Partial says the read did not see every name in the source.
	Partial bool
	// Authoritative, when not empty, claims that the source holds every name there is, and says
	// why; the gap of names outside the source is then left out. The envelope carries the reason,
	// so a reviewer can list every such claim. Empty makes no claim.
	Authoritative string
}

// Ground is the three coverage lists of a described result.
type Ground struct {
	Checked     []Item `json:"checked"`
	NotChecked  []Item `json:"notChecked"`
	CannotCover []Item `json:"cannotCover"`
}

// Grain says what one value of a described result means, when that is not what a reader would
// assume. It is required beside Series.
type Grain struct {
	// Interval is the collection interval the values live on ("30m", "1h", "daily").
	Interval string
	// Aggregation says how the values were folded ("avg", "max", "sum", "count").
	Aggregation string
	// IsCounter says whether the values are counters, which a reader must never add together. It
	// must be stated (true or false) when Aggregation holds a counter word such as "sum" or
	// "count"; nil leaves it unstated. The wire spells it is_counter.
	IsCounter *bool
	// Collapsed says what was folded away ("per-port rows collapsed to per-switch").
	Collapsed string
}

// Clarify is a question a described result hands back instead of picking one answer silently: the
// model reads it and decides what to ask. It never pauses the run.
type Clarify struct {
	// Question is what the person should be asked. Required.
	Question string
	// Candidates are the answers the question chooses between; empty is an open question.
	Candidates []any
}

// Render holds presentation hints for a user interface. The model is never served them.
type Render struct {
	// Default names the default presentation ("table", "chart", "prose"). Required.
	Default string
	// Columns is the column order of a tabular view; nil leaves it out.
	Columns []string
	// Sort is a sort hint ("avg_iops desc").
	Sort string
	// FilterNote says what filtering already happened ("replicas excluded"). Wire: filter_note.
	FilterNote string
	// ChartHint is a chart-shape hint ("line per entity"). Wire: chart_hint.
	ChartHint string
}
