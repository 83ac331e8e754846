import { runUnderLease } from '@askloop/controller';
import { sampleSession, sampleTurn } from '@askloop/controller/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.ts';
import { createSessionQueue, enqueueSession } from '../queue/session-queue.ts';
import { createPostgresTranscriptStore } from '../transcript/postgres-transcript-store.ts';
import { createLeaseBoundStores } from '../worker/lease-bound-stores.ts';
import { migrateOwner } from './migrate-owner.ts';
import { applyPostgresMigrations, CONTROLLER_MIGRATIONS, QUEUE_MIGRATIONS, TOOLS_MIGRATIONS } from './postgres-migrations.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe('applyPostgresMigrations', () => {
  it('migrates every owner once, records each migration, and is a no-op the second time', async () => {
    const pool = database.pool();
    const expected = { controller: CONTROLLER_MIGRATIONS.length, tools: TOOLS_MIGRATIONS.length, queue: QUEUE_MIGRATIONS.length };
    expect(await applyPostgresMigrations(pool)).toEqual(expected);
    expect(await applyPostgresMigrations(pool)).toEqual(expected);
    const rows = (await pool.query('SELECT owner, version FROM askloop_schema_migrations ORDER BY owner, version')).rows;
    expect(rows).toEqual([
      ...CONTROLLER_MIGRATIONS.map((migration) => ({ owner: 'controller', version: migration.version })),
      ...QUEUE_MIGRATIONS.map((migration) => ({ owner: 'queue', version: migration.version })),
      ...TOOLS_MIGRATIONS.map((migration) => ({ owner: 'tools', version: migration.version })),
    ]);
  });

  it('lets a role that may use the tables but not create any start on a migrated database (no DDL when every owner is current)', async () => {
    const owner = database.pool();
    await owner.query('CREATE SCHEMA least');
    const ownerInSchema = database.pool({ options: '-c search_path=least' });
    await applyPostgresMigrations(ownerInSchema);
    const role = `user_${Date.now()}`;
    await owner.query(`CREATE ROLE ${role} LOGIN`);
    await owner.query(`GRANT USAGE ON SCHEMA least TO ${role}`);
    await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA least TO ${role}`);
    await owner.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA least TO ${role}`);
    // Exactly the functions the README lists, with PUBLIC's default right taken away as a hardened site does: the list
    // lacked askloop_require_session_lease, which every write under a session lease calls.
    await owner.query('REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA least FROM PUBLIC');
    await owner.query(`GRANT EXECUTE ON FUNCTION least.askloop_require_lease(text, bigint), least.askloop_require_session_lease(text, text, bigint) TO ${role}`);
    const url = new URL(database.url);
    url.username = role;
    url.password = '';
    const weak = database.pool({ connectionString: url.toString(), options: '-c search_path=least' });
    // The role really cannot create: the old `CREATE TABLE IF NOT EXISTS` failed here with "permission denied for schema".
    await expect(weak.query('CREATE TABLE least.probe (n int)')).rejects.toThrow(/permission denied for schema least/);
    expect(await applyPostgresMigrations(weak)).toEqual({ controller: CONTROLLER_MIGRATIONS.length, tools: TOOLS_MIGRATIONS.length, queue: QUEUE_MIGRATIONS.length });
    const store = createPostgresTranscriptStore(weak);
    await store.createSession(sampleSession('least-1'));
    expect(await store.getSession('least-1')).toMatchObject({ sid: 'least-1' });
    // A host's fenced writes: a turn saved under its session lease (askloop_require_session_lease) and a worker's
    // phase save under a queue lease (askloop_require_lease).
    expect(await store.acquireLease?.('least-1', 'host', 60_000)).toBe(true);
    await runUnderLease('least-1', 'host', () => store.saveTurn(sampleTurn('least-1', 1, { phase: 'asking' })));
    await enqueueSession(weak, 'least-1');
    const lease = await createSessionQueue(weak).acquire('worker');
    const stores = createLeaseBoundStores(weak);
    const binding = stores.bind(lease!);
    await stores.transcript.saveTurn(sampleTurn('least-1', 2, { phase: 'asking' }));
    await binding.commit({ status: 'RUNNING', turns: 1 });
    expect((await store.listTurns('least-1')).map((turn) => turn.turnIndex)).toEqual([1, 2]);
  });

  it('says how to get past a database the server does not have (PG_QUERY_FAILED with the fix)', async () => {
    const url = new URL(database.url);
    url.pathname = '/askloop_no_such_database';
    const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
    pool.on('error', () => undefined);
    try {
      await expect(applyPostgresMigrations(pool)).rejects.toMatchObject({
        code: 'PG_QUERY_FAILED',
        message: expect.stringMatching(/database "askloop_no_such_database" does not exist; create it first \(createdb NAME, or CREATE DATABASE NAME as a role that may\), or name an existing database in the URL$/),
      });
    } finally {
      await pool.end();
    }
  });

  it('refuses a database whose encoding is not UTF8 before creating anything (PG_ENCODING_UNSUPPORTED)', async () => {
    const latin1 = await createTestDatabase({ encoding: 'LATIN1' });
    try {
      const pool = latin1.pool();
      await expect(applyPostgresMigrations(pool)).rejects.toMatchObject({ code: 'PG_ENCODING_UNSUPPORTED', message: expect.stringContaining("the database's encoding is LATIN1, not UTF8") });
      const tables = await pool.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name LIKE 'askloop_%'");
      expect(tables.rows[0]).toEqual({ n: 0 });
    } finally {
      await latin1.drop();
    }
  });

  it('lets several hosts migrate one database at once: the advisory lock applies each migration exactly once', async () => {
    const fresh = await createTestDatabase();
    try {
      const pools = [fresh.pool(), fresh.pool(), fresh.pool(), fresh.pool()];
      const results = await Promise.all(pools.map((pool) => applyPostgresMigrations(pool)));
      expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
      const count = (await pools[0]!.query('SELECT count(*)::int AS n FROM askloop_schema_migrations')).rows[0];
      expect(count).toEqual({ n: CONTROLLER_MIGRATIONS.length + TOOLS_MIGRATIONS.length + QUEUE_MIGRATIONS.length });
    } finally {
      await fresh.drop();
    }
  });
});

