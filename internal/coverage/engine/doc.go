// Package engine implements package coverage: the rule sets every door and every reader asks, the
// mint of each envelope, the reading of a tool result that never repairs a foreign declaration, the
// served form, and the canonical-notes builder. Its types mirror the declaration types of package
// coverage, which converts to them at the doors; coverage/boundary converts what a reading finds
// back. Nothing outside coverage imports it.
package engine
