/**
 * Where a plugin that failed to load went wrong, for its `CONFIG_PLUGIN_INVALID`
 * line: a plugin author's typo used to be reported as `Unexpected identifier
 * 'b'` with no file and no line.
 * - An error thrown while the plugin's files ran names its first frame in a
 *   file (not in Node itself).
 * - A syntax error in a TypeScript file names its place at the top of its stack.
 * - A syntax error in a JavaScript module carries no place Node lets a program
 *   read, so the entry file is checked again by `node --check`, in a child
 *   process and only on this failure path; a syntax error in a file the entry
 *   imports is named as such.
 */
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `file:///x.js:3` or `/x.ts:3` alone on a line: where V8 puts a syntax error's place. */
const PLACE_LINE = /^((?:file:\/\/)?\/[^\n]*?):(\d+)\s*$/m;
/** The stack frames in a file: `at f (file:///x.js:2:18)` or `at file:///x.js:2:18`. */
const FRAMES = /^\s*at (?:.*?\()?((?:file:\/\/)?\/[^()\n]+?):(\d+):(\d+)\)?\s*$/gm;

/** A path from a stack's URL or path. */
const shownPath = (place: string): string => (place.startsWith('file://') ? fileURLToPath(place) : place);

/** ` (at FILE:LINE[:COLUMN])`, or a hint when no place is known; '' when no place in the plugin's own files is known. */
export function pluginFailureLocation(error: unknown, entryPath: string): string {
  if (!(error instanceof Error)) return '';
  // A missing module is reported by its own hint (load-config-plugins.ts).
  if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') return '';
  const stack = error.stack ?? '';
  // A syntax error in a TypeScript file: its place heads the stack.
  const placed = error.name === 'SyntaxError' ? PLACE_LINE.exec(stack) : null;
  if (placed !== null) return ` (at ${shownPath(placed[1] as string)}:${placed[2]})`;
  // The plugin's own frame, not one inside a package it calls (definePlugin refusing its fields names the field
  // itself); a SyntaxError thrown while it runs (JSON.parse in its factory) has one too.
  const folder = pluginFolder(entryPath);
  for (const frame of stack.matchAll(FRAMES)) {
    const path = shownPath(frame[1] as string);
    if (path.startsWith(folder)) return ` (at ${path}:${frame[2]}:${frame[3]})`;
  }
  if (error.name !== 'SyntaxError') return '';
  // A syntax error in a JavaScript module: no place Node lets a program read, so the entry is checked again.
  const checked = spawnSync(process.execPath, ['--check', entryPath], { encoding: 'utf8', timeout: 10_000 });
  const found = checked.status !== 0 ? PLACE_LINE.exec(checked.stderr ?? '') : null;
  if (found !== null) return ` (at ${shownPath(found[1] as string)}:${found[2]})`;
  return ` (not in ${entryPath} itself: in a file it imports; node --check FILE names the line)`;
}

/** The folder of the plugin's entry, as its stack frames name it (a linked plugin's real path), with a trailing separator. */
function pluginFolder(entryPath: string): string {
  let folder = dirname(entryPath);
  try {
    folder = realpathSync(folder);
  } catch {
    // The entry was imported from this path: keep it.
  }
  return folder.endsWith(sep) ? folder : `${folder}${sep}`;
}
