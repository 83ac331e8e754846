/**
 * A fresh database on the run's server for one test file (or one test), so
 * files run in parallel without seeing each other's rows. Dropped with
 * `drop()` (which first ends every pool that used it).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** A database made for a test. */
export interface TestDatabase {
  readonly url: string;
  /** A pool on the database; ended by `drop()`. */
  pool(options?: pg.PoolConfig): pg.Pool;
  /** A new empty schema, and pools whose search_path is that schema: a cheap, isolated namespace for one test. */
  schema(): Promise<(options?: pg.PoolConfig) => pg.Pool>;
  drop(): Promise<void>;
}

/**
 * Creates an empty database on the test server; with `icuLocale`, one whose
 * default collation is that ICU locale (the server's own is C), to show what
 * a store's queries do under a locale's case and order rules; with
 * `encoding`, one in that encoding.
 */
export async function createTestDatabase(options: { readonly icuLocale?: string; readonly encoding?: string } = {}): Promise<TestDatabase> {
  const admin = new URL(inject('postgresUrl'));
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const icu = options.icuLocale === undefined ? '' : ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale.replaceAll("'", "''")}'`;
    // Another encoding needs template0 and a locale that takes it (C takes any).
    const encoding = options.encoding === undefined ? '' : ` TEMPLATE template0 ENCODING '${options.encoding.replaceAll("'", "''")}' LC_COLLATE 'C' LC_CTYPE 'C'`;
    await client.query(`CREATE DATABASE ${name}${icu}${encoding}`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const pools: pg.Pool[] = [];
  let schemas = 0;
  const makePool = (options: pg.PoolConfig = {}): pg.Pool => {
    const pool = new pg.Pool({ connectionString: url.toString(), max: 5, ...options });
    // Dropping the database ends its connections; an idle client reports that as an error event, expected here.
    pool.on('error', () => undefined);
    pools.push(pool);
    return pool;
  };
  return {
    url: url.toString(),
    pool: makePool,
    async schema() {
      schemas += 1;
      const name = `s_${schemas}`;
      const admin = makePool({ max: 1 });
      await admin.query(`CREATE SCHEMA ${name}`);
      return (options = {}) => makePool({ ...options, options: `-c search_path=${name}` });
    },
    async drop() {
      await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => undefined)));
      const dropper = new pg.Client({ connectionString: admin.toString() });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
