/**
 * Where `askloop` keeps its sessions when no `--db` is given: one SQLite file
 * that `askloop run` writes and `askloop view` (and resume, replay, approve)
 * read. One function, so every command agrees on the place.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * `$XDG_DATA_HOME/askloop/sessions.db` when XDG_DATA_HOME is an absolute path
 * (the XDG spec says to ignore a relative one), else
 * `~/.local/share/askloop/sessions.db` (`%LOCALAPPDATA%\askloop\sessions.db`
 * on Windows). `env` is the command's environment, so tests can point it
 * elsewhere.
 */
export function defaultSessionDb(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  const xdg = env.XDG_DATA_HOME;
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'askloop', 'sessions.db');
  if (platform === 'win32' && env.LOCALAPPDATA !== undefined && env.LOCALAPPDATA !== '') return join(env.LOCALAPPDATA, 'askloop', 'sessions.db');
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return join(home, '.local', 'share', 'askloop', 'sessions.db');
}
