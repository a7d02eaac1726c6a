// Package audit exports a run as a hash-chained list of records that anyone can verify
// offline, and verifies such exports.
//
// Every event dispatched during a run becomes one record {seq, timestamp, eventType,
// payload, meta, prevHash, hash}; each run first gets an "audit.genesis" record. hash is the
// lowercase hex SHA-256 of the RFC 8785 canonical JSON (package internal/jcs) of the record
// without its hash member, and prevHash links each record to the one before (the first
// record of a later segment to the previous segment's finalHash), so an edited,
// dropped, inserted or reordered record breaks the chain at that record. Records are cut
// into segments {header, records, finalHash} that chain through header.chainHead; a segment
// may carry an Ed25519 signature over its header and final hash, which stops a holder of
// the file from recomputing a consistent suffix.
package audit