describe('controller schema version 3 (fenced session leases)', () => {
  it('gives each lease row of an older database a token of its own, and later takes draw higher ones', async () => {
    const pools = await database.schema();
    const pool = pools({ max: 1 });
    await migrateOwner(pool, 'controller', CONTROLLER_MIGRATIONS.slice(0, 2));
    await pool.query("INSERT INTO askloop_session_leases (sid, holder, expires_at) VALUES ('a', 'host-1', clock_timestamp()), ('b', 'host-2', clock_timestamp())");
    await applyPostgresMigrations(pool);
    const before = (await pool.query<{ token: string }>('SELECT token FROM askloop_session_leases ORDER BY sid')).rows.map((row) => BigInt(row.token));
    expect(new Set(before).size).toBe(2);
    const taken = (await pool.query<{ token: string }>("INSERT INTO askloop_session_leases (sid, holder, expires_at) VALUES ('c', 'host-1', clock_timestamp()) RETURNING token")).rows[0];
    expect(BigInt(taken!.token) > (before[0]! > before[1]! ? before[0]! : before[1]!)).toBe(true);
  });
});

describe('controller schema version 4 (the task of each session)', () => {
  it('fills each session\'s task from its record, in batches, whatever the record holds; a search then reads the column', async () => {
    const pools = await database.schema();
    const pool = pools({ max: 1 });
    await migrateOwner(pool, 'controller', CONTROLLER_MIGRATIONS.slice(0, 3));
    let deep: { [key: string]: unknown } = { end: true };
    for (let level = 0; level < 1100; level += 1) deep = { next: deep };
    const records: [sid: string, record: string][] = [
      ['plain', JSON.stringify(sampleSession('plain', { userdata: { subject: 'Write the Report' } }))],
      ['lone', JSON.stringify(sampleSession('lone', { userdata: { subject: 'broken \ud800 pair' }, lastDecision: { kind: 'HALT', reason: 'ERR_NO_PROGRESS', message: 'x \udc00' } }))],
      ['nul', JSON.stringify(sampleSession('nul', { userdata: { subject: 'before \u0000 after' } }))],
      ['deep', JSON.stringify(sampleSession('deep', { userdata: { subject: 'deep one', fields: { deep } } as never }))],
      ['none', JSON.stringify(sampleSession('none', { userdata: { fields: {} } }))],
      // Edited by hand: not JSON. The migration must not fail on it.
      ['edited', '{"sid": "edited", "userdata": {"subject": "bro'],
      // More rows than one batch reads.
      ...Array.from({ length: 1200 }, (_, index) => [`bulk-${String(index).padStart(4, '0')}`, JSON.stringify(sampleSession(`bulk-${index}`, { userdata: { subject: `bulk task ${index}` } }))] as [string, string]),
    ];
    for (const [sid, record] of records) {
      await pool.query("INSERT INTO askloop_sessions (sid, agent, status, created_at, updated_at, turns, record) VALUES ($1, 'worker', 'done', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 0, $2)", [sid, record]);
    }
    // A reader does not migrate: before the task column it lists, and says what a search needs.
    const reader = createPostgresTranscriptStore(pool);
    expect(await reader.listSessions({ limit: 2, sidPrefix: 'plain' })).toHaveLength(1);
    await expect(reader.listSessions({ search: 'report' })).rejects.toMatchObject({ code: 'PG_SCHEMA_OLDER', message: expect.stringContaining('migrate the database first') });
    await applyPostgresMigrations(pool);
    expect((await reader.listSessions({ search: 'REPORT' })).map((session) => session.sid)).toEqual(['plain']);
    const tasks = new Map((await pool.query<{ sid: string; task: string }>('SELECT sid, task FROM askloop_sessions')).rows.map((row) => [row.sid, row.task]));
    expect(Object.fromEntries(['plain', 'lone', 'nul', 'deep', 'none', 'edited', 'bulk-1199'].map((sid) => [sid, tasks.get(sid)]))).toEqual({
      plain: 'Write the Report',
      lone: 'broken \uFFFD pair',
      nul: 'before \uFFFD after',
      deep: 'deep one',
      none: '',
      edited: '',
      'bulk-1199': 'bulk task 1199',
    });
    expect([...tasks.values()].filter((task) => task.startsWith('bulk task'))).toHaveLength(1200);
  });
});

