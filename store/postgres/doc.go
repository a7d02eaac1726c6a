// Package postgres is the store.Store for runs shared by several processes or hosts: the
// same schema as the embedded store, in PostgreSQL through github.com/jackc/pgx/v5, created
// on first use.
package postgres
