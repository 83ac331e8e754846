/**
 * Where `askloop run` keeps its sessions when no `--db` is given: one SQLite
 * file under the user's data directory (`$XDG_DATA_HOME/askloop/sessions.db`,
 * else `~/.local/share/askloop/sessions.db`), so `askloop resume SID` in
 * another shell finds the session the run left.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { makeDirectoriesSync } from '@askloop/tools';
import { CliError } from '../cli-error.ts';
import type { CommandIo } from '../io.ts';
import { redactUrl } from './redact-url.ts';
import { isPostgresUrl, refuseOtherUrl } from './refuse-other-url.ts';

/** The default sessions file for this environment (not created). */
export function defaultDbPath(env: Record<string, string | undefined>): string {
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env['XDG_DATA_HOME'];
  const base = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? xdg : join(env['HOME'] || homedir(), '.local', 'share');
  return join(base, 'askloop', 'sessions.db');
}

/** `--db FILE` against the current directory (a URL that is no PostgreSQL one refused), or the default file. */
function givenDbPath(option: string | undefined, io: CommandIo): string {
  if (option === undefined) return defaultDbPath(io.env);
  if (option === '') throw new CliError('CLI_OPTION_INVALID', '--db needs a value: a sessions file (--db sessions.db) or a postgres:// URL');
  // First: a URL's message must not echo its password. The commands that take a PostgreSQL store route it before this.
  refuseOtherUrl(option);
  if (isPostgresUrl(option)) throw new CliError('CLI_OPTION_INVALID', `--db ${redactUrl(option)}: this command keeps its sessions in a SQLite file; give --db FILE`);
  // resolve() drops a trailing slash or `.`, and SQLite would then make a file named like the folder the user meant.
  if (/(^|\/)\.{0,2}$/.test(option)) {
    const folder = option.endsWith('/') ? option : `${option}/`;
    throw new CliError('CLI_OPTION_INVALID', `--db ${option}: names a folder, not a sessions file; give a file in it (--db ${folder}sessions.db)`);
  }
  return resolve(io.cwd, option);
}

/**
 * The sessions file of a loop command: `--db FILE` resolved against the
 * current directory, or the default. Its folder is created; a folder that
 * cannot be is `CLI_OPTION_INVALID` for `--db`, and `CLI_FILE_UNREADABLE`
 * for the default file (no option was wrong) and for a config's
 * `store.path` (`name`: the config locates the error at its line).
 */
export function resolveDbPath(option: string | undefined, io: CommandIo, name = '--db'): string {
  const path = givenDbPath(option, io);
  refuseDirectory(path, option, name);
  try {
    // Not mkdirSync's `recursive`: under /proc (XDG_DATA_HOME=/proc/x) it never returns.
    makeDirectoriesSync(dirname(path));
  } catch (error) {
    const reason = (error as Error).message;
    // The default file was not the user's choice: say where it came from, and the two ways to put it elsewhere.
    if (option === undefined) throw new CliError('CLI_FILE_UNREADABLE', `the default sessions file ${path}: cannot create its folder: ${reason}; give --db FILE, or set XDG_DATA_HOME to a folder you can write`);
    if (name !== '--db') throw new CliError('CLI_FILE_UNREADABLE', `cannot create its folder: ${reason}; give ${name} a file in a folder you can write`, { file: path });
    throw new CliError('CLI_OPTION_INVALID', `--db ${option}: cannot create its folder: ${reason}`);
  }
  return path;
}

/**
 * The sessions file of a command that continues a stored session (`resume`,
 * `approve`, `deny`, `replay`): it must exist — a missing one is
 * `CLI_FILE_UNREADABLE` (exit 2), not a new empty file.
 */
export function existingDbPath(option: string | undefined, io: CommandIo, name = '--db'): string {
  const path = givenDbPath(option, io);
  if (!existsSync(path)) throw new CliError('CLI_FILE_UNREADABLE', `no sessions file here${option === undefined ? ' (the default; pass --db FILE for another)' : ''}; run a session with askloop run first`, { file: option ?? path });
  refuseDirectory(path, option, name);
  return path;
}

/**
 * A directory given as the sessions file is `CLI_FILE_UNREADABLE` (exit 2), as
 * the README's error table says — SQLite itself would only say "unable to open
 * database file" or "disk I/O error". `name` is what gave the file (`--db`,
 * or the config's `store.path`), for the fix.
 */
export function refuseDirectory(path: string, option?: string, name = '--db'): void {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) {
    const example = name === '--db' ? '--db DIR/sessions.db' : `${name}: DIR/sessions.db`;
    throw new CliError('CLI_FILE_UNREADABLE', `is a directory, not a sessions file; give the path of a file in it (${example})`, { file: option ?? path });
  }
}
