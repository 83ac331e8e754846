/**
 * The shared conformance tables on the PostgreSQL stores: every case of the
 * controller's transcript table and fenced-lease table
 * (`@askloop/controller/testing`; the second with two hosts, each with its
 * own pool, on one schema) and of the
 * tools' store table (`@askloop/tools/testing`) — the same tables the memory
 * and SQLite stores run — each on a new schema of a database on the real test server.
 * For the tools' table, `connect()` is a second pool (another host); it runs
 * again on a pack's view of the stores (`scopeStoresToPack`, what a plugin's
 * tools get as `context.stores`).
 */
import { leaseFencingCases, transcriptStoreCases } from '@askloop/controller/testing';
import { scopeStoresToPack } from '@askloop/tools';
import { toolStoreCases } from '@askloop/tools/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPostgresMigrations } from '../src/migrate/postgres-migrations.ts';
import { createPostgresToolStores } from '../src/tools/postgres-tool-stores.ts';
import { createPostgresTranscriptStore } from '../src/transcript/postgres-transcript-store.ts';
import { createTestDatabase, type TestDatabase } from './support/test-database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

/** Pools on a new, migrated schema of the test database (one per case: cheaper than a database each). */
async function freshSchema(): Promise<(options?: pg.PoolConfig) => pg.Pool> {
  const pools = await database.schema();
  await applyPostgresMigrations(pools({ max: 1 }));
  return pools;
}

describe('transcript store conformance: PostgreSQL', () => {
  it.each(transcriptStoreCases.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const pools = await freshSchema();
    await testCase.run(() => createPostgresTranscriptStore(pools()));
  });
});

describe('listSessions and countSessions on a database whose default collation is ICU en-US (its lower() folds É; the search must not)', () => {
  let icuDatabase: TestDatabase;
  beforeAll(async () => {
    icuDatabase = await createTestDatabase({ icuLocale: 'en-US' });
  });
  afterAll(async () => {
    await icuDatabase?.drop();
  });
  it('folds É under this collation, so the cases below show the store does not rely on the server locale', async () => {
    const result = await icuDatabase.pool({ max: 1 }).query<{ folded: string }>("SELECT lower('ÉCRIRE') AS folded");
    expect(result.rows[0]?.folded).toBe('écrire');
  });
  it.each(transcriptStoreCases.filter((testCase) => /^(list|count)Sessions/.test(testCase.name)).map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const pools = await icuDatabase.schema();
    await applyPostgresMigrations(pools({ max: 1 }));
    await testCase.run(() => createPostgresTranscriptStore(pools()));
  });
});

describe('fenced session leases: PostgreSQL, two hosts (two pools) on one schema', () => {
  it.each(leaseFencingCases.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const pools = await freshSchema();
    await testCase.run(() => [createPostgresTranscriptStore(pools()), createPostgresTranscriptStore(pools())]);
  });
});

/**
 * Pools on a new, migrated schema for one case of the tools' table, and `end()` to end them after it: the table
 * runs twice (the stores, a pack's view of them), and pools kept to the end of the file passed max_connections.
 */
async function toolSchema(): Promise<{ pool: (options?: pg.PoolConfig) => pg.Pool; end: () => Promise<void> }> {
  const schema = await database.schema();
  const opened: pg.Pool[] = [];
  const pool = (options?: pg.PoolConfig): pg.Pool => {
    const made = schema(options);
    opened.push(made);
    return made;
  };
  await applyPostgresMigrations(pool({ max: 1 }));
  const end = async (): Promise<void> => {
    await Promise.all(opened.splice(0).map((made) => made.end()));
  };
  return { pool, end };
}

describe('tool store conformance: PostgreSQL', () => {
  it.each(toolStoreCases.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const { pool, end } = await toolSchema();
    await testCase.run((clock) => ({
      stores: createPostgresToolStores(pool(), { clock }),
      connect: () => createPostgresToolStores(pool(), { clock }),
      close: end,
    }));
  });
});

describe("tool store conformance: a pack's scoped view of the PostgreSQL stores", () => {
  it.each(toolStoreCases.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
    const { pool, end } = await toolSchema();
    await testCase.run((clock) => ({
      stores: scopeStoresToPack(createPostgresToolStores(pool(), { clock }), 'plugin'),
      connect: () => scopeStoresToPack(createPostgresToolStores(pool(), { clock }), 'plugin'),
      close: end,
    }));
  });
});
