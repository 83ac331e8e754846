/**
 * Where a store's statements run. The same store code runs on a pool
 * (every statement commits on its own; `atomic` takes a client for its own
 * transaction) or inside a transaction a worker holds open for a turn
 * (`atomic` is a savepoint, so a failed compare-and-swap or claim leaves
 * the turn's transaction usable).
 */
import type pg from 'pg';
import { PostgresStoreError } from '../errors/postgres-store-error.ts';
import { connectionHint } from './connection-hint.ts';

/** Something that runs one statement: a pool, or a client. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: readonly unknown[]): Promise<pg.QueryResult<R>>;
}

/** Statements, and a way to run several of them atomically. */
export interface StatementRunner extends Queryable {
  /** Runs `body` atomically: all of its statements take effect, or none. */
  atomic<T>(body: (query: Queryable) => Promise<T>): Promise<T>;
}

const query = (target: pg.Pool | pg.PoolClient): Queryable['query'] => (text, values) => target.query(text, values === undefined ? undefined : [...values]);

/** A client checked out of a pool, and how to give it back. */
export interface CheckedOutClient {
  readonly client: pg.PoolClient;
  /** Gives the client back; destroys it when `destroy` is true or its connection failed meanwhile. */
  release(destroy: boolean): void;
}

/**
 * Checks a client out of `pool`, listening for its connection's errors while it is out. pg-pool listens for a
 * client's `error` only while the client idles in the pool: a connection the server ends while a caller holds the
 * client (`pg_terminate_backend`, a restart, `idle_in_transaction_session_timeout`) was an unhandled `error` event,
 * which ended the whole process. Now the statement in flight, or the next one, fails with it, and the client is
 * destroyed when given back.
 */
export async function checkOut(pool: pg.Pool): Promise<CheckedOutClient> {
  const client = await pool.connect();
  let failed = false;
  const onError = (): void => {
    failed = true;
  };
  client.on('error', onError);
  return {
    client,
    release(destroy) {
      client.off('error', onError);
      client.release(destroy || failed);
    },
  };
}

/** Runs `body` in a transaction on a client of `pool`; rolls back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const { client, release } = await checkOut(pool);
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    // A client whose ROLLBACK failed is in an unknown state: destroy it rather than reuse it.
    release(broken);
  }
}

/** Statements on `pool`: each commits by itself; `atomic` is a transaction of its own. */
export function poolRunner(pool: pg.Pool): StatementRunner {
  return {
    query: query(pool),
    atomic: (body) => inTransaction(pool, (client) => body({ query: query(client) })),
  };
}

let savepoints = 0;

/** Statements on `client` (a client, or what runs statements on one), which is inside an open transaction: `atomic` is a savepoint. */
export function transactionRunner(client: Queryable, onBroken?: (error: unknown) => void): StatementRunner {
  const send: Queryable['query'] = (text, values) => client.query(text, values);
  /** Open `atomic` sections: a failure inside one is the transaction's only if rolling back to its savepoint fails. */
  let inSavepoint = 0;
  /**
   * `onBroken` sees every failure that leaves the transaction aborted, also one whose error a caller goes on to
   * swallow (a tool store's, inside a run): statements run one at a time on a client, so the count above tells
   * whether the failing one was inside a savepoint.
   */
  const run: Queryable['query'] = <R extends pg.QueryResultRow>(text: string, values?: readonly unknown[]) =>
    send<R>(text, values).catch((error: unknown) => {
      if (inSavepoint === 0) onBroken?.(error);
      throw error;
    });
  return {
    query: run,
    async atomic(body) {
      savepoints += 1;
      const name = `askloop_${savepoints}`;
      await run(`SAVEPOINT ${name}`);
      inSavepoint += 1;
      try {
        const result = await body({ query: run });
        await send(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        // Rolled back to the savepoint, the transaction goes on as if the section had not run; if not, it is broken.
        await send(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => onBroken?.(error));
        throw error;
      } finally {
        inSavepoint -= 1;
      }
    },
  };
}

/** `error` as a {@link PostgresStoreError} (kept when it already is one). */
export function queryFailure(action: string, error: unknown, sid?: string): Error {
  if (error instanceof PostgresStoreError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new PostgresStoreError('PG_QUERY_FAILED', `${action} failed: ${message}${connectionHint(sqlState(error))}`, { cause: error, ...(sid === undefined ? {} : { sid }) });
}

/** The SQLSTATE of a PostgreSQL error, if it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
