/**
 * Where a loop command keeps its sessions: `--db` (a file, or a
 * `postgres://` URL), else the `store` of the config in use (as
 * `configForRun` loaded it), else the default sessions file.
 */
import type { RunConfig } from '../config/config-for-run.ts';
import type { CommandIo } from '../io.ts';
import { resolveDbPath } from './default-db-path.ts';
import { isPostgresUrl } from './refuse-other-url.ts';

export { isPostgresUrl };

/** A SQLite file or a PostgreSQL server. */
export type StoreLocation = { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };

/** The store of a loop command (a file's folder is created); `config` is the config in use, already loaded. */
export function resolveStoreLocation(db: string | undefined, config: Pick<RunConfig, 'storePath' | 'storeUrl'>, io: CommandIo): StoreLocation {
  if (db !== undefined) return isPostgresUrl(db) ? { kind: 'postgres', url: db } : { kind: 'sqlite', path: resolveDbPath(db, io) };
  if (config.storeUrl !== undefined) return { kind: 'postgres', url: config.storeUrl };
  return { kind: 'sqlite', path: resolveDbPath(config.storePath, io) };
}
