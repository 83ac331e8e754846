/**
 * Schema of the SQLite transcript store, as ordered migrations of the owner
 * {@link TRANSCRIPT_MIGRATION_OWNER} in the file's `schema_migrations`
 * (`@askloop/tools`' `applyMigrations`), so the transcript and the tools'
 * memory, scratch and idempotence tables can share one file. Append new
 * migrations; never edit an applied one.
 *
 * The plain records are JSON text columns; the fields the store filters or
 * orders on (status, creation time, phase) are columns of their own. Table
 * names carry the owner's prefix because other owners' tables live beside them.
 */
import type { SqliteMigration } from '@askloop/tools';
import { storedTaskOfText } from './list-options.ts';

/** The owner name of the controller's migrations in `schema_migrations`. */
export const TRANSCRIPT_MIGRATION_OWNER = 'controller';

/** Every migration, in order. */
export const TRANSCRIPT_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: 'sessions and turns',
    // `seq` orders sessions created in the same millisecond (newest first, as inserted).
    sql: `
      CREATE TABLE controller_sessions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        sid TEXT NOT NULL UNIQUE,
        agent TEXT NOT NULL,
        agent_definition TEXT NOT NULL,
        userdata TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        turns INTEGER NOT NULL,
        last_decision TEXT,
        parent_sid TEXT
      );
      CREATE INDEX controller_sessions_created ON controller_sessions (created_at, seq);
      CREATE INDEX controller_sessions_status_created ON controller_sessions (status, created_at, seq);
      CREATE TABLE controller_turns (
        sid TEXT NOT NULL REFERENCES controller_sessions (sid),
        turn_index INTEGER NOT NULL,
        loop_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        phase TEXT NOT NULL,
        started_at TEXT NOT NULL,
        ended_at TEXT,
        decision TEXT,
        record TEXT NOT NULL,
        PRIMARY KEY (sid, turn_index)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'session leases',
    // Who runs a turn of a session now, until when (ms since the epoch): several hosts on one file take turns.
    sql: `
      CREATE TABLE controller_leases (
        sid TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    name: 'session tally, shared system texts',
    // What a step needs from the decided turns (JSON), so it reads no earlier record; NULL on older sessions (rebuilt
    // from their turns). The agents' shared system texts, once each by content hash: a turn record refers to its own.
    sql: `
      ALTER TABLE controller_sessions ADD COLUMN tally TEXT;
      CREATE TABLE controller_texts (
        hash TEXT PRIMARY KEY,
        text TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: 'turns in a rowid table',
    // A turn record is a few KB of JSON. In a WITHOUT ROWID table (an index b-tree) a row keeps only about 1 KB on its
    // page and the rest in overflow pages, each written again by every save of the turn; a rowid table keeps up to
    // about 4 KB in place. Measured on 1,000 sessions × 3 turns: 6.2 instead of 7.2 pages written per save.
    // No REFERENCES clause: node:sqlite enforces foreign keys, so copying a turn whose session row was deleted by hand
    // (with a tool that does not) would fail the migration and leave the file unopenable for writing. The store checks
    // that the session exists before every save, as it did before.
    sql: `
      CREATE TABLE controller_turns_rowid (
        sid TEXT NOT NULL,
        turn_index INTEGER NOT NULL,
        loop_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        phase TEXT NOT NULL,
        started_at TEXT NOT NULL,
        ended_at TEXT,
        decision TEXT,
        record TEXT NOT NULL,
        PRIMARY KEY (sid, turn_index)
      );
      INSERT INTO controller_turns_rowid (sid, turn_index, loop_id, kind, phase, started_at, ended_at, decision, record)
        SELECT sid, turn_index, loop_id, kind, phase, started_at, ended_at, decision, record FROM controller_turns ORDER BY sid, turn_index;
      DROP TABLE controller_turns;
      ALTER TABLE controller_turns_rowid RENAME TO controller_turns;
    `,
  },
  {
    version: 5,
    name: 'lease fencing tokens',
    // A lease's token goes up each time a holder takes the lease (not when it renews it), and a released lease keeps
    // its row (expired) so the token never goes back: a write made under a lease checks that the token is still the
    // one its holder took, so a host that stalled past its lease cannot write over the host that took over.
    sql: `
      ALTER TABLE controller_leases ADD COLUMN token INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 6,
    name: 'the task of each session, for searches',
    // What `listSessions({ search })` reads of a session's USERDATA (`storedTask`: its subject, U+0000 and lone
    // surrogates as U+FFFD), written with the row: reading it out of the USERDATA JSON at search time cost more the
    // more USERDATA held, and failed on USERDATA nested past SQLite's JSON depth limit. The rows already there are
    // filled by the same code, in this migration's transaction (which holds the file's write lock meanwhile: about
    // 10 s for 100,000 sessions of 10 KB); a row whose USERDATA is not JSON keeps ''.
    sql: `
      ALTER TABLE controller_sessions ADD COLUMN task TEXT NOT NULL DEFAULT '';
    `,
    fill(database) {
      // A batch of rows at a time: USERDATA may be large, and all of it at once could outgrow the heap.
      const batch = database.prepare('SELECT seq, userdata FROM controller_sessions WHERE seq > ? ORDER BY seq LIMIT 500');
      const update = database.prepare('UPDATE controller_sessions SET task = ? WHERE seq = ?');
      for (let after = 0; ; ) {
        const rows = batch.all(after) as { seq: number; userdata: string }[];
        if (rows.length === 0) return;
        after = rows[rows.length - 1]!.seq;
        for (const row of rows) {
          const task = storedTaskOfText(row.userdata);
          if (task !== '') update.run(task, row.seq);
        }
      }
    },
  },
];

/** The transcript schema version this package writes. */
export const TRANSCRIPT_SCHEMA_VERSION = TRANSCRIPT_MIGRATIONS.length;
