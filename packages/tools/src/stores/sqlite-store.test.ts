import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.ts';
import { applyMigrations, openDatabase } from './sqlite-database.ts';
import { SQLITE_MIGRATIONS, SQLITE_SCHEMA_VERSION } from './sqlite-migrations.ts';
import { openSqliteStore, type SqliteToolStore } from './sqlite-store.ts';

const run = promisify(execFile);
let directory: string;
let file: string;
const opened: SqliteToolStore[] = [];
const open = (options?: Parameters<typeof openSqliteStore>[1]): SqliteToolStore => {
  const store = openSqliteStore(file, options);
  opened.push(store);
  return store;
};

beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'askloop-store-'));
  file = path.join(directory, 'tools.sqlite');
});
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('openSqliteStore: schema', () => {
  it('migrates a new file, records the migration and uses WAL', () => {
    const store = open();
    expect(store.schemaVersion).toBe(SQLITE_SCHEMA_VERSION);
    const raw = new DatabaseSync(file);
    expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(raw.prepare('SELECT owner, version, name FROM schema_migrations ORDER BY version').all()).toEqual([
      { owner: 'tools', version: 1, name: 'memory, scratch and idempotence tables' },
      { owner: 'tools', version: 2, name: 'scratch tombstones and pending idempotence claims' },
    ]);
    raw.close();
  });

  it('reopens an existing file without migrating again, keeping data', async () => {
    await open().memory.cas('k', 0, { a: 1 });
    const again = open();
    expect(await again.memory.get('k')).toEqual({ value: { a: 1 }, version: 1 });
  });

  it('refuses a file with a newer schema', () => {
    open().close();
    const raw = new DatabaseSync(file);
    raw.exec("INSERT INTO schema_migrations (owner, version, name, applied_at) VALUES ('tools', 99, 'from the future', 0)");
    raw.close();
    expect(() => open()).toThrow(expect.objectContaining({ code: 'STORE_SCHEMA_NEWER' }));
  });

  it('wraps open failures as STORE_FAILED', () => {
    expect(() => openSqliteStore(path.join(directory, 'missing-dir', 'x.sqlite'))).toThrow(expect.objectContaining({ code: 'STORE_FAILED' }));
  });
});

describe('memory store (CAS)', () => {
  it('reads absent keys as version 0 and creates with expected version 0', async () => {
    const { memory } = open();
    expect(await memory.get('/ingest/queue/x')).toEqual({ value: null, version: 0 });
    expect(await memory.cas('/ingest/queue/x', 0, 'taken')).toEqual({ ok: true, version: 1 });
    expect(await memory.get('/ingest/queue/x')).toEqual({ value: 'taken', version: 1 });
  });

  it('refuses a stale version and reports the current one', async () => {
    const { memory } = open();
    await memory.cas('k', 0, 1);
    await memory.cas('k', 1, 2);
    expect(await memory.cas('k', 1, 3)).toEqual({ ok: false, version: 2 });
    expect(await memory.cas('k', 0, 3)).toEqual({ ok: false, version: 2 });
    expect(await memory.get('k')).toEqual({ value: 2, version: 2 });
  });

  it('stores values as canonical JSON text', async () => {
    await open().memory.cas('k', 0, { b: 1, a: [true, null] });
    const raw = new DatabaseSync(file);
    expect(raw.prepare('SELECT value FROM memory WHERE key = ?').get('k')).toEqual({ value: '{"a":[true,null],"b":1}' });
    raw.close();
  });

  it('two connections on one file: the stale writer loses', async () => {
    const first = open();
    const second = open();
    const seen = await first.memory.get('k');
    expect(await second.memory.cas('k', seen.version, 'second')).toEqual({ ok: true, version: 1 });
    expect(await first.memory.cas('k', seen.version, 'first')).toEqual({ ok: false, version: 1 });
    expect(await first.memory.get('k')).toEqual({ value: 'second', version: 1 });
  });

  it('two processes racing on the same keys: exactly one wins each key, and no increment is lost', async () => {
    open();
    const worker = fileURLToPath(new URL('../../test/fixtures/cas-worker.ts', import.meta.url));
    const startFile = path.join(directory, 'start');
    const keys = 100;
    const increments = 50;
    const spawnWorker = (name: string) =>
      run(process.execPath, ['--disable-warning=ExperimentalWarning', worker, file, name, startFile, String(keys), String(increments)], { timeout: 60_000 });
    const workers = [spawnWorker('a'), spawnWorker('b')];
    writeFileSync(startFile, '');
    const results = (await Promise.all(workers)).map((output) => JSON.parse(output.stdout) as { name: string; wins: number; conflicts: number });
    expect(results.map((result) => result.wins).reduce((sum, wins) => sum + wins, 0)).toBe(keys);
    const store = open();
    const owners = await Promise.all(Array.from({ length: keys }, (_, index) => store.memory.get(`k${index}`)));
    expect(owners.every((owner) => owner.version === 1)).toBe(true);
    for (const result of results) expect(owners.filter((owner) => owner.value === result.name).length).toBe(result.wins);
    expect(await store.memory.get('counter')).toEqual({ value: 2 * increments, version: 2 * increments });
  });
});

