// History windows: a strategy that chooses which history messages each model
// call carries, and the agent's bookkeeping that records every eviction in
// contextUnits.history (the sent indices, and each evicted one with its
// reason) and never separates a tool call from its results.

package agent

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/agentfootprint/agentfootprint-go/agent/state"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/internal/textlen"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// Reasons a history message can be left out of a request.
const (
	// evictedByWindow marks a message a window strategy chose not to send.
	evictedByWindow = "window"
	// evictedByBudget marks a message left out to keep the history under a
	// size budget.
	evictedByBudget = "budget"
)

// Window chooses the history messages each model request carries: set one
// of its two fields. Both count whole groups (an assistant message that
// asked for tools with the tool messages answering it), newest first, stop
// before the first group that does not fit, and evict every older message.
//
// The agent applies the choice with three rules: an assistant message that
// asked for tools and the tool messages answering it travel together
// (providers refuse a call without its results and the reverse); the group
// holding the last message and the person's latest message (the question
// being answered) are always sent, so a request is never empty or without
// its question; and indices pinned with WithPinnedHistory are always sent,
// with their group. Every eviction is recorded in
// contextUnits.history.evicted with its reason; none is silent.
type Window struct {
	// LastMessages sends the latest n messages and evicts the older ones
	// with reason "window". Fewer than n may be sent, since a group is never
	// split; the newest group is sent even when it alone is larger than n.
	LastMessages int
	// MaxChars sends the newest messages whose combined size fits in
	// MaxChars and evicts the older ones with reason "budget". A message's
	// size is the length in UTF-16 code units (the unit the record counts
	// characters in) of its content plus, for each tool call it makes, the
	// tool's name and its argument text. The newest group is always sent.
	MaxChars int
}

// windowStrategy is a built-in window: Evict receives the iteration number
// and the whole history of the turn (earlier turns first, the person's
// latest message, then this turn's assistant and tool messages) and returns
// the indices to leave out, each with a reason (evictedByWindow or
// evictedByBudget; any other reason is recorded as evictedByWindow). It must
// not modify hist.
type windowStrategy interface {
	Evict(iteration int, hist []llm.Message) []state.Evicted
}

// windowConfig is what WithWindow and WithPinnedHistory asked.
type windowConfig struct {
	strategy windowStrategy
	pinned   []int
}

// WithWindow sets the window that chooses the history each model call
// carries. Without it every message is sent and nothing is recorded as
// evicted. New refuses a Window with neither or both fields set, and a
// field below 1.
func WithWindow(w Window) Option {
	return func(c *config) {
		switch {
		case w.LastMessages != 0 && w.MaxChars != 0:
			c.errs = append(c.errs, errors.New("agent: WithWindow: set one of LastMessages and MaxChars, not both"))
		case w.LastMessages != 0 && w.LastMessages < 1:
			c.errs = append(c.errs, fmt.Errorf("agent: WithWindow: LastMessages is %d; it must be at least 1", w.LastMessages))
		case w.MaxChars != 0 && w.MaxChars < 1:
			c.errs = append(c.errs, fmt.Errorf("agent: WithWindow: MaxChars is %d; it must be at least 1", w.MaxChars))
		case w.LastMessages > 0:
			c.window.strategy = lastMessages{n: w.LastMessages}
		case w.MaxChars > 0:
			c.window.strategy = charBudget{max: w.MaxChars}
		default:
			c.errs = append(c.errs, errors.New("agent: WithWindow: the Window sets neither LastMessages nor MaxChars; set one"))
		}
	}
}

// WithPinnedHistory pins history messages by index: whatever the window strategy
// answers, these messages (and the tool call or results they travel with)
// are sent. It lets a caller restore one evicted message on a rerun (what
// explain's Force does) without knowing the strategy. It has no effect
// without WithWindow, since then every message is sent. New refuses a
// negative index.
func WithPinnedHistory(indices ...int) Option {
	return func(c *config) {
		for _, i := range indices {
			if i < 0 {
				c.errs = append(c.errs, fmt.Errorf("agent: WithPinnedHistory: index %d: must not be negative", i))
				continue
			}
			c.window.pinned = append(c.window.pinned, i)
		}
	}
}

// lastMessages is Window.LastMessages.
type lastMessages struct{ n int }

func (w lastMessages) Evict(_ int, hist []llm.Message) []state.Evicted {
	return keepNewest(hist, evictedByWindow, w.n, func(g group) int { return g.end - g.start })
}

// charBudget is Window.MaxChars.
type charBudget struct{ max int }

func (w charBudget) Evict(_ int, hist []llm.Message) []state.Evicted {
	return keepNewest(hist, evictedByBudget, w.max, func(g group) int {
		n := 0
		for _, m := range hist[g.start:g.end] {
			n += messageChars(m)
		}
		return n
	})
}

