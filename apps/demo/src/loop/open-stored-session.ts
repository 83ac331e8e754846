/**
 * What a command on a stored session (`resume`, `approve`, `deny`, `replay`)
 * opens before it drives the loop: the config's plugins (so the session's
 * agent has the providers and tools it ran with) plus `--mcp-config`'s, the
 * store the session lives in (`--db`, else the config's store), and the
 * session id that the given start of an id names.
 */
import type { HttpSettings } from '../config/http-settings-schema.ts';
import type { AskLoopPlugin, BuiltinProviderSettings, TranscriptStore } from '@askloop/controller';
import type pg from 'pg';
import { usageError } from '../cli-error.ts';
import { configForRun } from '../config/config-for-run.ts';
import { atStorePlace, locateStoreError } from '../config/store-place.ts';
import type { CommandIo } from '../io.ts';
import { mcpConfigPlugins } from '../commands/mcp/load-mcp-config.ts';
import { directoryOption } from '../options/parse-options.ts';
import { resolveSessionId } from '../view/resolve-session-id.ts';
import { storeReadError } from './damaged-store.ts';
import { openExistingStore, type ExistingStoreOptions } from './open-existing-store.ts';

/** The options of a stored-session command that say where its session is and what it needs. */
export interface StoredSessionOptions {
  readonly db?: string | undefined;
  readonly config?: string | undefined;
  readonly 'fs-root'?: string | undefined;
  readonly 'mcp-config'?: string | undefined;
}

/** An opened stored session; the caller hands `store` to `openSessionLoop`, whose `close()` closes it. */
export interface StoredSession {
  readonly sid: string;
  readonly store: TranscriptStore;
  readonly plugins: readonly AskLoopPlugin[];
  /** The config's `providers:` settings of the built-in providers. */
  readonly providers: BuiltinProviderSettings | undefined;
  /** The config's `http:` settings of `tool.http.Fetch`. */
  readonly http: HttpSettings | undefined;
  readonly fsRoot: string | undefined;
  /** Where the session is stored, for messages: the sessions file, or `PostgreSQL`. */
  readonly storedIn: string;
  /** The config file in use (`--config`, or the one found in the current directory), for the next-step hints. */
  readonly configFile: string | undefined;
  /** The sessions file, when the store is one (not PostgreSQL). */
  readonly sqlitePath: string | undefined;
  /** What gave the store when it is not `--db` (the config's `store.path` or `store`), for the fixes of its errors. */
  readonly storeName: string | undefined;
  /** The PostgreSQL store's pool, where its queue is (undefined for a sessions file). */
  readonly pool: pg.Pool | undefined;
}

/** Opens the store (read-only for `replay`: `options.readOnly`) and finds the session that `given` (a whole id, or its start of 4+ characters) names; the store is closed again on failure. */
export async function openStoredSession(values: StoredSessionOptions, given: string, io: CommandIo, options: ExistingStoreOptions & { readonly needsPostgres?: string } = {}): Promise<StoredSession> {
  const fsRoot = directoryOption('fs-root', values['fs-root'], io.cwd);
  const config = await configForRun({ config: values.config }, io);
  const plugins = [...config.plugins, ...(await mcpConfigPlugins(values['mcp-config'], io))];
  const db = values.db ?? config.storeUrl ?? config.storePath;
  // The config's store, when it is the one used: a store that cannot be opened is reported at its line.
  const place = values.db === undefined ? config.storePlace : undefined;
  const { store, sqlitePath, pool } = await atStorePlace(place, () => openExistingStore(db, io, { ...options, ...(place === undefined ? {} : { name: place.field }) }));
  const storedIn = sqlitePath ?? 'PostgreSQL';
  // A command only a PostgreSQL store can serve (`resume --detach`) says so before it looks for the session: in
  // another store, "no such session" would send its user looking for the wrong thing.
  if (options.needsPostgres !== undefined && pool === undefined) {
    await store.close();
    throw locateStoreError(usageError(options.needsPostgres), place);
  }
  try {
    return { sid: await resolveSessionId(store, given, storedIn), store, plugins, providers: config.providers, http: config.http, fsRoot, storedIn, configFile: config.file, sqlitePath, storeName: place?.field, pool };
  } catch (error) {
    await store.close();
    // A store's failure while looking (a file damaged since it was opened) is its code and the fix, not an unexpected error.
    throw storeReadError(error, sqlitePath, place?.field);
  }
}
