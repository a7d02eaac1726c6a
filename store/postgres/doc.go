// Package postgres is the store.Store for runs shared by several processes or hosts: the
// same schema as the embedded store, in PostgreSQL through github.com/jackc/pgx/v5, created
// on first use.
//
// A run that follows another in its conversation is kept as what changed since that run
// (store schema 3; a run is written whole again after 32 such steps), the first run of a
// conversation as chunks shared between runs and compressed (schema 2), so the turns of a
// conversation keep what they repeat once; reads return the exact bytes that were written.
// A run written again keeps its earlier version for the runs after it. Opening a schema 1 or
// 2 schema upgrades it in place: the rows already there read as they are, and an older
// library then refuses the schema.
package postgres
