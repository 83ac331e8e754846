/**
 * `PostgresStoreError`: the one error class of `@askloop/postgres`, with a
 * stable `PG_…` code. The transcript store's failures reach the controller's
 * callers as `LOOP_STORE_ERROR` with this error as the cause, the tools'
 * stores' as `STORE_FAILED`; the worker reads the code through the cause chain.
 */

import { isLoopError } from '@askloop/controller';

/** Every `PG_…` code with what it means and how to fix it (the README's table). */
export const POSTGRES_ERROR_CODES = {
  PG_ENCODING_UNSUPPORTED:
    "The database's encoding is not UTF8 (LATIN1, SQL_ASCII…): the stores keep text as UTF-8 — the controller's own envelopes hold characters such as …, so every session would fail at its first save. Use a UTF8 database: createdb -E UTF8 -T template0 NAME (initdb's default on most systems).",
  PG_LEASE_LOST:
    "The worker's lease on the session expired or another host took it, so this host may not commit the turn; nothing of the turn after its last committed phase was kept. Another host continues the session. Raise leaseMs when turns outlast it (the lease is renewed every leaseMs/3).",
  PG_MIGRATION_INVALID: 'A migration list is malformed (versions must count up from 1, owner non-empty). Fix the list; never edit an applied migration.',
  PG_QUERY_FAILED: 'A statement failed (connection refused, permissions, a constraint); the PostgreSQL error is the cause. Check the URL, the server and its log. A migration the server refused for the role\'s search_path (no schema to create in) or rights says how to get past it (the schema to name, the rights to grant), and so does a connection it refused (a database it does not have, a wrong password, no pg_hba.conf line).',
  PG_SCHEMA_NEWER: 'The database holds a later migration of an owner than this package knows: a newer @askloop/postgres wrote it. Upgrade the package or use another database.',
  PG_SCHEMA_OLDER:
    "A search of the sessions needs the controller's schema 4 (each session's task in a column), and this database has not been migrated to it: a reader (askloop sessions, show) does not migrate. Run applyPostgresMigrations (any askloop run or worker on the database does), or list without the search.",
  PG_SESSION_ENDED:
    'enqueueSession was given a session that has ended: DONE, or halted for a reason resuming does not run again (a Ctrl-C or a failed model call would be run again, and such a session can be queued). A worker would have nothing to run. Start a new session for the task.',
  PG_SESSION_NOT_FOUND: 'enqueueSession was given a session id the transcript does not hold. Create the session first (loop.create).',
  PG_URL_INVALID: 'A postgres:// or postgresql:// connection string does not parse as a URL (a bad port, a character a URL cannot hold; the askloop command checks its store URL so before connecting). Write it as postgres://user:password@host:5432/database, with special characters in the password percent-encoded.',
} as const;

/** A stable `PG_…` code. */
export type PostgresErrorCode = keyof typeof POSTGRES_ERROR_CODES;

const MARKER = Symbol.for('askloop.postgres.error');

/** A failure of the PostgreSQL stores, queue or worker. */
export class PostgresStoreError extends Error {
  readonly code: PostgresErrorCode;
  /** The session involved, when there is one. */
  readonly sid: string | undefined;
  readonly [MARKER] = true;

  constructor(code: PostgresErrorCode, message: string, options: { readonly sid?: string; readonly cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PostgresStoreError';
    this.code = code;
    this.sid = options.sid;
  }

  /** Plain data for logs and `--json` (no cause, no stack). */
  toJSON(): { code: PostgresErrorCode; message: string; sid?: string } {
    return { code: this.code, message: this.message, ...(this.sid === undefined ? {} : { sid: this.sid }) };
  }
}

/** True for a {@link PostgresStoreError} (also from another copy of the package). */
export function isPostgresStoreError(value: unknown): value is PostgresStoreError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

/** The first value in `error`'s cause chain (`error` itself, its `cause`, and so on) that `match` accepts. */
function inCauseChain<T>(error: unknown, match: (value: unknown) => value is T): T | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current !== undefined && current !== null && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    if (match(current)) return current;
  }
  return undefined;
}

/** The first {@link PostgresStoreError} with `code` in `error`'s cause chain (the controller and tools wrap store errors). */
export function findPostgresError(error: unknown, code?: PostgresErrorCode): PostgresStoreError | undefined {
  return inCauseChain(error, (value): value is PostgresStoreError => isPostgresStoreError(value) && (code === undefined || value.code === code));
}

/**
 * True when `error` (or a cause of it) says a lease was lost: the queue's (`PG_LEASE_LOST`), or the controller's own
 * session lease, which it takes around each step through the transcript store (`LOOP_LEASE_LOST`): either way
 * another host owns the session now, and the step is not this host's failure.
 */
export function isLeaseLost(error: unknown): boolean {
  const lost = (value: unknown): value is Error =>
    (isPostgresStoreError(value) && value.code === 'PG_LEASE_LOST') || (isLoopError(value) && value.code === 'LOOP_LEASE_LOST');
  return inCauseChain(error, lost) !== undefined;
}

/** SQLSTATEs of a transaction PostgreSQL failed to break a conflict: `deadlock_detected`, `serialization_failure`. */
const CONFLICT_STATES = new Set(['40P01', '40001']);

/**
 * True when `error` (or a cause of it) is PostgreSQL failing this transaction to break a conflict with another one —
 * a deadlock (two steps writing the same rows in other orders, or a stalled host's step against the host that took
 * its session over) or a serialization failure. The transaction keeps nothing; run again, it succeeds once the other
 * has finished, so the worker offers the session again at once instead of counting a failure.
 */
export function isTransactionConflict(error: unknown): boolean {
  return inCauseChain(error, isConflictFromServer) !== undefined;
}

/**
 * True when `error` (or a cause of it) is PostgreSQL refusing a statement for the role's rights
 * (`insufficient_privilege`, 42501): unlike a server that is away, waiting does not mend it.
 */
export function isPermissionDenied(error: unknown): boolean {
  const denied = (value: unknown): value is Error => typeof value === 'object' && value !== null && 'severity' in value && (value as { code?: unknown }).code === '42501';
  return inCauseChain(error, denied) !== undefined;
}

/** True when `error` itself is the server's error failing a transaction to break a conflict (see {@link isTransactionConflict}). */
export function isConflictFromServer(error: unknown): error is Error {
  // pg's DatabaseError: the SQLSTATE in `code`, beside a `severity`; a code alone may be anyone's.
  return typeof error === 'object' && error !== null && 'severity' in error && CONFLICT_STATES.has(String((error as { code?: unknown }).code));
}
