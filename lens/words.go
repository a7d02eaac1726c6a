// The words a person reads: badges (a shape and a word, so colour is never
// the only signal), and each reason and verdict said plainly.

package lens

import (
	"strconv"

	"github.com/agentfootprint/agentfootprint-go/honesty/assess"
	"github.com/agentfootprint/agentfootprint-go/store"
)

// badge is a word with a shape; Class picks the colour and border, which only
// repeat what the shape and the word say.
type badge struct {
	Shape, Word, Class, Title string
}

// standingBadge is the badge of a standing word.
func standingBadge(word string) badge {
	switch word {
	case assess.StandingKnown:
		return badge{"✔", word, "b-good", "the record supports the answer"}
	case assess.StandingConsistent:
		return badge{"○", word, "b-ok", "the checks that ran found nothing against the answer; silence is not support"}
	case assess.StandingNotSure:
		return badge{"▲", word, "b-warn", "something the answer rests on is missing or unchecked"}
	case assess.StandingAsk:
		return badge{"?", word, "b-ask", "the answer waits on the person"}
	case "":
		word = assess.StandingNotAssessed
	}
	return badge{"–", word, "b-none", "no check ran on this answer (the results layer was not armed)"}
}

// verdictBadge is the badge of a served period verdict.
func verdictBadge(verdict string) badge {
	switch verdict {
	case "covered":
		return badge{"✔", verdict, "b-good", "the store holds all the time the call asked for"}
	case "partly-held":
		return badge{"◐", verdict, "b-warn", "the store holds only part of the time the call asked for"}
	case "not-held":
		return badge{"✖", verdict, "b-bad", "the store holds none of the time the call asked for"}
	case "unknown":
		return badge{"?", verdict, "b-warn", "the tool could not say what time it read"}
	case "":
		return badge{}
	}
	return badge{"•", verdict, "b-none", ""}
}

// statusBadge is the badge of how a run ended.
func statusBadge(status string) badge {
	switch status {
	case string(store.StatusComplete):
		return badge{"✔", status, "b-ok", "Run returned normally"}
	case string(store.StatusPaused):
		return badge{"⏸", status, "b-ask", "the run waits for a person"}
	case string(store.StatusFailed):
		return badge{"✖", status, "b-bad", "Run returned an error"}
	}
	return badge{"…", status, "b-none", "the run was recorded without Run returning"}
}

// reasonSentences says each reason in plain words.
var reasonSentences = map[string]string{
	"asked":                             "The run asked the person a question that is not answered yet.",
	assess.ReasonArgumentAsked:          "A tool argument waits on the person's answer.",
	assess.ReasonArgumentAssumed:        "A tool argument was assumed, not given by the person.",
	assess.ReasonArgumentUnverified:     "A tool argument was chosen by the model and nobody confirmed it.",
	"argument-read":                     "A tool argument was read from earlier results rather than given.",
	"value-contingent":                  "A value in the answer depends on an assumption made on the way.",
	assess.ReasonCoverageGap:            "A tool said there is ground it did not or cannot check, and the answer rests on that tool.",
	assess.ReasonDeclaredAbsent:         "A tool said what was asked for is absent, which is not the same as checked and empty.",
	assess.ReasonEmptyUndeclared:        "A tool came back empty without saying what it covered, so the empty result proves nothing.",
	assess.ReasonCallFailed:             "A tool call the answer may rest on returned no data: it failed, was refused or was not run.",
	assess.ReasonPeriodNotHeld:          "A search asked for time its store does not hold at all.",
	assess.ReasonPeriodPartlyHeld:       "A search asked for time its store holds only in part.",
	assess.ReasonPeriodUnknown:          "A tool could not say which time it read.",
	assess.ReasonPeriodUndeclared:       "A tool that reads a period did not say which period it read.",
	assess.ReasonPeriodDiffersFromAsked: "A tool read a different stretch of time from the one the person asked about.",
	assess.ReasonPeriodBeyondRetention:  "The time asked about is older than the store keeps.",
	"sources-conflict":                  "Two sources disagree.",
	"value-unsupported":                 "A value in the answer is not supported by any tool result.",
	"value-survived-revision":           "A value stayed in the answer after the result it came from was revised.",
	"derived-from-reading":              "A value was derived from reading, not declared by a tool.",
	"stopped-early":                     "The run ran out of steps before the model was done.",
	"steps-unfinished":                  "Some steps the model planned did not run.",
	"answer-check-failed":               "The answer failed a check on its shape.",
	"check-unreachable":                 "A check could not be run.",
}

// reasonWords returns the plain sentence of a reason word.
func reasonWords(word string) string {
	if s, ok := reasonSentences[word]; ok {
		return s
	}
	return "The record names the reason " + strconv.Quote(word) + "."
}

// pointerText prints a witness pointer as a path into the record.
func pointerText(p assess.Pointer) string {
	switch {
	case p.Key != "":
		return p.Key + p.Path
	case p.Index != nil:
		s := p.Kind + "/" + strconv.Itoa(*p.Index) + p.Path
		if p.ToolCallID != "" {
			s += " (" + p.ToolCallID + ")"
		}
		return s
	}
	return p.Kind + p.Path
}
