// This file checks the frozen table of GenAI keys against the semantic
// conventions package it was copied from.

package otelexport

import (
	"testing"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

func TestFrozenKeysMatchSemconv(t *testing.T) {
	for _, tc := range []struct {
		ours, theirs attribute.Key
	}{
		{keyOperationName, semconv.GenAIOperationNameKey},
		{keyProviderName, semconv.GenAIProviderNameKey},
		{keyAgentID, semconv.GenAIAgentIDKey},
		{keyAgentName, semconv.GenAIAgentNameKey},
		{keyConversationID, semconv.GenAIConversationIDKey},
		{keyRequestModel, semconv.GenAIRequestModelKey},
		{keyRequestTemperature, semconv.GenAIRequestTemperatureKey},
		{keyRequestMaxTokens, semconv.GenAIRequestMaxTokensKey},
		{keyResponseFinish, semconv.GenAIResponseFinishReasonsKey},
		{keyResponseID, semconv.GenAIResponseIDKey},
		{keyResponseModel, semconv.GenAIResponseModelKey},
		{keyUsageInput, semconv.GenAIUsageInputTokensKey},
		{keyUsageOutput, semconv.GenAIUsageOutputTokensKey},
		{keyUsageCacheRead, semconv.GenAIUsageCacheReadInputTokensKey},
		{keyUsageCacheCreation, semconv.GenAIUsageCacheCreationInputTokensKey},
		{keyUsageReasoning, semconv.GenAIUsageReasoningOutputTokensKey},
		{keyToolName, semconv.GenAIToolNameKey},
		{keyToolCallID, semconv.GenAIToolCallIDKey},
		{keyToolType, semconv.GenAIToolTypeKey},
		{keyToolCallArguments, semconv.GenAIToolCallArgumentsKey},
		{keyToolCallResult, semconv.GenAIToolCallResultKey},
		{keyOutputMessages, semconv.GenAIOutputMessagesKey},
		{keyErrorType, semconv.ErrorTypeKey},
		{keyServiceName, semconv.ServiceNameKey},
	} {
		if tc.ours != tc.theirs {
			t.Errorf("frozen key %q, semconv v1.41.0 says %q", tc.ours, tc.theirs)
		}
	}
	for _, tc := range []struct {
		ours   string
		theirs attribute.KeyValue
	}{
		{operationChat, semconv.GenAIOperationNameChat},
		{operationExecuteTool, semconv.GenAIOperationNameExecuteTool},
		{operationInvokeAgent, semconv.GenAIOperationNameInvokeAgent},
		{toolTypeFunction, semconv.GenAIToolTypeKey.String("function")},
	} {
		if got := tc.theirs.Value.AsString(); tc.ours != got {
			t.Errorf("frozen value %q, semconv v1.41.0 says %q", tc.ours, got)
		}
	}
}

// TestOwnKeysPrefixed checks that every key this package adds beside the
// conventions' sits under the project's prefix.
func TestOwnKeysPrefixed(t *testing.T) {
	own := []attribute.Key{keyRunID, keyCommitID, keyTurnNumber, keyTurnOutcome, keyIteration, keyIterations,
		keyStanding, keyReasons, keyAssessment, keyStoppedEarly, keyUsageReported, keyRequestSha256,
		keyResponseSha256, keyToolsOffered, keyToolStatus, keyEnvelopes, keyPeriodVerdict, keyChecked,
		keyNotChecked, keyCannotCover, keyEventsDropped, keyRouteChosen, keyRouteRule, keyRouteEvidence,
		keyBudgetLimit, keyBudgetAction, keyPending, keyPauseReason, keyPausedMs, keyUnitsActive,
		keyUnitsTriggers, keyUnitsInactive, keyUnitsDropped, keyLedgerKind, keyVerdict, keyTimeChecks,
		keyArgument, keyArgumentRule, keyArgumentSource, keyCoverageKind, keyLookedFor, keyIssues,
		keyEnforced, keySizeChars, keyMaxChars, keyErrorStage, keyErrorMessage}
	seen := map[attribute.Key]bool{}
	for _, k := range own {
		if len(k) <= len("agentfootprint.") || string(k[:len("agentfootprint.")]) != "agentfootprint." {
			t.Errorf("key %q is not under agentfootprint.", k)
		}
		if seen[k] {
			t.Errorf("key %q is listed twice", k)
		}
		seen[k] = true
	}
}
