// Package explain answers "why did the agent say that?" from a run record
// alone, and tests the answer by rerunning the agent.
//
// Every function here reads an *record.Record (live from agent.Result.Record,
// or decoded from its JSON with Open or record.Decode) and nothing the caller types
// by hand:
//
//   - Backtrack walks from the final answer (or any model call) back through
//     the hops ANSWER → READ → LANDED → ALLOWED → BORN and returns a Chain
//     that encodes as format "agentfootprint-go.backtrack/1". Each suspect
//     carries the byte span of its text in the exact request and the site of
//     the constructor that authored it, and its suspect name (unit:ID,
//     tool:NAME, message:N), the name ParseSuspect reads back for a rerun.
//     Chain.WriteText prints the chain for a person, as the CLI's explain does.
//
//   - Rank orders the content-bearing suspects (context units and tool
//     results; never plumbing stages) by a lexical, deterministic score, and
//     RankingConfidence says whether the top is clear or only a shortlist.
//
//   - MissingContext derives what was available to a model call but never
//     sent, and what never fired, with the recorded reasons.
//
//   - Probe reruns copies of the agent with one suspect removed (Ablate) in
//     a frozen world (FrozenWorld: recorded tool outputs replayed, clock
//     held, the model live with the probe's seed) and reports verdicts
//     confirmed, not-confirmed or inconclusive behind a baseline stability
//     gate, as format "agentfootprint-go.ablation/1".
//
//   - Bisect finds a minimal set of suspects that flip the answer only
//     together (ddmin over cached probes); WalkToRoot descends from a tool
//     result to the model call that asked for it and to what that call was
//     sent, convicting each hop by ablation.
//
//   - Toolpack (and FlowToolpack for bare charts) returns tools a debugger
//     model calls to read a finished run within fixed caps.
//
// Records come from agent.Result.Record in process, from Open (a record JSON
// file, or a directory written by WriteDir: record.json plus
// blobs/<sha256>), or from a store.
//
// Slice gives the backward slice of any commit of any flow record by runtime
// stage id; control edges are part of the commit log, so a slice taken after
// a record was saved and reloaded equals the live one.
//
// Limits, stated once: a unit that was never defined cannot be found missing;
// a predicate that read a value captured in a closure left no trace in the
// record; the lexical scores are a proxy whose thresholds are uncalibrated,
// and only an ablation probe supports a causal claim. Reruns need the
// agent's construction inputs (a Blueprint), because tool functions and rule
// predicates are code the record cannot hold; the frozen clock is held at
// the recorded start because the agent's clock reads are not recorded one by
// one; recorded responses are not replayed as a prefix (PrefixReplay is not
// implemented: the request bytes are only known after the provider encodes
// them).
package explain
