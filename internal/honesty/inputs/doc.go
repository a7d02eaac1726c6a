// Package inputs (internal/honesty/inputs) is the inputs layer (honesty layer 2): who chose
// each ruled argument of a tool call. What the person sees and sends (PauseData, Field, Reply)
// and the open question a paused turn keeps (Ask, Binding) are the public package
// honesty/inputs, imported here under its own name; importers that also use the public
// package name this one inputslayer. The package keeps the name inputs because the record
// names its types (inputs.KeptAnswer), and the move must not change a record byte.
//
// A tool declares per-argument rules with tool.WithAskOrAssume. When the model
// leaves a ruled argument missing, an assume rule fills the tool's declared
// default, and an ask rule puts one typed question to the person for the
// whole batch. Every ruled argument of a call that will run gets an argument
// row on the findings ledger saying where its value came from: the tool's
// default ("default"), the person's answer ("answered") or the model
// ("model").
//
// The package is pure: Resolve turns a batch into rows and per-call
// resolutions (ResolveWith also binds a missing period argument to the
// person's app window, source "app", and fills from answers kept after a
// refused second pause), NewAsk builds the question (look-back period
// arguments of several tools share a field), Pause is what the person is shown of it, and
// Answer re-checks a reply
// against the argument's schema (three misfits refuse the field).
// ServedSchema is what the model is shown of a ruled tool's schema. The agent mounts it
// as the sf-inputs subflow and applies the fills; Clause writes the
// past-tense note that follows a filled call's result, and AssumedBlock the
// block under an answer's limits.
//
// Values are printed for rows as text (a string as itself, any other scalar
// as JSON), at most 80 UTF-16 units; a hidden argument prints as REDACTED,
// and findings.argument events never carry a value.
package inputs
