/**
 * Which sessions store a reading command reads: `--db FILE` (or
 * `postgres://…`), else the `store` of the config in use (`--config FILE` or
 * ./askloop.config.yaml), else the default file `askloop run` writes.
 */
import { resolve } from 'node:path';
import { usageError } from '../cli-error.ts';
import type { CommandIo } from '../io.ts';
import { defaultDbPath } from '../loop/default-db-path.ts';
import { refuseOtherUrl } from '../loop/refuse-other-url.ts';
import { isPostgresUrl, type StoreLocation } from '../loop/store-location.ts';
import { discoverConfigPath } from './discover-config.ts';
import { loadConfig } from './load-config.ts';

/** The store to read (a file's path absolute; nothing created). `sessions` and `show` read either kind. */
export async function sessionsStoreLocation(options: { db?: string | undefined; config?: string | undefined }, io: CommandIo): Promise<StoreLocation> {
  if (options.db !== undefined) {
    if (isPostgresUrl(options.db)) return { kind: 'postgres', url: options.db };
    refuseOtherUrl(options.db);
    return { kind: 'sqlite', path: resolve(io.cwd, options.db) };
  }
  const configPath = discoverConfigPath(options.config, io.cwd);
  if (configPath !== undefined) {
    const config = await loadConfig(configPath);
    if (config.storeUrl !== undefined) return { kind: 'postgres', url: config.storeUrl };
    if (config.storePath !== undefined) return { kind: 'sqlite', path: config.storePath };
  }
  return { kind: 'sqlite', path: defaultDbPath(io.env) };
}

/** The sessions file of a command that reads SQLite files only (`view`); a PostgreSQL store is `CLI_USAGE` saying what reads it. */
export async function sessionsDbPath(options: { db?: string | undefined; config?: string | undefined }, io: CommandIo): Promise<string> {
  const location = await sessionsStoreLocation(options, io);
  if (location.kind === 'postgres') {
    throw usageError('askloop view reads a SQLite sessions file only; read a PostgreSQL store with askloop sessions --db postgres://… and askloop show SID --db postgres://…');
  }
  return location.path;
}
