/**
 * Where a loop command keeps its sessions: `--db` (a file, or a
 * `postgres://` URL), else the `store` of the config in use (`--config FILE`
 * or ./askloop.config.yaml), else the default sessions file.
 */
import { resolve } from 'node:path';
import { discoverConfigPath } from '../config/discover-config.ts';
import { loadConfig } from '../config/load-config.ts';
import type { CommandIo } from '../io.ts';
import { resolveDbPath } from './default-db-path.ts';

/** A SQLite file or a PostgreSQL server. */
export type StoreLocation = { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };

/** True for a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text);
}

/** The store of a loop command (a file's folder is created). */
export async function resolveStoreLocation(options: { db?: string | undefined; config?: string | undefined }, io: CommandIo): Promise<StoreLocation> {
  if (options.db !== undefined) return isPostgresUrl(options.db) ? { kind: 'postgres', url: options.db } : { kind: 'sqlite', path: resolveDbPath(options.db, io) };
  const configPath = discoverConfigPath(options.config, io.cwd);
  if (configPath !== undefined) {
    const config = await loadConfig(configPath);
    if (config.storeUrl !== undefined) return { kind: 'postgres', url: config.storeUrl };
    if (config.storePath !== undefined) return { kind: 'sqlite', path: resolveDbPath(resolve(config.storePath), io) };
  }
  return { kind: 'sqlite', path: resolveDbPath(undefined, io) };
}
