/**
 * Where a loop command keeps its sessions: `--db` (a file, or a
 * `postgres://` URL), else the `store` of the config in use (as
 * `configForRun` loaded it), else the default sessions file.
 */
import type { RunConfig } from '../config/config-for-run.ts';
import { locateStoreError, type StorePlace } from '../config/store-place.ts';
import type { CommandIo } from '../io.ts';
import { resolveDbPath } from './default-db-path.ts';
import { isPostgresUrl } from './refuse-other-url.ts';

export { isPostgresUrl };

/** A SQLite file or a PostgreSQL server; `place` when the config file named it, for errors at its line. */
export type StoreLocation = ({ readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string }) & { readonly place?: StorePlace };

/**
 * The store of a loop command (a file's folder is created); `config` is the config in use, already loaded. A
 * `store.path` that cannot be used (a folder, a folder that cannot be made) is reported at its line in the config.
 */
export function resolveStoreLocation(db: string | undefined, config: Pick<RunConfig, 'storePath' | 'storeUrl' | 'storePlace'>, io: CommandIo): StoreLocation {
  if (db !== undefined) return isPostgresUrl(db) ? { kind: 'postgres', url: db } : { kind: 'sqlite', path: resolveDbPath(db, io) };
  if (config.storeUrl !== undefined) return { kind: 'postgres', url: config.storeUrl };
  if (config.storePath === undefined) return { kind: 'sqlite', path: resolveDbPath(undefined, io) };
  try {
    return { kind: 'sqlite', path: resolveDbPath(config.storePath, io, 'store.path') };
  } catch (error) {
    throw locateStoreError(error, config.storePlace);
  }
}
