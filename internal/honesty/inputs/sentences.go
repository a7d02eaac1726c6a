// This file holds the sentences the layer writes: the note after a filled
// call's result, the refusals served instead of running a call, and the rule
// sentence added to a ruled argument's description in the served schema.

package inputs

import (
	"fmt"
	"strings"
)

// hiddenPhrase names a value the tool's view hides.
const hiddenPhrase = "a value the tool's view hides"

// Note wraps a clause as it follows a tool's own bytes: "\n\n[" + clause + "]".
func Note(clause string) string { return "\n\n[" + clause + "]" }

// AssumedClause says that the call ran with the rule's default for a missing
// argument, and that the record files it as assumed. value is shown with
// Quoted unless hidden.
func AssumedClause(toolName, argument string, value any, hidden bool) string {
	return fmt.Sprintf("The %s call this result answers had no %s; it ran with %s, the default the tool's rule declares, "+
		"and the record files that value as assumed, not as the person's choice.", toolName, argument, shown(value, hidden))
}

// AnsweredClause says that the call's value for argument came from the
// person's reply to the question, and whether the call had left it out or
// sent another value.
func AnsweredClause(toolName, argument string, value any, hidden, omitted bool) string {
	how := "which replaced the value the call had sent"
	if omitted {
		how = "because the call had left it out"
	}
	return fmt.Sprintf("The value %s used for %s in this %s call came from the person's reply to a question, %s.",
		shown(value, hidden), argument, toolName, how)
}

// BoundClause says that the call's value for argument is the window the
// person set in the app, filled because the call had left it out.
func BoundClause(toolName, argument string, value any, hidden bool) string {
	return fmt.Sprintf("The %s call this result answers had no %s; it ran with %s, the window the person set in the app.",
		toolName, argument, shown(value, hidden))
}

// KeptClause follows the refusal of a call that needed a second pause after
// the person answered for it: the answers are kept for the next call.
func KeptClause(arguments []string) string {
	return fmt.Sprintf("The person's answers for %s were kept: they fill the same arguments the next time this tool is called without them.", strings.Join(arguments, ", "))
}

// NoLayerRefusal is served for a ruled tool called on an agent without the
// inputs layer.
func NoLayerRefusal(toolName string) string {
	return fmt.Sprintf("The %s call was not run: the tool declares rules for its arguments, and this agent has no inputs layer to apply them.", toolName)
}

// MisfitRefusal is served for a call whose asked argument got no valid reply
// in MaxRounds rounds.
func MisfitRefusal(toolName, argument, expected string) string {
	return fmt.Sprintf("The %s call was not run: none of the person's replies for %s was valid (the tool expects %s).", toolName, argument, expected)
}

// AskSentence is the rule sentence an ask rule adds to the argument's
// description in the served schema.
func AskSentence() string {
	return "The person will be asked for this value, so leave it out unless the person already stated it."
}

// AssumeSentence is the rule sentence an assume rule adds to the argument's
// description in the served schema.
func AssumeSentence(value any, hidden bool) string {
	if hidden {
		return "If left out, the tool's rule fills a declared value the tool's view hides, and the record marks it assumed."
	}
	return fmt.Sprintf("If left out, the tool's rule fills %s and the record marks it assumed.", Quoted(value))
}

func shown(value any, hidden bool) string {
	if hidden {
		return hiddenPhrase
	}
	return Quoted(value)
}
