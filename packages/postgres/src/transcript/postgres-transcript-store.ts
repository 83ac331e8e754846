/**
 * The controller's `TranscriptStore` on PostgreSQL: sessions, turns and the
 * decision log (one row per decided turn, written in the same statement
 * batch as the decided record). Records are stored as JSON text and come
 * back exactly as they went in. Failures throw `PostgresStoreError`
 * (`PG_QUERY_FAILED`, `PG_LEASE_LOST`), which the controller reports as
 * `LOOP_STORE_ERROR` with the cause; a duplicate session id and an unknown
 * session use the controller's own codes, as the memory store does, and so
 * does an argument no store can hold (`LOOP_ARGUMENT_INVALID`: a session id
 * with U+0000, a turn index past `integer`, a negative `listSessions` limit),
 * refused by the controller's shared checks before any query.
 *
 * Session leases (`acquireLease`) carry fencing tokens, as the SQLite
 * store's do: a write of a session made in a step under a lease this store
 * took checks, inside its one statement, that the lease's token is still
 * the session's (`askloop_require_session_lease`), so a host that stalled
 * past its lease while another host took the session over writes nothing
 * and fails with the controller's `LOOP_LEASE_LOST`; its renewal fails
 * instead of taking the lease back, even after the other host gave it up.
 * A worker's writes of its leased session check the session lease too: in
 * the statement when they commit one by one, and once at the step's commit
 * for those in its transaction (`CommitCheckedRunner`), so no row lock on
 * the lease is held through the step.
 */
import { createLeaseTokens, decisionLogEntry, leaseLostError, LoopError, MAX_TURN_INDEX, requireListOptions, requireSessionFilter, requireSessionId, requireTurnIndex, requireTurnRange, sessionExistsError, storedTask, type LeaseTokens, type ListSessionsOptions, type SessionFilter, type SessionRecord, type TranscriptStore, type TurnRecord } from '@askloop/controller';
import type pg from 'pg';
import { PostgresStoreError } from '../errors/postgres-store-error.ts';
import { poolRunner, queryFailure, sqlState, type StatementRunner } from '../sql/statement-runner.ts';
import { createPostgresToolStores } from '../tools/postgres-tool-stores.ts';
import { sessionCountQuery, sessionListQuery } from './postgres-session-list.ts';

/**
 * Which runner an operation uses. A plain store uses the pool for all; a
 * worker's lease-bound store sends the leased session's writes through its
 * fence and, once the turn's transaction is open, through that transaction.
 */
export interface TranscriptRoute {
  /** Reads of one session. */
  read(sid: string): Promise<StatementRunner>;
  /** Writes of one session; `final` marks the write that ends a step (a decided or paused turn). */
  write(sid: string, final: boolean): Promise<StatementRunner>;
  /** Statements over every session (listSessions, countSessions). */
  shared(): StatementRunner;
}

/**
 * A runner for the writes of a leased session before its step's
 * transaction: `fenced(sql, values)` runs one statement that itself checks
 * the lease (`askloop_require_lease($n, $n+1)` in its WHERE clause, the two
 * values appended), so the check and the write are one round trip.
 */
export interface FencedRunner extends StatementRunner {
  readonly fence: { readonly sid: string; readonly token: string; run<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: readonly unknown[]): Promise<pg.QueryResult<R>> };
}

const isFenced = (runner: StatementRunner): runner is FencedRunner => 'fence' in runner;

/**
 * A runner whose writes commit in a transaction that checks the session leases of its writes once, just before
 * it commits (a worker's step): its statements do not lock the lease row themselves, which would hold the lock, and
 * the renewals waiting on it, for the whole step.
 */
export interface CommitCheckedRunner extends StatementRunner {
  readonly checkedAtCommit: true;
}

const isCheckedAtCommit = (runner: StatementRunner): boolean => 'checkedAtCommit' in runner;

/** The route of a store that is not bound to a lease. */
export function poolRoute(pool: pg.Pool): TranscriptRoute {
  const runner = poolRunner(pool);
  return { read: async () => runner, write: async () => runner, shared: () => runner };
}

type SessionRow = { record: string };
type TurnRow = { record: string };

const parse = <T>(text: string): T => JSON.parse(text) as T;

function sessionColumns(session: SessionRecord): unknown[] {
  return [session.sid, session.agent, session.parentSid ?? null, session.status, session.createdAt, session.updatedAt, session.turns, JSON.stringify(session), storedTask(session.userdata)];
}

/** The session lease a write is checked against: its holder and the token this store took it with. */
interface HeldLease {
  readonly holder: string;
  readonly token: string;
}

