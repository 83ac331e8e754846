/**
 * The schema of every owner this package writes: the controller's
 * transcript and decision log, the tools' memory, scratch and idempotence
 * records, and the work queue with its leases. Each owner's list is applied
 * by `migrateOwner`; `applyPostgresMigrations` applies them all.
 */
import { storedTask, type SessionRecord } from '@askloop/controller';
import type pg from 'pg';
import { PostgresStoreError } from '../errors/postgres-store-error.ts';
import { queryFailure } from '../sql/statement-runner.ts';
import { migrateOwner, type PostgresMigration } from './migrate-owner.ts';

/** The controller's tables: sessions, turns (one plain-JSON record each), the decision log, and session leases (with fencing tokens). */
export const CONTROLLER_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'sessions, turns and the decision log',
    // Records are JSON text, not jsonb: jsonb reorders keys, rewrites numbers and refuses \u0000, and a record must come back as it went in.
    sql: `
      CREATE TABLE askloop_sessions (
        sid text PRIMARY KEY,
        seq bigserial NOT NULL,
        agent text NOT NULL,
        parent_sid text,
        status text NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        turns integer NOT NULL,
        record text NOT NULL
      );
      CREATE INDEX askloop_sessions_newest ON askloop_sessions (created_at DESC, seq DESC);
      CREATE INDEX askloop_sessions_status ON askloop_sessions (status, created_at DESC, seq DESC);
      CREATE TABLE askloop_turns (
        sid text NOT NULL REFERENCES askloop_sessions (sid) ON DELETE CASCADE,
        turn_index integer NOT NULL,
        phase text NOT NULL,
        record text NOT NULL,
        saved_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (sid, turn_index)
      );
      CREATE TABLE askloop_decisions (
        sid text NOT NULL REFERENCES askloop_sessions (sid) ON DELETE CASCADE,
        turn_index integer NOT NULL,
        decision text NOT NULL,
        reason text,
        entry text NOT NULL,
        decided_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (sid, turn_index)
      );
    `,
  },
  {
    version: 2,
    name: 'session leases (single flight across hosts)',
    sql: `
      CREATE TABLE askloop_session_leases (
        sid text PRIMARY KEY,
        holder text NOT NULL,
        expires_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'session leases with fencing tokens; askloop_require_session_lease',
    // Every take draws a new token (existing rows get one each). A given-up lease keeps its row and token, so a holder
    // that was taken over never takes the lease back mid-step. A fenced write is one statement: it share-locks the
    // lease row while its token is the writer's (expired or not: nobody took it over) or fails with AL002.
    sql: `
      CREATE SEQUENCE askloop_session_lease_token;
      ALTER TABLE askloop_session_leases ADD COLUMN token bigint NOT NULL DEFAULT nextval('askloop_session_lease_token');
      CREATE FUNCTION askloop_require_session_lease(p_sid text, p_holder text, p_token bigint) RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM askloop_session_leases WHERE sid = p_sid AND holder = p_holder AND token = p_token FOR SHARE;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'session lease % of % on session % was taken over', p_token, p_holder, p_sid USING ERRCODE = 'AL002';
        END IF;
        RETURN true;
      END
      $$;
    `,
  },
  {
    version: 4,
    name: 'the task of each session, for searches',
    // What `listSessions({ search })` reads of a session (the controller's `storedTask`: USERDATA's subject, U+0000
    // and lone surrogates as U+FFFD), written with the row: read out of each record's JSON at search time it failed
    // on records PostgreSQL's json refuses (a lone surrogate escape, nesting past its stack) and cost a parse a row.
    // The rows already there are filled by the same code, in this migration's transaction; the table stays locked
    // meanwhile (3.3 s for 100,000 sessions of 2 KB: other hosts' queries wait).
    sql: `
      ALTER TABLE askloop_sessions ADD COLUMN task text NOT NULL DEFAULT '';
    `,
    fill: fillSessionTasks,
  },
];

/** The tools' tables: memory (CAS), scratch (TTL; an expired entry keeps its row and version) and idempotence records. */
export const TOOLS_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'memory, scratch and idempotence tables',
    sql: `
      CREATE TABLE askloop_memory (
        key text PRIMARY KEY,
        value text NOT NULL,
        version bigint NOT NULL,
        updated_at bigint NOT NULL
      );
      CREATE TABLE askloop_scratch (
        session text NOT NULL,
        key text NOT NULL,
        value text,
        version bigint NOT NULL,
        expires_at bigint NOT NULL,
        PRIMARY KEY (session, key)
      );
      CREATE INDEX askloop_scratch_expires ON askloop_scratch (expires_at) WHERE value IS NOT NULL;
      CREATE TABLE askloop_idempotence (
        session text NOT NULL,
        turn integer NOT NULL,
        call_index integer NOT NULL,
        tool text NOT NULL,
        arguments text NOT NULL,
        result text NOT NULL,
        recorded_at bigint NOT NULL,
        pending boolean NOT NULL,
        PRIMARY KEY (session, turn, call_index)
      );
    `,
  },
];

/** The work queue: one row per queued session, its lease, and an append-only log of committed steps. */
export const QUEUE_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'session queue, leases with fencing tokens, step log',
    sql: `
      CREATE SEQUENCE askloop_fence;
      CREATE TABLE askloop_queue (
        sid text PRIMARY KEY,
        state text NOT NULL CHECK (state IN ('ready', 'leased', 'paused', 'finished', 'failed')),
        ready_at timestamptz NOT NULL,
        enqueued_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        lease_owner text,
        lease_token bigint,
        leased_at timestamptz,
        lease_expires_at timestamptz,
        leases integer NOT NULL DEFAULT 0,
        steps integer NOT NULL DEFAULT 0,
        failures integer NOT NULL DEFAULT 0,
        last_error text
      );
      CREATE INDEX askloop_queue_runnable ON askloop_queue (ready_at) WHERE state IN ('ready', 'leased');
      CREATE TABLE askloop_steps (
        id bigserial PRIMARY KEY,
        sid text NOT NULL,
        turns integer NOT NULL,
        status text NOT NULL,
        fence bigint NOT NULL,
        host text NOT NULL,
        leased_at timestamptz NOT NULL,
        committed_at timestamptz NOT NULL
      );
      CREATE INDEX askloop_steps_sid ON askloop_steps (sid, id);
    `,
  },
  {
    version: 2,
    name: 'askloop_require_lease: the fence check inside a write statement',
    // A fenced write is then one statement (one round trip): it share-locks the live lease row or fails with AL001.
    sql: `
      CREATE FUNCTION askloop_require_lease(p_sid text, p_token bigint) RETURNS boolean LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM askloop_queue
          WHERE sid = p_sid AND lease_token = p_token AND state = 'leased' AND lease_expires_at > clock_timestamp()
          FOR SHARE;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'lease % on session % is lost', p_token, p_sid USING ERRCODE = 'AL001';
        END IF;
        RETURN true;
      END
      $$;
    `,
  },
  {
    version: 3,
    name: 'conflicts: steps PostgreSQL failed to break a deadlock, retried at once up to a bound',
    sql: `ALTER TABLE askloop_queue ADD COLUMN conflicts integer NOT NULL DEFAULT 0;`,
  },
];

/** The owner names in `askloop_schema_migrations`. */
export const POSTGRES_MIGRATION_OWNERS = { controller: CONTROLLER_MIGRATIONS, tools: TOOLS_MIGRATIONS, queue: QUEUE_MIGRATIONS } as const;

/**
 * Applies every owner's pending migrations; returns each owner's schema version. Refuses a database whose encoding
 * is not UTF8 first (`PG_ENCODING_UNSUPPORTED`), before anything is created: its tables would take the migrations,
 * then fail every session at its first save.
 */
export async function applyPostgresMigrations(pool: pg.Pool): Promise<Record<keyof typeof POSTGRES_MIGRATION_OWNERS, number>> {
  await requireUtf8(pool);
  return {
    controller: await migrateOwner(pool, 'controller', CONTROLLER_MIGRATIONS),
    tools: await migrateOwner(pool, 'tools', TOOLS_MIGRATIONS),
    queue: await migrateOwner(pool, 'queue', QUEUE_MIGRATIONS),
  };
}

/** Throws `PG_ENCODING_UNSUPPORTED` unless the database keeps its text as UTF-8. */
async function requireUtf8(pool: pg.Pool): Promise<void> {
  let encoding: string | undefined;
  try {
    encoding = (await pool.query<{ server_encoding: string }>('SHOW server_encoding')).rows[0]?.server_encoding;
  } catch (error) {
    throw queryFailure('migrations: reading the database encoding', error);
  }
  if (encoding !== 'UTF8') {
    throw new PostgresStoreError('PG_ENCODING_UNSUPPORTED', `the database's encoding is ${encoding ?? 'unknown'}, not UTF8: the AskLoop stores keep their text as UTF-8 (every session would fail at its first save); use a UTF8 database (createdb -E UTF8 -T template0 NAME)`);
  }
}