// messageChars is Window.MaxChars's size of one message.
func messageChars(m llm.Message) int {
	n := textlen.UTF16(m.Content)
	for _, c := range m.ToolCalls {
		n += textlen.UTF16(c.Name) + textlen.UTF16(string(c.Args))
	}
	return n
}

// group is a run of history messages that must be sent together: one
// message, or an assistant message with tool calls and the tool messages
// answering it: hist[start:end].
type group struct{ start, end int }

// groups splits hist into groups, oldest first. A tool message joins the
// group of the nearest earlier assistant message whose calls name it, when
// only tool messages stand between them.
func groups(hist []llm.Message) []group {
	out := make([]group, 0, len(hist))
	for i := 0; i < len(hist); {
		j := i + 1
		if m := hist[i]; m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0 {
			for j < len(hist) && hist[j].Role == llm.RoleTool && answers(m.ToolCalls, hist[j].ToolCallID) {
				j++
			}
		}
		out = append(out, group{start: i, end: j})
		i = j
	}
	return out
}

// answers reports whether id names one of calls (a batch is short, so a
// scan beats a map).
func answers(calls []llm.ToolCall, id string) bool {
	for _, c := range calls {
		if c.ID == id {
			return true
		}
	}
	return false
}

// keepNewest keeps groups newest first while the sizes of the kept groups
// add up to at most limit, and evicts every older message with reason. The
// newest group is always kept.
func keepNewest(hist []llm.Message, reason string, limit int, size func(group) int) []state.Evicted {
	gs := groups(hist)
	total, cut := 0, 0
	for k := len(gs) - 1; k >= 0; k-- {
		total += size(gs[k])
		if k < len(gs)-1 && total > limit {
			cut = gs[k].end
			break
		}
	}
	out := make([]state.Evicted, 0, cut)
	for i := 0; i < cut; i++ {
		out = append(out, state.Evicted{Index: i, Reason: reason})
	}
	return out
}

// historyWindow is the history part of contextUnits for one iteration:
// every index sent, nothing evicted, unless a window is set.
func (a *Agent) historyWindow(iter int, hist []llm.Message, rs *runState) state.HistoryWindow {
	w := a.cfg.window
	if w.strategy == nil {
		if rs != nil {
			return state.HistoryWindow{Sent: rs.firstIndices(len(hist)), Evicted: []state.Evicted{}}
		}
		sent := make([]int, len(hist))
		for i := range sent {
			sent[i] = i
		}
		return state.HistoryWindow{Sent: sent, Evicted: []state.Evicted{}}
	}
	return applyWindow(w.strategy.Evict(iter, hist), w.pinned, hist)
}

// applyWindow turns a strategy's answer into the recorded window, enforcing
// the rules documented on Window.
func applyWindow(asked []state.Evicted, pinned []int, hist []llm.Message) state.HistoryWindow {
	reason := make([]string, len(hist)) // "" = sent
	for _, e := range asked {
		if e.Index < 0 || e.Index >= len(hist) || reason[e.Index] != "" {
			continue
		}
		if e.Reason == evictedByBudget {
			reason[e.Index] = evictedByBudget
		} else {
			reason[e.Index] = evictedByWindow
		}
	}
	keep := make([]bool, len(hist))
	for _, i := range pinned {
		if i < len(hist) {
			keep[i] = true
		}
	}
	if len(hist) > 0 {
		keep[len(hist)-1] = true
	}
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role == llm.RoleUser && hist[i].Content != wrapUpUserText {
			keep[i] = true // the person's latest message: the question being answered
			break
		}
	}
	for _, g := range groups(hist) {
		r, pinnedGroup := "", false
		for i := g.start; i < g.end; i++ {
			if r == "" {
				r = reason[i]
			}
			pinnedGroup = pinnedGroup || keep[i]
		}
		if pinnedGroup {
			r = ""
		}
		for i := g.start; i < g.end; i++ {
			reason[i] = r
		}
	}
	evicted := 0
	for _, r := range reason {
		if r != "" {
			evicted++
		}
	}
	hw := state.HistoryWindow{Sent: make([]int, 0, len(hist)-evicted), Evicted: make([]state.Evicted, 0, evicted)}
	for i, r := range reason {
		if r == "" {
			hw.Sent = append(hw.Sent, i)
		} else {
			hw.Evicted = append(hw.Evicted, state.Evicted{Index: i, Reason: r})
		}
	}
	return hw
}

// evictedUnits lists a window's evictions as context.evaluated's dropped
// entries (ids history/<index>).
func evictedUnits(ev []state.Evicted) []event.DroppedUnit {
	if len(ev) == 0 {
		return nil
	}
	out := make([]event.DroppedUnit, 0, len(ev))
	for _, e := range ev {
		out = append(out, event.DroppedUnit{ID: "history/" + strconv.Itoa(e.Index), Reason: e.Reason})
	}
	return out
}
