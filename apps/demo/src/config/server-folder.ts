/**
 * The folder a stdio MCP server starts in, for `mcpServers:` in
 * askloop.config.yaml and `--mcp-config FILE` alike: its `cwd` resolved
 * against the folder of the file that names it (`~` is the home folder), and
 * that folder when it names none. A server's relative paths (`args:
 * [notes]`, `--repository .`) then mean the same wherever the command is
 * typed, as `store.path` does, and a printed next step (`askloop approve …
 * --mcp-config FILE`) pasted in another folder acts on the same files. A
 * folder that does not exist is named before the server starts (spawning in
 * it failed as `spawn sh ENOENT`, which blames the command).
 */
import type { McpServerConfig } from '@askloop/mcp';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

/** `server` with `cwd` absolute (a URL server unchanged), or the problem with its folder (worded to follow the server's name). */
export function inServerFolder(server: McpServerConfig, fileDir: string, home: string | undefined): { server: McpServerConfig } | { problem: string } {
  if (!('command' in server)) return { server };
  const written = server.cwd;
  const inHome = written !== undefined && home !== undefined && (written === '~' || written.startsWith('~/'));
  const expanded = inHome ? `${home}${written.slice(1)}` : written;
  const cwd = resolve(fileDir, expanded ?? '.');
  let folder = false;
  try {
    folder = statSync(cwd).isDirectory();
  } catch {
    folder = false;
  }
  const read = written === undefined ? '' : inHome ? ` ('${written}', under your home folder)` : ` ('${written}', relative to the folder of the file that names the server)`;
  if (!folder) return { problem: `cwd: no folder ${cwd}${read}; create it or fix cwd` };
  return { server: { ...server, cwd } };
}
