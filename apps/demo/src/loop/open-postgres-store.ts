/**
 * Opens the sessions store on a PostgreSQL server (`--db postgres://…` or
 * `store: postgres://…`): a connection pool, the schema migrated (each
 * owner's migrations run once, whichever host starts first), and a
 * transcript store whose `close()` also ends the pool. Its
 * `openToolStores` puts the tools' memory, scratch and idempotence records
 * on the same server. A server that cannot be reached is `PG_QUERY_FAILED`
 * (exit 1), with the server's reason and never the password (neither
 * `user:password@` nor `?password=`).
 */
import type { TranscriptStore } from '@askloop/controller';
import { applyPostgresMigrations, createPostgresTranscriptStore, findPostgresError, PostgresStoreError } from '@askloop/postgres';
import pg from 'pg';
import { CliError } from '../cli-error.ts';
import { redactMessage, redactUrl } from './redact-url.ts';

/** An open PostgreSQL sessions store and its pool. */
export interface PostgresSessionStore {
  readonly store: TranscriptStore;
  readonly pool: pg.Pool;
}

export { redactUrl } from './redact-url.ts';

/** Connects, migrates, and returns the store (throws a CliError with the PG_… code). */
export async function openPostgresSessionStore(url: string, options: { readonly max?: number } = {}): Promise<PostgresSessionStore> {
  let pool: pg.Pool;
  try {
    new URL(url);
    pool = new pg.Pool({ connectionString: url, max: options.max ?? 4 });
  } catch (error) {
    throw CliError.fromLoopError(new PostgresStoreError('PG_URL_INVALID', `not a PostgreSQL URL: ${redactUrl(url)} (${redactMessage((error as Error).message, url)})`));
  }
  // An idle client's connection error must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  try {
    await applyPostgresMigrations(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    const known = findPostgresError(error);
    const message = redactMessage(known?.message ?? (error as Error).message, url);
    throw CliError.fromLoopError({ code: known?.code ?? 'PG_QUERY_FAILED', message: `${redactUrl(url)}: ${message}` });
  }
  const inner = createPostgresTranscriptStore(pool);
  const store: TranscriptStore = {
    ...inner,
    async close() {
      await inner.close();
      await pool.end().catch(() => undefined);
    },
  };
  return { store, pool };
}