/** The check a fenced write adds to its statement's WHERE clause, its three values appended with `at`. */
const sessionLeaseGuard = (sid: string, lease: HeldLease, at: (value: unknown) => string): string =>
  `askloop_require_session_lease(${at(sid)}, ${at(lease.holder)}, ${at(lease.token)}::bigint)`;

/** The guard of a write of `sid` under `lease` through `runner`: none when not fenced or checked at the commit. */
const sessionGuardFor = (runner: StatementRunner, sid: string, lease: HeldLease | undefined, at: (value: unknown) => string): string | undefined =>
  lease === undefined || isCheckedAtCommit(runner) ? undefined : sessionLeaseGuard(sid, lease, at);

/**
 * Inside a transaction about to commit: throws `LOOP_LEASE_LOST` unless `holder`'s session lease on `sid` still
 * has `token` (share-locking its row until the commit, so no takeover slips in between).
 */
export async function requireSessionLease(runner: StatementRunner, sid: string, holder: string, token: string): Promise<void> {
  try {
    await runner.query('SELECT askloop_require_session_lease($1, $2, $3::bigint)', [sid, holder, token]);
  } catch (error) {
    throw sessionLeaseLost(error, sid, holder) ?? error;
  }
}

/** The controller's `LOOP_LEASE_LOST` when `error` is a failed session-lease check (SQLSTATE AL002), else undefined. */
function sessionLeaseLost(error: unknown, sid: string, holder: string): LoopError | undefined {
  return sqlState(error) === 'AL002' ? leaseLostError(sid, holder, 'taken-over') : undefined;
}

/**
 * The store over `pool` (apply `applyPostgresMigrations(pool)` first). Its
 * `openToolStores` gives the tools' stores on the same database, which
 * `createAskLoop` uses by default. `close()` leaves the pool open: it
 * belongs to the caller.
 */
export function createPostgresTranscriptStore(pool: pg.Pool): TranscriptStore {
  return {
    ...transcriptStoreOn(poolRoute(pool)),
    openToolStores: (options = {}) => ({ ...createPostgresToolStores(pool, options), close() {} }),
  };
}

/**
 * The store over a {@link TranscriptRoute} (for lease-bound stores), keeping the tokens of the session leases it
 * takes in `leases` (bigint tokens as pg returns them: text; pass your own to read them, as a worker's commit does).
 */