/** Rows read at a time while filling the task column: a store may hold many sessions with large records. */
const FILL_BATCH = 500;

/** Sets each session's `task` from its record, a batch of rows at a time, in the migration's transaction. */
async function fillSessionTasks(client: pg.PoolClient): Promise<void> {
  // By `seq`: a number, so no collation orders the pages and no id is skipped.
  let after = '0';
  for (;;) {
    const rows = (await client.query<{ seq: string; sid: string; record: string }>('SELECT seq, sid, record FROM askloop_sessions WHERE seq > $1 ORDER BY seq LIMIT $2', [after, FILL_BATCH])).rows;
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.seq;
    const filled = rows.map((row) => [row.sid, taskOfRecord(row.record)] as const).filter(([, task]) => task !== '');
    if (filled.length > 0) {
      await client.query('UPDATE askloop_sessions AS s SET task = v.task FROM unnest($1::text[], $2::text[]) AS v(sid, task) WHERE s.sid = v.sid', [filled.map(([sid]) => sid), filled.map(([, task]) => task)]);
    }
  }
}

/** The stored task of a session record's JSON text; '' when the text is not a record (a row edited by hand). */
function taskOfRecord(record: string): string {
  try {
    return storedTask((JSON.parse(record) as SessionRecord).userdata ?? null);
  } catch {
    return '';
  }
}
