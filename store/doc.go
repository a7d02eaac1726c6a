// Package store keeps agent runs and conversation checkpoints so they can be listed, shown,
// explained and exported after the process that produced them has exited.
//
// Saving a turn from Go is one call: [SaveResult] takes what agent.Run returned and stores
// it; [LoadRecord] reads the record back by run id. The Store interface is implemented by
// store/sqlite (one embedded file, the default) and store/postgres (for several processes or
// hosts sharing runs); both pass the one conformance suite in store/storetest.
//
// For a backend a run is a JSON document plus the metadata needed to find it: the record
// itself (the flow commit log and the subflow logs), the events dispatched while it ran, and
// the request/response bodies it references, kept once per SHA-256 digest.
package store