describe('scratch store (TTL)', () => {
  it('expires entries at the TTL by the injected clock', async () => {
    const clock = createManualClock(1_000_000);
    const { scratch } = open({ clock });
    expect(await scratch.putCas('s1', 'cursor', 0, 5, 10_000)).toEqual({ ok: true, version: 1 });
    clock.advance(9_999);
    expect(await scratch.get('s1', 'cursor')).toEqual({ value: 5, version: 1 });
    clock.advance(1);
    expect(await scratch.get('s1', 'cursor')).toEqual({ value: null, version: 0 });
  });

  it('keeps versions increasing across expiry so a stale version never matches', async () => {
    const clock = createManualClock();
    const { scratch } = open({ clock });
    await scratch.putCas('s1', 'k', 0, 'old', 1_000);
    clock.advance(1_000);
    expect(await scratch.putCas('s1', 'k', 1, 'stale', 1_000)).toEqual({ ok: false, version: 0 });
    expect(await scratch.putCas('s1', 'k', 0, 'new', 1_000)).toEqual({ ok: true, version: 2 });
    expect(await scratch.putCas('s1', 'k', 1, 'stale', 1_000)).toEqual({ ok: false, version: 2 });
  });

  it('is private to the session', async () => {
    const { scratch } = open();
    await scratch.putCas('s1', 'k', 0, 'mine', 60_000);
    expect(await scratch.get('s2', 'k')).toEqual({ value: null, version: 0 });
    expect(await scratch.putCas('s2', 'k', 0, 'theirs', 60_000)).toEqual({ ok: true, version: 1 });
    expect(await scratch.get('s1', 'k')).toEqual({ value: 'mine', version: 1 });
  });

  it('purges expired entries', async () => {
    const clock = createManualClock();
    const { scratch } = open({ clock });
    await scratch.putCas('s1', 'a', 0, 1, 1_000);
    await scratch.putCas('s1', 'b', 0, 1, 5_000);
    clock.advance(2_000);
    expect(await scratch.purgeExpired()).toBe(1);
    expect(await scratch.get('s1', 'b')).toEqual({ value: 1, version: 1 });
  });
});

describe('idempotence store', () => {
  it('records once per (session, turn, call index) and returns the first record', async () => {
    const clock = createManualClock(5);
    const { idempotence } = open({ clock });
    expect(await idempotence.lookup('s1', 1, 0)).toBeUndefined();
    const first = await idempotence.record({ session: 's1', turn: 1, callIndex: 0, tool: 'tool.memory.cas', argumentsJson: '{"a":1}', result: [true, 1] });
    expect(first).toEqual({ session: 's1', turn: 1, callIndex: 0, tool: 'tool.memory.cas', argumentsJson: '{"a":1}', result: [true, 1], recordedAt: 5 });
    const second = await idempotence.record({ session: 's1', turn: 1, callIndex: 0, tool: 'tool.memory.cas', argumentsJson: '{"a":1}', result: [false, 1] });
    expect(second.result).toEqual([true, 1]);
    expect(await idempotence.lookup('s1', 1, 0)).toEqual(first);
    expect(await idempotence.lookup('s1', 2, 0)).toBeUndefined();
  });
});