export function transcriptStoreOn(route: TranscriptRoute, leases: LeaseTokens<string> = createLeaseTokens<string>()): TranscriptStore {
  /**
   * The lease a write of `sid` asked for now is checked against (undefined: not fenced). Refuses the write of code
   * that outlived a step this store fenced, once that step gave its lease up.
   */
  const fenceOf = (sid: string): HeldLease | undefined => {
    const fence = leases.fenceOf(sid);
    if (fence?.kind === 'ended') throw leaseLostError(sid, fence.holder, 'step-ended');
    return fence;
  };
  const fail = (action: string, sid?: string, lease?: HeldLease) => (error: unknown): never => {
    if (error instanceof LoopError) throw error;
    throw (lease !== undefined && sid !== undefined ? sessionLeaseLost(error, sid, lease.holder) : undefined) ?? queryFailure(`transcript ${action}`, error, sid);
  };
  /** A failure of a query over every session; a search on a database from before the task column says to migrate. */
  const failedOver = (action: 'listSessions' | 'countSessions', filter: SessionFilter) => (error: unknown): never => {
    // 42703: no such column — a database read without migrating, from before the task column.
    if (filter.search !== undefined && filter.search !== '' && sqlState(error) === '42703') {
      throw new PostgresStoreError('PG_SCHEMA_OLDER', `${action}: searching needs the controller's schema 4 (the task column); migrate the database first (applyPostgresMigrations, or any askloop run or worker on it)`, { cause: error });
    }
    return fail(action)(error);
  };
  return {
    async createSession(session) {
      requireSessionId(session.sid, 'createSession');
      const lease = fenceOf(session.sid);
      const runner = await route.write(session.sid, false).catch(fail('createSession', session.sid));
      const values = sessionColumns(session);
      const at = (value: unknown): string => `$${values.push(value)}`;
      const insert = 'INSERT INTO askloop_sessions (sid, agent, parent_sid, status, created_at, updated_at, turns, record, task)';
      const guard = sessionGuardFor(runner, session.sid, lease, at);
      const sql = guard === undefined ? `${insert} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)` : `${insert} SELECT $1, $2, $3, $4, $5, $6, $7::integer, $8, $9 WHERE ${guard}`;
      await runner.query(sql, values).catch((error: unknown) => {
        if (sqlState(error) === '23505') throw sessionExistsError(session.sid, error);
        return fail('createSession', session.sid, lease)(error);
      });
    },
    async getSession(sid) {
      requireSessionId(sid, 'getSession');
      const runner = await route.read(sid).catch(fail('getSession', sid));
      const result = await runner.query<SessionRow>('SELECT record FROM askloop_sessions WHERE sid = $1', [sid]).catch(fail('getSession', sid));
      const row = result.rows[0];
      return row === undefined ? undefined : parse<SessionRecord>(row.record);
    },
    async updateSession(session) {
      requireSessionId(session.sid, 'updateSession');
      const lease = fenceOf(session.sid);
      const runner = await route.write(session.sid, false).catch(fail('updateSession', session.sid));
      const values = sessionColumns(session);
      const at = (value: unknown): string => `$${values.push(value)}`;
      const guard = sessionGuardFor(runner, session.sid, lease, at);
      const result = await runner
        .query(`UPDATE askloop_sessions SET agent = $2, parent_sid = $3, status = $4, created_at = $5, updated_at = $6, turns = $7, record = $8, task = $9 WHERE sid = $1${guard === undefined ? '' : ` AND ${guard}`}`, values)
        .catch(fail('updateSession', session.sid, lease));
      if (result.rowCount === 0) throw new LoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${session.sid}`, sid: session.sid });
    },
    async listSessions(options: ListSessionsOptions = {}) {
      requireListOptions(options);
      const query = sessionListQuery(options);
      const result = await route.shared().query<SessionRow>(query.text, query.values).catch(failedOver('listSessions', options));
      return result.rows.map((row) => parse<SessionRecord>(row.record));
    },
    async countSessions(filter: SessionFilter = {}) {
      requireSessionFilter(filter);
      const query = sessionCountQuery(filter);
      const result = await route.shared().query<{ count: string }>(query.text, query.values).catch(failedOver('countSessions', filter));
      // count(*) is a bigint, which pg returns as text; a table of more than 2^53 rows is not a concern.
      return Number(result.rows[0]?.count ?? 0);
    },
    async saveTurn(record, session) {
      // Checked here, not left to the server: U+0000 or a turn index past `integer` would fail as PG_QUERY_FAILED where the other stores accepted them.
      requireSessionId(record.sid, 'saveTurn');
      requireTurnIndex(record.turnIndex, 'saveTurn');
      if (session !== undefined) requireSessionId(session.sid, 'saveTurn');
      const lease = fenceOf(record.sid);
      const final = record.phase === 'decided' || record.phase === 'awaiting-approval';
      const runner = await route.write(record.sid, final).catch(fail('saveTurn', record.sid));
      const decided = record.phase === 'decided' && record.decision !== undefined;
      const entry = decided ? decisionLogEntry(record) : undefined;
      const values: unknown[] = [record.sid, record.turnIndex, record.phase, JSON.stringify(record)];
      const at = (value: unknown): string => `$${values.push(value)}`;
      // A worker's leased session before its step's transaction, and a step under a session lease this store took:
      // the write checks each lease in the same statement.
      const guards = [isFenced(runner) ? `askloop_require_lease(${at(runner.fence.sid)}, ${at(runner.fence.token)}::bigint)` : undefined, sessionGuardFor(runner, record.sid, lease, at)].filter(
        (check) => check !== undefined,
      );
      const guard = guards.length === 0 ? 'true' : guards.join(' AND ');
      const upsertTurn = `INSERT INTO askloop_turns (sid, turn_index, phase, record) SELECT $1, $2::integer, $3, $4 WHERE ${guard}
        ON CONFLICT (sid, turn_index) DO UPDATE SET phase = excluded.phase, record = excluded.record, saved_at = clock_timestamp()`;
      const logDecision =
        entry !== undefined
          ? `INSERT INTO askloop_decisions (sid, turn_index, decision, reason, entry) SELECT $1, $2, ${at(entry.decision)}, ${at(entry.reason)}, ${at(JSON.stringify(entry))} FROM saved
             ON CONFLICT (sid, turn_index) DO UPDATE SET decision = excluded.decision, reason = excluded.reason, entry = excluded.entry, decided_at = clock_timestamp()`
          : // A turn opened again (a cancelled turn resumed) is no longer decided: its entry goes.
            'DELETE FROM askloop_decisions WHERE sid = $1 AND turn_index = $2 AND EXISTS (SELECT 1 FROM saved)';
      // With `session`: the session row too, in the same statement (atomic by itself), so it never lags the turn it counts.
      const updateSession =
        session === undefined
          ? ''
          : `, updated AS (UPDATE askloop_sessions SET agent = ${at(session.agent)}, parent_sid = ${at(session.parentSid ?? null)}, status = ${at(session.status)}, created_at = ${at(session.createdAt)},
               updated_at = ${at(session.updatedAt)}, turns = ${at(session.turns)}, record = ${at(JSON.stringify(session))}, task = ${at(storedTask(session.userdata))} WHERE sid = ${at(session.sid)} AND EXISTS (SELECT 1 FROM saved) RETURNING 1)`;
      const sql = `WITH saved AS (${upsertTurn} RETURNING 1), logged AS (${logDecision})${updateSession}
        SELECT ${session === undefined ? '1' : '(SELECT count(*) FROM updated)::integer'} AS updated`;
      const write = isFenced(runner) ? runner.fence.run<{ updated: number }>(sql, values) : runner.query<{ updated: number }>(sql, values);
      const result = await write.catch((error: unknown) => {
        if (sqlState(error) === '23503') throw new LoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${record.sid}`, sid: record.sid, cause: error });
        return fail('saveTurn', record.sid, lease)(error);
      });
      if (session !== undefined && result.rows[0]?.updated === 0) throw new LoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${session.sid}`, sid: session.sid });
    },
    async listTurns(sid) {
      requireSessionId(sid, 'listTurns');
      const runner = await route.read(sid).catch(fail('listTurns', sid));
      const result = await runner.query<TurnRow>('SELECT record FROM askloop_turns WHERE sid = $1 ORDER BY turn_index', [sid]).catch(fail('listTurns', sid));
      return result.rows.map((row) => parse<TurnRecord>(row.record));
    },
    async listTurnRange(sid, range) {
      requireSessionId(sid, 'listTurnRange');
      requireTurnRange(range);
      const runner = await route.read(sid).catch(fail('listTurnRange', sid));
      // The latest `last` of the range by the primary key, then put back in order (LIMIT NULL: no limit).
      const result = await runner
        .query<TurnRow>('SELECT record FROM (SELECT turn_index, record FROM askloop_turns WHERE sid = $1 AND turn_index BETWEEN $2 AND $3 ORDER BY turn_index DESC LIMIT $4) AS latest ORDER BY turn_index', [
          sid,
          range.from ?? 1,
          range.to ?? MAX_TURN_INDEX,
          range.last ?? null,
        ])
        .catch(fail('listTurnRange', sid));
      return result.rows.map((row) => parse<TurnRecord>(row.record));
    },
    async lastTurn(sid) {
      requireSessionId(sid, 'lastTurn');
      const runner = await route.read(sid).catch(fail('lastTurn', sid));
      const result = await runner.query<TurnRow>('SELECT record FROM askloop_turns WHERE sid = $1 ORDER BY turn_index DESC LIMIT 1', [sid]).catch(fail('lastTurn', sid));
      const row = result.rows[0];
      return row === undefined ? undefined : parse<TurnRecord>(row.record);
    },
    async acquireLease(sid, holder, ttlMs) {
      requireSessionId(sid, 'acquireLease');
      const mine = leases.get(sid, holder);
      if (mine !== undefined) {
        // A renewal extends only the lease this store took: once another host took it over, it fails from then on.
        const renewed = await route
          .shared()
          .query('UPDATE askloop_session_leases SET expires_at = clock_timestamp() + make_interval(secs => $4::double precision / 1000) WHERE sid = $1 AND holder = $2 AND token = $3 RETURNING 1', [
            sid,
            holder,
            mine,
            ttlMs,
          ])
          .catch(fail('acquireLease', sid));
        return renewed.rows.length === 1;
      }
      // One statement, so atomic: insert, or take over a lease that is this holder's or has lapsed (by the server's
      // clock), with a new token either way.
      const taken = await route
        .shared()
        .query<{ token: string }>(
          `INSERT INTO askloop_session_leases (sid, holder, expires_at) VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3::double precision / 1000))
           ON CONFLICT (sid) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at, token = excluded.token
           WHERE askloop_session_leases.holder = excluded.holder OR askloop_session_leases.expires_at <= clock_timestamp()
           RETURNING token`,
          [sid, holder, ttlMs],
        )
        .catch(fail('acquireLease', sid));
      const token = taken.rows[0]?.token;
      if (token === undefined) return false;
      leases.set(sid, holder, String(token));
      return true;
    },
    async releaseLease(sid, holder) {
      requireSessionId(sid, 'releaseLease');
      // Expired, not deleted: the row keeps its token, so the holder it was taken from cannot renew it back.
      const mine = leases.get(sid, holder);
      leases.delete(sid, holder);
      if (mine === undefined) return;
      await route
        .shared()
        .query('UPDATE askloop_session_leases SET expires_at = clock_timestamp() WHERE sid = $1 AND holder = $2 AND token = $3', [sid, holder, mine])
        .catch(fail('releaseLease', sid));
    },
    async close() {},
  };
}
