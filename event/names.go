// This file holds every event name as a typed constant. The strings are
// wire facts: they never change within a major version.

package event

// Name is an event's wire name, agentfootprint.<domain>.<action>.
type Name string

// Prefix starts every event name.
const Prefix = "agentfootprint."

// Agent events.
const (
	AgentTurnStart       Name = "agentfootprint.agent.turn_start"
	AgentTurnEnd         Name = "agentfootprint.agent.turn_end"
	AgentIterationStart  Name = "agentfootprint.agent.iteration_start"
	AgentIterationEnd    Name = "agentfootprint.agent.iteration_end"
	AgentRouteDecided    Name = "agentfootprint.agent.route_decided"
	AgentBudgetExhausted Name = "agentfootprint.agent.budget_exhausted"
)

// agentRunConfigured is reserved by the wire spec: it is in Names and a
// pattern may name it, but no run emits it, so it has no exported constant
// that would suggest otherwise.
const agentRunConfigured Name = "agentfootprint.agent.run_configured"

// Model (llm) events.
const (
	LLMRequest  Name = "agentfootprint.llm.request"
	LLMResponse Name = "agentfootprint.llm.response"
	LLMToken    Name = "agentfootprint.llm.token"
)

// Tool events.
const (
	ToolsStart             Name = "agentfootprint.tools.start"
	ToolsProgress          Name = "agentfootprint.tools.progress"
	ToolsResult            Name = "agentfootprint.tools.result"
	ValidationArgsInvalid  Name = "agentfootprint.validation.args_invalid"
	ToolsResultRefused     Name = "agentfootprint.tools.result_refused"
	ToolsAbsent            Name = "agentfootprint.tools.absent"
	ToolsCoverageDeclared  Name = "agentfootprint.tools.coverage_declared"
	ToolsSemanticsDeclared Name = "agentfootprint.tools.semantics_declared"
)

// Findings events (honesty layers). Other findings.* names are reserved.
const (
	FindingsPeriod   Name = "agentfootprint.findings.period"
	FindingsArgument Name = "agentfootprint.findings.argument"
)

// Answer events.
const (
	AnswerAssessed Name = "agentfootprint.answer.assessed"
)

// Run events.
const (
	PauseRequest     Name = "agentfootprint.pause.request"
	PauseResume      Name = "agentfootprint.pause.resume"
	ErrorFatal       Name = "agentfootprint.error.fatal"
	ContextEvaluated Name = "agentfootprint.context.evaluated"
)

// Names lists every event name, grouped as in the spec. The slice is fresh
// on every call.
func Names() []Name {
	return []Name{
		AgentTurnStart, AgentTurnEnd, AgentIterationStart, AgentIterationEnd, AgentRouteDecided, AgentBudgetExhausted, agentRunConfigured,
		LLMRequest, LLMResponse, LLMToken,
		ToolsStart, ToolsProgress, ToolsResult, ValidationArgsInvalid, ToolsResultRefused, ToolsAbsent, ToolsCoverageDeclared, ToolsSemanticsDeclared,
		FindingsPeriod, FindingsArgument,
		AnswerAssessed,
		PauseRequest, PauseResume, ErrorFatal, ContextEvaluated,
	}
}

// known reports whether n is one of the names above.
func (n Name) known() bool {
	switch n {
	case AgentTurnStart, AgentTurnEnd, AgentIterationStart, AgentIterationEnd, AgentRouteDecided, AgentBudgetExhausted, agentRunConfigured,
		LLMRequest, LLMResponse, LLMToken,
		ToolsStart, ToolsProgress, ToolsResult, ValidationArgsInvalid, ToolsResultRefused, ToolsAbsent, ToolsCoverageDeclared, ToolsSemanticsDeclared,
		FindingsPeriod, FindingsArgument,
		AnswerAssessed,
		PauseRequest, PauseResume, ErrorFatal, ContextEvaluated:
		return true
	}
	return false
}