describe('scratch versions survive purgeExpired (review finding 4)', () => {
  it('a stale CAS never wins after expiry and purge', async () => {
    const clock = createManualClock();
    const { scratch } = open({ clock });
    expect(await scratch.putCas('s1', 'k', 0, 'first', 1_000)).toEqual({ ok: true, version: 1 });
    clock.advance(1_000);
    expect(await scratch.purgeExpired()).toBe(1);
    expect(await scratch.get('s1', 'k')).toEqual({ value: null, version: 0 });
    expect(await scratch.putCas('s1', 'k', 0, 'second', 1_000)).toEqual({ ok: true, version: 2 });
    // A writer that read version 1 before the expiry must lose.
    expect(await scratch.putCas('s1', 'k', 1, 'stale', 1_000)).toEqual({ ok: false, version: 2 });
    clock.advance(1_000);
    await scratch.purgeExpired();
    expect(await scratch.putCas('s1', 'k', 0, 'third', 1_000)).toEqual({ ok: true, version: 3 });
  });
});

describe('idempotence claims (review finding 5)', () => {
  const key = { session: 's1', turn: 1, callIndex: 0, tool: 'tool.demo.bump', argumentsJson: '{}' };

  it('gives the slot to exactly one of two connections; the other sees it pending, then recorded', async () => {
    const a = open().idempotence;
    const b = open().idempotence;
    expect(await a.claim(key)).toEqual({ state: 'claimed' });
    expect(await b.claim(key)).toEqual({ state: 'pending', tool: 'tool.demo.bump', argumentsJson: '{}' });
    expect(await b.lookup('s1', 1, 0)).toBeUndefined();
    await a.record({ ...key, result: 11 });
    expect(await b.claim(key)).toMatchObject({ state: 'recorded', record: { result: 11 } });
    await a.release('s1', 1, 0);
    expect(await b.lookup('s1', 1, 0)).toMatchObject({ result: 11 });
  });

  it('release gives a pending slot up so the next claim wins', async () => {
    const { idempotence } = open();
    await idempotence.claim(key);
    await idempotence.release('s1', 1, 0);
    expect(await idempotence.claim(key)).toEqual({ state: 'claimed' });
  });
});

describe('schema migration 1 → 2 (review findings 4 and 5)', () => {
  it('opens a version 1 file, keeps its data and adds tombstones and claims', async () => {
    const raw = new DatabaseSync(file);
    raw.exec(SQLITE_MIGRATIONS[0]?.sql ?? '');
    raw.exec("INSERT INTO schema_migrations (version, name, applied_at) VALUES (1, 'memory, scratch and idempotence tables', 0)");
    raw.exec("INSERT INTO scratch (session, key, value, version, expires_at) VALUES ('s1', 'k', '\"old\"', 4, 1000)");
    raw.exec("INSERT INTO idempotence (session, turn, call_index, tool, arguments, result, recorded_at) VALUES ('s1', 1, 0, 'tool.demo.bump', '{}', '7', 0)");
    raw.exec('PRAGMA user_version = 1');
    raw.close();
    const clock = createManualClock(2_000);
    const store = open({ clock });
    expect(store.schemaVersion).toBe(2);
    expect(await store.idempotence.lookup('s1', 1, 0)).toMatchObject({ result: 7 });
    expect(await store.idempotence.claim({ session: 's1', turn: 1, callIndex: 0, tool: 'tool.demo.bump', argumentsJson: '{}' })).toMatchObject({ state: 'recorded' });
    expect(await store.scratch.purgeExpired()).toBe(1);
    expect(await store.scratch.putCas('s1', 'k', 0, 'new', 1_000)).toEqual({ ok: true, version: 5 });
  });
});

