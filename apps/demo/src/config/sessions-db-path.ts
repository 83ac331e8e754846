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
import { configSecretNames } from './config-secret-names.ts';
import { noteSecretNames } from '../known-secret-names.ts';
import { locateStoreError, storePlace } from './store-place.ts';

/** The store to read (a file's path absolute; nothing created), with its place when the config named it. `sessions` and `show` read either kind. */
export async function sessionsStoreLocation(options: { db?: string | undefined; config?: string | undefined }, io: CommandIo): Promise<StoreLocation> {
  if (options.db !== undefined) {
    await noteConfigSecrets(options.config, io);
    if (isPostgresUrl(options.db)) return { kind: 'postgres', url: options.db };
    refuseOtherUrl(options.db);
    return { kind: 'sqlite', path: resolve(io.cwd, options.db) };
  }
  const configPath = discoverConfigPath(options.config, io.cwd);
  if (configPath !== undefined) {
    const config = await loadConfig(configPath);
    // What the sessions ran with: a variable the file hands to an MCP server or a plugin (`configSecretNames`) is a secret in all this command prints.
    noteSecretNames(io, configSecretNames(config, io.env));
    const place = storePlace(config);
    if (config.storeUrl !== undefined) return { kind: 'postgres', url: config.storeUrl, ...(place === undefined ? {} : { place }) };
    if (config.storePath !== undefined) return { kind: 'sqlite', path: config.storePath, ...(place === undefined ? {} : { place }) };
  }
  return { kind: 'sqlite', path: defaultDbPath(io.env) };
}

/**
 * With `--db`, the store is not the config's, but the sessions in it most often ran with the config in use, whose
 * variables (`${NAME}`, `tokenEnv:`) are secrets in what the command prints all the same. Only for that: a config
 * that cannot be read is no error of a command that does not take its store (it never did).
 */
async function noteConfigSecrets(file: string | undefined, io: CommandIo): Promise<void> {
  try {
    const path = discoverConfigPath(file, io.cwd);
    if (path !== undefined) noteSecretNames(io, configSecretNames(await loadConfig(path), io.env));
  } catch {
    // Read for its variable names alone (above).
  }
}

/**
 * The sessions file of a command that reads SQLite files only (`view`), with its place when the config named it; a
 * PostgreSQL store is `CLI_USAGE` saying what reads it (at the config's `store:` line when it came from there).
 */
export async function sessionsDbPath(options: { db?: string | undefined; config?: string | undefined }, io: CommandIo): Promise<Extract<StoreLocation, { kind: 'sqlite' }>> {
  const location = await sessionsStoreLocation(options, io);
  if (location.kind === 'postgres') {
    throw locateStoreError(usageError('askloop view reads a SQLite sessions file only; read a PostgreSQL store with askloop sessions --db postgres://… and askloop show SID --db postgres://…'), location.place);
  }
  return location;
}
