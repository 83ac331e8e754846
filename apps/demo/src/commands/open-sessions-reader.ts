/**
 * The store `askloop sessions` and `askloop show` read: a SQLite sessions
 * file opened read-only, or a PostgreSQL store read without migrating it.
 * Neither creates anything: a missing file, or a database no session was
 * run on, has no sessions.
 */
import type { TranscriptStore } from '@askloop/controller';
import { createSessionQueue, type QueueEntry } from '@askloop/postgres';
import { CliError } from '../cli-error.ts';
import { atStorePlace } from '../config/store-place.ts';
import { damagedStoreMessage, isDamagedStore } from '../loop/damaged-store.ts';
import { openPostgresReader } from '../loop/open-postgres-store.ts';
import { redactMessage, redactUrl } from '../loop/redact-url.ts';
import type { StoreLocation } from '../loop/store-location.ts';
import { openSessionsReadOnly } from './open-sessions-read-only.ts';

/** An opened reader: the store (undefined when there is none yet) and where it is, for messages. */
export interface SessionsReader {
  readonly store: TranscriptStore | undefined;
  /** The file's path, or the URL without its password. */
  readonly where: string;
  /**
   * A PostgreSQL store's queue rows of `sids`, by id (a sessions file has no queue; a session never queued has no
   * row); read them before closing `store`.
   */
  readonly queueEntries?: (sids: readonly string[]) => Promise<ReadonlyMap<string, QueueEntry>>;
}

/** Opens the store at `location` for reading; a store the config named that cannot be opened is reported at its line there. */
export async function openSessionsReader(location: StoreLocation): Promise<SessionsReader> {
  return atStorePlace(location.place, () => openReader(location));
}

async function openReader(location: StoreLocation): Promise<SessionsReader> {
  if (location.kind === 'sqlite') {
    const name = location.place?.field ?? '--db';
    return readerOf(openSessionsReadOnly(location.path, name), location.path, (message) => message, { file: location.path, name });
  }
  const { url } = location;
  // As a failure to open it says it: the URL and any secret of it hidden.
  const opened = await openPostgresReader(url);
  const reader = readerOf(opened?.store, redactUrl(url), (message) => redactMessage(message, url));
  if (opened === undefined) return reader;
  const queue = createSessionQueue(opened.pool);
  // A database whose sessions were never queued may lack the queue's table: no rows, as for sessions run in place.
  return { ...reader, queueEntries: (sids) => queue.entries(sids).catch(() => new Map()) };
}

/** A sessions file, and what gave it (`--db`, or the config's `store.path`), for the fix of a damaged one. */
interface ReaderFile {
  readonly file: string;
  readonly name: string;
}

function readerOf(store: TranscriptStore | undefined, where: string, redact: (message: string) => string, file?: ReaderFile): SessionsReader {
  return { store: store === undefined ? undefined : failingAsCli(store, where, redact, file), where };
}

/**
 * `store` whose reads fail as the CLI's error, with the store's code (`LOOP_…`,
 * `PG_…`) and where it is, like a failure to open it: a query that fails
 * while listing (a server gone, a database a search needs migrated) is the
 * store's error, not an unexpected one. A sessions file found damaged while
 * reading (written over or cut short after it was opened) says so, and the fix.
 */
function failingAsCli(store: TranscriptStore, where: string, redact: (message: string) => string, file: ReaderFile | undefined): TranscriptStore {
  const reads = <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await read(...args);
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (typeof code !== 'string' || !/^(LOOP|PG)_/.test(code)) throw error;
        if (file !== undefined && isDamagedStore(error)) throw CliError.fromLoopError({ code, message: damagedStoreMessage(error, file.name) }, file.file);
        throw CliError.fromLoopError({ code, message: `${where}: ${redact((error as Error).message)}` }, file?.file);
      }
    };
  return {
    ...store,
    getSession: reads(store.getSession),
    listSessions: reads(store.listSessions),
    ...(store.countSessions === undefined ? {} : { countSessions: reads(store.countSessions) }),
    listTurns: reads(store.listTurns),
    ...(store.listTurnRange === undefined ? {} : { listTurnRange: reads(store.listTurnRange) }),
    lastTurn: reads(store.lastTurn),
  };
}