describe('migrateOwner', () => {
  it('versions owners apart, refuses a database newer than the list, and validates the list', async () => {
    const pool = database.pool();
    const mine = [
      { version: 1, name: 'one', sql: 'CREATE TABLE other_one (x integer)' },
      { version: 2, name: 'two', sql: 'ALTER TABLE other_one ADD COLUMN y integer' },
    ];
    expect(await migrateOwner(pool, 'other', mine.slice(0, 1))).toBe(1);
    expect(await migrateOwner(pool, 'other', mine)).toBe(2);
    await expect(migrateOwner(pool, 'other', mine.slice(0, 1))).rejects.toMatchObject({
      code: 'PG_SCHEMA_NEWER',
      message: "database schema version 2 of 'other' is newer than the 1 this package knows: a newer @askloop/postgres (a newer askloop) migrated it; upgrade this host's, or use another database",
    });
    await expect(migrateOwner(pool, 'other', [{ version: 2, name: 'x', sql: '' }])).rejects.toMatchObject({ code: 'PG_MIGRATION_INVALID' });
    await expect(migrateOwner(pool, ' ', mine)).rejects.toMatchObject({ code: 'PG_MIGRATION_INVALID' });
  });

  it("says how a role gets past the server's refusals: a search_path naming no schema, a role without rights", async () => {
    const noSchema = database.pool({ options: '-c search_path=nowhere' });
    await expect(applyPostgresMigrations(noSchema)).rejects.toMatchObject({
      code: 'PG_QUERY_FAILED',
      message: expect.stringMatching(/no schema has been selected to create in; the role's search_path names no schema it may create tables in: .*search_path%3Dpublic/),
    });
    const owner = database.pool();
    await owner.query('CREATE SCHEMA closed');
    const role = `nobody_${Date.now()}`;
    await owner.query(`CREATE ROLE ${role} LOGIN`);
    await owner.query(`GRANT USAGE ON SCHEMA closed TO ${role}`);
    const url = new URL(database.url);
    url.username = role;
    const refused = database.pool({ connectionString: url.toString(), options: '-c search_path=closed' });
    await expect(applyPostgresMigrations(refused)).rejects.toMatchObject({
      code: 'PG_QUERY_FAILED',
      message: expect.stringMatching(/permission denied.*; the role may not create or use AskLoop's tables: let the database's owner run any askloop command .* grant this role SELECT, INSERT, UPDATE, DELETE on the askloop_ tables/),
    });
  });

  it('rolls a failing migration back completely: neither its tables nor its record stay', async () => {
    const pool = database.pool();
    const broken = [{ version: 1, name: 'broken', sql: 'CREATE TABLE half_done (x integer); THIS IS NOT SQL' }];
    await expect(migrateOwner(pool, 'broken', broken)).rejects.toMatchObject({ code: 'PG_QUERY_FAILED' });
    expect((await pool.query("SELECT to_regclass('half_done') AS t")).rows[0]).toEqual({ t: null });
    expect((await pool.query("SELECT count(*)::int AS n FROM askloop_schema_migrations WHERE owner = 'broken'")).rows[0]).toEqual({ n: 0 });
  });
});
