/**
 * Which sessions file a command reads: `--db FILE`, else the `store.path` of
 * the config in use (`--config FILE` or ./askloop.config.yaml), else the
 * default file `askloop run` writes.
 */
import { resolve } from 'node:path';
import { usageError } from '../cli-error.ts';
import type { CommandIo } from '../io.ts';
import { defaultDbPath } from '../loop/default-db-path.ts';
import { refuseOtherUrl } from '../loop/refuse-other-url.ts';
import { isPostgresUrl } from '../loop/store-location.ts';
import { discoverConfigPath } from './discover-config.ts';
import { loadConfig } from './load-config.ts';

/** The sessions file (absolute; not created). */
export async function sessionsDbPath(options: { db?: string | undefined; config?: string | undefined }, io: CommandIo): Promise<string> {
  // These readers open SQLite files only; a PostgreSQL store would otherwise be taken for a file name.
  const notYet = () => usageError('this command reads a SQLite sessions file; PostgreSQL stores (postgres://…) are read with SQL for now (table askloop_sessions)');
  if (options.db !== undefined) {
    if (isPostgresUrl(options.db)) throw notYet();
    refuseOtherUrl(options.db);
    return resolve(io.cwd, options.db);
  }
  const configPath = discoverConfigPath(options.config, io.cwd);
  if (configPath !== undefined) {
    const config = await loadConfig(configPath);
    if (config.storeUrl !== undefined) throw notYet();
    if (config.storePath !== undefined) return config.storePath;
  }
  return defaultDbPath(io.env);
}