describe('one database, migrations per owner', () => {
  /** A file exactly as the user_version-based code left it (schema version 2, single-owner schema_migrations). */
  function writeLegacyFile(): void {
    const raw = new DatabaseSync(file);
    raw.exec('PRAGMA journal_mode = WAL');
    for (const migration of SQLITE_MIGRATIONS) {
      raw.exec(migration.sql);
      raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 123);
      raw.exec(`PRAGMA user_version = ${migration.version}`);
    }
    raw.exec(`INSERT INTO memory (key, value, version, updated_at) VALUES ('k', '"kept"', 3, 0)`);
    raw.close();
  }

  it('upgrades a file written by the user_version code: its migrations become owner tools, data kept, nothing re-run', async () => {
    writeLegacyFile();
    const store = open();
    expect(store.schemaVersion).toBe(SQLITE_SCHEMA_VERSION);
    expect(await store.memory.get('k')).toEqual({ value: 'kept', version: 3 });
    const raw = new DatabaseSync(file);
    expect(raw.prepare('SELECT owner, version, applied_at FROM schema_migrations ORDER BY version').all()).toEqual([
      { owner: 'tools', version: 1, applied_at: 123 },
      { owner: 'tools', version: 2, applied_at: 123 },
    ]);
    raw.close();
  });

  it('lets the controller apply its own migrations to the connection the tools store uses, each owner versioned apart', async () => {
    const database = openDatabase(file);
    try {
      const store = openSqliteStore(database);
      const controller = [
        { version: 1, name: 'transcript', sql: 'CREATE TABLE transcript (session TEXT NOT NULL, turn INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (session, turn))' },
        { version: 2, name: 'transcript index', sql: 'CREATE INDEX transcript_turn ON transcript (turn)' },
      ];
      expect(applyMigrations(database, 'controller', controller.slice(0, 1))).toBe(1);
      expect(applyMigrations(database, 'controller', controller)).toBe(2);
      expect(applyMigrations(database, 'controller', controller)).toBe(2);
      database.prepare("INSERT INTO transcript VALUES ('s1', 1, 'hello')").run();
      expect(await store.memory.cas('m', 0, 1)).toEqual({ ok: true, version: 1 });
      store.close();
      // The store does not close a connection it was given.
      expect(database.isOpen).toBe(true);
      expect(() => applyMigrations(database, 'controller', controller.slice(0, 1))).toThrow(expect.objectContaining({ code: 'STORE_SCHEMA_NEWER' }));
      expect(() => applyMigrations(database, 'controller', [{ version: 2, name: 'x', sql: '' }])).toThrow(expect.objectContaining({ code: 'STORE_FAILED' }));
    } finally {
      database.close();
    }
    const again = open();
    expect(again.schemaVersion).toBe(SQLITE_SCHEMA_VERSION);
    expect(await again.memory.get('m')).toEqual({ value: 1, version: 1 });
  });

  it('rolls back a failing migration, so neither its tables nor its record stay', () => {
    const database = openDatabase(':memory:');
    try {
      const broken = [{ version: 1, name: 'broken', sql: 'CREATE TABLE half (x INTEGER); THIS IS NOT SQL' }];
      expect(() => applyMigrations(database, 'controller', broken)).toThrow(expect.objectContaining({ code: 'STORE_FAILED' }));
      expect(database.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'half'").get()).toEqual({ n: 0 });
      expect(database.prepare("SELECT COUNT(*) AS n FROM schema_migrations WHERE owner = 'controller'").get()).toEqual({ n: 0 });
    } finally {
      database.close();
    }
  });

  it('opens a file whose schema is current while another connection holds the write lock (walkthrough: migrating took the lock first)', async () => {
    const file = path.join(directory, 'locked.sqlite');
    const first = openSqliteStore(file);
    await first.memory.cas('/k', 0, 'v');
    first.close();
    const writer = new DatabaseSync(file);
    writer.exec('BEGIN IMMEDIATE');
    try {
      const reader = openSqliteStore(file, { busyTimeoutMs: 50 });
      try {
        expect(await reader.memory.get('/k')).toEqual({ value: 'v', version: 1 });
      } finally {
        reader.close();
      }
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });
});

