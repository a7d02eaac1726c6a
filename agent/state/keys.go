// Package state declares, once and typed, the agent-state keys that more than one package reads:
// the agent chart writes them, the honesty layers (internal/honesty/results, internal/honesty/assess)
// judge and fold them, and explain walks a record back through them. Each key's wire name (the name a run record
// stores it under) is spelled here and nowhere else; every other package reads and writes the
// key through these declarations, so a value comes back as its Go type, never as "whatever the
// writer kept". Keys only the agent itself reads stay private to the agent.
//
// The package is a leaf: it imports the value types the keys hold (flow, llm, inject, coverage,
// tool, honesty/ledger, honesty/inputs) and nothing that reads the keys.
package state

import (
	"github.com/agentfootprint/agentfootprint-go/coverage"
	"github.com/agentfootprint/agentfootprint-go/flow"
	"github.com/agentfootprint/agentfootprint-go/honesty/ledger"
	"github.com/agentfootprint/agentfootprint-go/inject"
	"github.com/agentfootprint/agentfootprint-go/llm"
)

// The turn: what the person said, and which turn of the conversation this is (1 for the first).
var (
	KeyUserMessage = flow.Key[string]("userMessage")
	KeyTurnNumber  = flow.Key[int]("turnNumber")
)

// The conversation as the model sees it: every message so far, the person's included, growing
// by appends.
var KeyHistory = flow.List[llm.Message]("history")

// The loop: the iteration the loop head opened (1 for the first model call of a turn).
var KeyIteration = flow.Key[int]("iteration")

// The context pieces: the catalog of units the app registered, and what each unit did in one
// iteration.
var (
	KeyCatalog      = flow.Key[[]inject.CatalogEntry]("contextCatalog")
	KeyContextUnits = flow.Key[ContextUnits]("contextUnits")
)

// The model call: the exchange's capture, the text it answered and the tool calls it asked for.
var (
	KeyLLMRequest      = flow.Key[LLMRequest]("llmRequest")
	KeyLatestContent   = flow.Key[string]("llmLatestContent")
	KeyLatestToolCalls = flow.Key[[]llm.ToolCall]("llmLatestToolCalls")
)

// The batch of tool calls: each call's result as the record keeps it, and every coverage row a
// result declared (one list for the whole turn, growing by appends).
var (
	KeyToolResults      = flow.Key[[]ToolResult]("toolResults")
	KeyCoverageDeclared = flow.List[coverage.DeclaredCoverage]("coverageDeclared")
)

// The honesty layers' state: the findings ledger every layer files its verdicts on (rows of
// earlier turns included), and the inputs layer's open question about a batch's arguments.
var (
	KeyFindingsLedger = flow.List[ledger.Row]("findingsLedger")
	KeyArgumentAsk    = flow.Key[ArgumentAsk]("argumentAsk")
)

// The answer prepare-final settles on.
var KeyFinalContent = flow.Key[string]("finalContent")
