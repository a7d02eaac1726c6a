// This file holds the frozen table of attribute keys and values the spans
// use. The gen_ai.* entries are copied from the semantic conventions
// package go.opentelemetry.io/otel/semconv/v1.41.0 (keys_test.go checks
// each one against it); the agentfootprint.* entries are this project's.

package otelexport

import "go.opentelemetry.io/otel/attribute"

// GenAI semantic-convention keys (semconv v1.41.0), kept here so that a
// later semconv release that moves them cannot change what is exported.
const (
	keyOperationName      = attribute.Key("gen_ai.operation.name")
	keyProviderName       = attribute.Key("gen_ai.provider.name")
	keyAgentID            = attribute.Key("gen_ai.agent.id")
	keyAgentName          = attribute.Key("gen_ai.agent.name")
	keyConversationID     = attribute.Key("gen_ai.conversation.id")
	keyRequestModel       = attribute.Key("gen_ai.request.model")
	keyRequestTemperature = attribute.Key("gen_ai.request.temperature")
	keyRequestMaxTokens   = attribute.Key("gen_ai.request.max_tokens")
	keyResponseFinish     = attribute.Key("gen_ai.response.finish_reasons")
	keyResponseID         = attribute.Key("gen_ai.response.id")
	keyResponseModel      = attribute.Key("gen_ai.response.model")
	keyUsageInput         = attribute.Key("gen_ai.usage.input_tokens")
	keyUsageOutput        = attribute.Key("gen_ai.usage.output_tokens")
	keyUsageCacheRead     = attribute.Key("gen_ai.usage.cache_read.input_tokens")
	keyUsageCacheCreation = attribute.Key("gen_ai.usage.cache_creation.input_tokens")
	keyUsageReasoning     = attribute.Key("gen_ai.usage.reasoning.output_tokens")
	keyToolName           = attribute.Key("gen_ai.tool.name")
	keyToolCallID         = attribute.Key("gen_ai.tool.call.id")
	keyToolType           = attribute.Key("gen_ai.tool.type")
	keyToolCallArguments  = attribute.Key("gen_ai.tool.call.arguments")
	keyToolCallResult     = attribute.Key("gen_ai.tool.call.result")
	keyOutputMessages     = attribute.Key("gen_ai.output.messages")
	keyErrorType          = attribute.Key("error.type")
	keyServiceName        = attribute.Key("service.name")
	operationChat         = "chat"
	operationExecuteTool  = "execute_tool"
	operationInvokeAgent  = "invoke_agent"
	toolTypeFunction      = "function"
	errorTypeToolFailed   = "tool_error"
	errorTypeRunFailed    = "run_error"
)

// The project's own keys. Span attributes first, then span-event attributes.
const (
	keyRunID          = attribute.Key("agentfootprint.run.id")
	keyCommitID       = attribute.Key("agentfootprint.commit.id")
	keyTurnNumber     = attribute.Key("agentfootprint.turn.number")
	keyTurnOutcome    = attribute.Key("agentfootprint.turn.outcome")
	keyIteration      = attribute.Key("agentfootprint.iteration")
	keyIterations     = attribute.Key("agentfootprint.iterations")
	keyStanding       = attribute.Key("agentfootprint.answer.standing")
	keyReasons        = attribute.Key("agentfootprint.answer.reasons")
	keyAssessment     = attribute.Key("agentfootprint.answer.assessment")
	keyStoppedEarly   = attribute.Key("agentfootprint.stopped_early.reason")
	keyUsageReported  = attribute.Key("agentfootprint.usage.reported")
	keyRequestSha256  = attribute.Key("agentfootprint.request.sha256")
	keyResponseSha256 = attribute.Key("agentfootprint.response.sha256")
	keyToolsOffered   = attribute.Key("agentfootprint.tools.offered")
	keyToolStatus     = attribute.Key("agentfootprint.tool.status")
	keyEnvelopes      = attribute.Key("agentfootprint.envelope.kinds")
	keyPeriodVerdict  = attribute.Key("agentfootprint.period.verdict")
	keyChecked        = attribute.Key("agentfootprint.coverage.checked")
	keyNotChecked     = attribute.Key("agentfootprint.coverage.not_checked")
	keyCannotCover    = attribute.Key("agentfootprint.coverage.cannot_cover")
	keyEventsDropped  = attribute.Key("agentfootprint.events.dropped")

	keyRouteChosen    = attribute.Key("agentfootprint.route.chosen")
	keyRouteRule      = attribute.Key("agentfootprint.route.rule")
	keyRouteEvidence  = attribute.Key("agentfootprint.route.evidence_keys")
	keyBudgetLimit    = attribute.Key("agentfootprint.budget.limit")
	keyBudgetAction   = attribute.Key("agentfootprint.budget.action")
	keyPending        = attribute.Key("agentfootprint.budget.pending_tool_calls")
	keyPauseReason    = attribute.Key("agentfootprint.pause.reason")
	keyPausedMs       = attribute.Key("agentfootprint.pause.duration_ms")
	keyUnitsActive    = attribute.Key("agentfootprint.context.active")
	keyUnitsTriggers  = attribute.Key("agentfootprint.context.triggers")
	keyUnitsInactive  = attribute.Key("agentfootprint.context.inactive_count")
	keyUnitsDropped   = attribute.Key("agentfootprint.context.dropped")
	keyLedgerKind     = attribute.Key("agentfootprint.ledger.kind")
	keyVerdict        = attribute.Key("agentfootprint.ledger.verdict")
	keyTimeChecks     = attribute.Key("agentfootprint.ledger.time_checks")
	keyArgument       = attribute.Key("agentfootprint.ledger.argument")
	keyArgumentRule   = attribute.Key("agentfootprint.ledger.rule")
	keyArgumentSource = attribute.Key("agentfootprint.ledger.source")
	keyCoverageKind   = attribute.Key("agentfootprint.coverage.kind")
	keyLookedFor      = attribute.Key("agentfootprint.coverage.looked_for")
	keyIssues         = attribute.Key("agentfootprint.validation.issues")
	keyEnforced       = attribute.Key("agentfootprint.validation.enforced")
	keySizeChars      = attribute.Key("agentfootprint.result.size_chars")
	keyMaxChars       = attribute.Key("agentfootprint.result.max_chars")
	keyErrorStage     = attribute.Key("agentfootprint.error.stage")
	keyErrorMessage   = attribute.Key("agentfootprint.error.message")
)

// Envelope kinds, as tools write them.
const (
	envelopeCoverage  = "af_coverage"
	envelopeAbsent    = "af_absent"
	envelopeSemantics = "af_semantics"
)

// Turn outcomes on invoke_agent.
const (
	outcomeAnswered   = "answered"
	outcomePaused     = "paused"
	outcomeFailed     = "failed"
	outcomeIncomplete = "incomplete"
)
