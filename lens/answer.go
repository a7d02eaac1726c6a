// The answer pane: the answer as returned, split from the limits block the
// framework appended, its standing with the reasons in plain words, and for a
// run with no answer, what it waits on or why it failed.

package lens

import (
	"github.com/agentfootprint/agentfootprint-go/agent/record"
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/honesty/limits"
	"github.com/agentfootprint/agentfootprint-go/store"
	"strings"
)

// answerView is the answer pane.
type answerView struct {
	Status   string
	Text     string // the answer without the limits block
	Limits   string // the limits block, when one travelled with the answer
	Standing badge
	Reasons  []reasonView
	Checked  []checkView
	Error    string // the failure sentence
	ErrStage string
	Paused   *pauseView
	Step     string // the anchor of the step whose reply is the answer
}

// reasonView is one reason the answer is not taken as it stands.
type reasonView struct {
	Word, Plain string
	Witness     []string
}

// checkView is one check that ran.
type checkView struct {
	Check   string
	Ran, Of int
}

// answerOf builds the answer pane from the record and the story.
func answerOf(rec *record.Record, status string, steps []step) answerView {
	a := answerView{Status: status}
	final, _ := finalValue[string](rec.Log, keyFinalContent)
	a.Text = final
	for i := range steps {
		s := &steps[i]
		if s.Final {
			a.Step = s.Anchor
			if body := strings.TrimRight(s.Said, " \t\r\n\v\f"); body != "" {
				if rest, ok := strings.CutPrefix(final, body+limits.Separator); ok {
					a.Text, a.Limits = s.Said, rest
				}
			} else if final != "" && final != s.Said {
				a.Text, a.Limits = "", final
			}
		}
		if s.Paused != nil {
			a.Paused = s.Paused
		}
	}
	as, ok := assessmentOf(rec)
	if ok {
		a.Standing = standingBadge(as.Standing)
		for _, r := range as.Reasons {
			rv := reasonView{Word: r.Reason, Plain: reasonWords(r.Reason)}
			for _, w := range r.Witness {
				rv.Witness = append(rv.Witness, pointerText(w))
			}
			a.Reasons = append(a.Reasons, rv)
		}
		for _, c := range as.Checked {
			a.Checked = append(a.Checked, checkView{Check: c.Check, Ran: c.Ran, Of: c.Of})
		}
	} else {
		a.Standing = standingBadge(assess.StandingNotAssessed)
	}
	if status == string(store.StatusFailed) {
		a.Error, a.ErrStage = failureOf(rec)
	}
	return a
}

// assessmentOf reads the standing the run recorded on its turn_end event.
func assessmentOf(rec *record.Record) (assess.Assessment, bool) {
	for i := rec.Events.Len() - 1; i >= 0; i-- {
		e := rec.Events.At(i)
		if e.Type != event.AgentTurnEnd {
			continue
		}
		p, ok := payloadAs[struct {
			AnswerAssessment *assess.Assessment `json:"answerAssessment"`
		}](e)
		if ok && p.AnswerAssessment != nil && p.AnswerAssessment.Standing != "" {
			return *p.AnswerAssessment, true
		}
	}
	return assess.Assessment{}, false
}

// failureOf returns the error sentence and the stage that failed: the fatal
// error event's when there is one, else the failed commit's.
func failureOf(rec *record.Record) (string, string) {
	for _, e := range rec.Events.All() {
		if e.Type == event.ErrorFatal {
			if p, ok := payloadAs[event.ErrorFatalPayload](e); ok && p.Error != "" {
				stage := e.Meta.RuntimeStageID
				if stage == "" {
					stage = p.Stage
				}
				return p.Error, stage
			}
		}
	}
	if rec.Log != nil {
		for _, c := range rec.Log.Commits {
			if c.CommitDetail != nil && c.Error != "" {
				return c.Error, c.RuntimeStageID
			}
		}
	}
	return "the run failed; the record holds no error sentence", ""
}
