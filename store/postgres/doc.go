// Package postgres is the store.Store for runs shared by several processes or hosts: the
// same schema as the embedded store, in PostgreSQL through github.com/jackc/pgx/v5, created
// on first use.
//
// Since store schema 2 a run's record, events and blobs are kept as chunks shared between
// runs and compressed, so the turns of a conversation keep what they repeat once; reads
// return the exact bytes that were written. Opening a schema 1 store upgrades it in place:
// the rows already there read as they are, and an older library then refuses the schema.
package postgres
