// This file holds how the fold settles an Assessment's value and standing, and its event form.

package assess

import (
	"github.com/agentfootprint/agentfootprint-go/event"
	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
)

// askClass holds the reasons that make the standing ask: the answer waits on the person.
var askClass = map[string]bool{"asked": true, assess.ReasonArgumentAsked: true}

// Payload returns the agentfootprint.answer.assessed payload for assessment a.
func Payload(a assess.Assessment, turn, iteration int) event.AnswerAssessedPayload {
	p := event.AnswerAssessedPayload{Assessment: a.Assessment, Standing: a.Standing,
		Reasons: make([]string, len(a.Reasons)), Checked: make([]event.Check, len(a.Checked)), Turn: turn, Iteration: iteration}
	for i, r := range a.Reasons {
		p.Reasons[i] = r.Reason
	}
	for i, c := range a.Checked {
		p.Checked[i] = event.Check{Layer: c.Layer, Check: c.Check, Ran: c.Ran, Of: c.Of}
	}
	return p
}

// settle fills a's Assessment and Standing from its reasons and checks.
func settle(a *assess.Assessment) {
	switch {
	case len(a.Reasons) > 0:
		a.Assessment = assess.ValueUnknown
		a.Standing = assess.StandingNotSure
		for _, r := range a.Reasons {
			if askClass[r.Reason] {
				a.Standing = assess.StandingAsk
			}
		}
	case anyRan(a.Checked):
		a.Assessment, a.Standing = assess.ValueUnrefuted, assess.StandingConsistent
	default:
		a.Assessment, a.Standing = assess.ValueNotApplicable, assess.StandingNotAssessed
	}
}

func anyRan(cs []assess.Check) bool {
	for _, c := range cs {
		if c.Ran > 0 {
			return true
		}
	}
	return false
}

// reasonOrder is the closed reason list in report order, as the public package states it.
var reasonOrder = assess.ReasonOrder()
