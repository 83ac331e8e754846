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
import { passwordCutShort, redactMessage, redactUrl } from './redact-url.ts';
import { unreachableServerHint } from './unreachable-server-hint.ts';

/** An open PostgreSQL sessions store and its pool. */
export interface PostgresSessionStore {
  readonly store: TranscriptStore;
  readonly pool: pg.Pool;
}

export { redactUrl } from './redact-url.ts';

/**
 * Which part of a URL that does not parse is most likely wrong, as `new URL` says only "Invalid URL": a port
 * out of range, or a character of the password or user that must be percent-encoded. Never quotes the password.
 */
function urlHint(url: string): string | undefined {
  const authority = /^[a-z]+:\/\/([^/?]*)/i.exec(url)?.[1] ?? '';
  const at = authority.lastIndexOf('@');
  // The user and password as written: up to the last @ of the whole URL when one follows a / or ? they hold.
  const afterScheme = url.slice(url.indexOf('://') + 3);
  const lastAt = afterScheme.lastIndexOf('@');
  const credentials = lastAt === -1 ? '' : afterScheme.slice(0, lastAt);
  const port = /:(\d+)$/.exec(at === -1 ? authority : authority.slice(at + 1))?.[1];
  if (port !== undefined && Number(port) > 65_535) return `the port ${port} is over 65535`;
  if (/[\s#/?[\]]/.test(credentials) || (url.includes('#') && at === -1)) {
    return 'a user or password with a space or one of # / ? @ [ ] must be percent-encoded (# is %23, a space %20, / is %2F, ? is %3F, @ is %40), or given in PGPASSWORD or ~/.pgpass instead';
  }
  return undefined;
}

/**
 * `url` with `sslmode=prefer|require|verify-ca` written as `verify-full`,
 * which is what the PostgreSQL driver does with them today (it checks the
 * server's certificate and host name) — said explicitly, so the driver does
 * not print its eight-line warning about a future change on every command.
 * A URL that asks for libpq's own meanings (`uselibpqcompat=true`) is left as
 * it is.
 */
export function withExplicitSslMode(url: string): string {
  if (/[?&]uselibpqcompat=true(?:&|$)/i.test(url)) return url;
  return url.replace(/([?&]sslmode=)(?:prefer|require|verify-ca)(?=&|#|$)/gi, '$1verify-full');
}

/** A pool on `url`; a URL that does not parse is `PG_URL_INVALID`, shown without its password. */
function openPool(url: string, max: number): pg.Pool {
  let pool: pg.Pool;
  try {
    // Refused before any connection: the driver would look up a piece of the password as the host name.
    new URL(url);
    if (passwordCutShort(url)) throw new Error('the password ends at a / ? or # it holds, and the rest reads as the host');
    pool = new pg.Pool({ connectionString: withExplicitSslMode(url), max });
  } catch (error) {
    const hint = urlHint(url);
    throw CliError.fromLoopError(new PostgresStoreError('PG_URL_INVALID', `not a PostgreSQL URL: ${redactUrl(url)} (${redactMessage((error as Error).message, url)})${hint === undefined ? '' : `; ${hint}`}`));
  }
  // An idle client's connection error must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  return pool;
}

/** Ends the pool and throws the failure as the CLI's error (`PG_…`, the URL and message without the password). */
async function failWith(pool: pg.Pool, url: string, error: unknown): Promise<never> {
  await pool.end().catch(() => undefined);
  const known = findPostgresError(error);
  const message = redactMessage(known?.message ?? (error as Error).message, url);
  throw CliError.fromLoopError({ code: known?.code ?? 'PG_QUERY_FAILED', message: `${redactUrl(url)}: ${message}${missingPasswordHint(message)}${placeholderPasswordHint(url)}${unreachableServerHint(error, url)}` });
}

/** A URL pasted from one of askloop's printed next steps keeps the `***` that stood for its password: said, as no server accepts it. */
function placeholderPasswordHint(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password) === '***' ? "; the URL's password is ***, which askloop prints in place of a hidden one: give the real password (or set PGPASSWORD and leave it out)" : '';
  } catch {
    return '';
  }
}

/** What to do when the server asked for a password and none was given (pg's words for it are its internals'). */
export function missingPasswordHint(message: string): string {
  return /client password must be a string|no password (was )?supplied/i.test(message)
    ? '; the server asks for a password and none was given: set PGPASSWORD, add it to ~/.pgpass, or put it in the URL (percent-encoded)'
    : '';
}

/** The transcript store on `pool`, whose `close()` also ends the pool. */
function storeOn(pool: pg.Pool): TranscriptStore {
  const inner = createPostgresTranscriptStore(pool);
  return {
    ...inner,
    async close() {
      await inner.close();
      await pool.end().catch(() => undefined);
    },
  };
}

/** Connects, migrates, and returns the store (throws a CliError with the PG_… code). */
export async function openPostgresSessionStore(url: string, options: { readonly max?: number } = {}): Promise<PostgresSessionStore> {
  const pool = openPool(url, options.max ?? 4);
  try {
    await applyPostgresMigrations(pool);
  } catch (error) {
    return failWith(pool, url, error);
  }
  return { store: storeOn(pool), pool };
}

/**
 * For the commands that only read (`sessions`, `show`): the store without
 * migrating anything — undefined when the database holds no AskLoop tables
 * yet (no session was run there), as a missing sessions file is.
 */
export async function openPostgresReader(url: string): Promise<PostgresSessionStore | undefined> {
  const pool = openPool(url, 2);
  try {
    const { rows } = await pool.query<{ ready: boolean }>("SELECT to_regclass('askloop_sessions') IS NOT NULL AS ready");
    if (rows[0]?.ready !== true) {
      await pool.end().catch(() => undefined);
      return undefined;
    }
  } catch (error) {
    return failWith(pool, url, error);
  }
  return { store: storeOn(pool), pool };
}
