/**
 * `@askloop/postgres/testing`: a real, throwaway PostgreSQL server for tests
 * (initdb in a temporary directory, a free loopback port, trust auth,
 * stopped and deleted afterwards) — what this package's tests and the CLI's
 * run against. Needs the PostgreSQL server binaries (Debian: `postgresql`).
 */
export { findPostgresBin, startPostgresServer, type PostgresServer } from './postgres-server.ts';
