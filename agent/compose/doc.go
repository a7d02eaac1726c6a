// Package compose builds agents out of agents. A Composition is a flow chart
// whose nodes run named inner agents: Call runs one, Sequence runs steps in
// order, Parallel runs Calls at once and merges their outcomes, Loop repeats
// a step under a budget, and Conditional lets a router choose. Each inner
// agent takes one turn of a fresh agent.Conversation; the whole composition
// is one run with one record (agent/record), in which each inner run's log
// is kept under the outer node that ran it and its run id is
// <outer run id>/<node>.
//
// A composition's standing is folded from the inner answers it used and is
// never more confident than the least confident of them (Result.RollUp).
// An inner pause pauses the composition; Result.Checkpoint resumes it, in
// this process or, after JSON, in another (Composition.LoadCheckpoint).
// docs/COMPOSE.md walks through all of it; agent.AsTool, which offers an
// agent to another agent's model as a tool, stays in package agent.
package compose
