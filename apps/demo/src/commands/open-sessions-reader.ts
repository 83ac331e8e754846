/**
 * The store `askloop sessions` and `askloop show` read: a SQLite sessions
 * file opened read-only, or a PostgreSQL store read without migrating it.
 * Neither creates anything: a missing file, or a database no session was
 * run on, has no sessions.
 */
import type { TranscriptStore } from '@askloop/controller';
import { openPostgresReader } from '../loop/open-postgres-store.ts';
import { redactUrl } from '../loop/redact-url.ts';
import type { StoreLocation } from '../loop/store-location.ts';
import { openSessionsReadOnly } from './open-sessions-read-only.ts';

/** An opened reader: the store (undefined when there is none yet) and where it is, for messages. */
export interface SessionsReader {
  readonly store: TranscriptStore | undefined;
  /** The file's path, or the URL without its password. */
  readonly where: string;
}

/** Opens the store at `location` for reading. */
export async function openSessionsReader(location: StoreLocation): Promise<SessionsReader> {
  if (location.kind === 'sqlite') return { store: openSessionsReadOnly(location.path), where: location.path };
  return { store: await openPostgresReader(location.url), where: redactUrl(location.url) };
}
