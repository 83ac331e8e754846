/**
 * The options a continuation (`askloop resume|approve|deny SID`) needs to
 * find and run the session as it ran: the store (`--db`), the config (its
 * plugins, agents and store), the scripted model's replies (`--script`), the
 * fs root and the MCP servers. Printed with the next steps after a pause or a
 * Ctrl-C: without them a continued turn halts (no `--script`:
 * `ERR_PROVIDER`; no MCP tools: `ERR_PERMISSIONS`), or the session is not
 * found. Paths are made absolute, so the hint works from any directory, and
 * every word is shell-quoted; a store URL's password is never shown.
 */
import { resolve } from 'node:path';
import { redactUrl } from './redact-url.ts';
import { isPostgresUrl } from './store-location.ts';
import { shellQuote } from '../shell-quote.ts';

/** What the command that ran (or continued) the session was given; paths as typed, `fsRoot` already resolved. */
export interface ContinueWith {
  readonly db?: string | undefined;
  /** The config file in use (given with `--config` or found in the current directory). */
  readonly config?: string | undefined;
  readonly script?: string | undefined;
  readonly fsRoot?: string | undefined;
  readonly mcpConfig?: string | undefined;
}

/** The options as shell words, and whether `--db` had to be shown without its password. */
export interface ContinueArgs {
  /** ` --db … --config …`, each word quoted; empty when none is needed. */
  readonly text: string;
  /** True when the store URL carries a secret the hint does not show: the user must pass the same `--db`. */
  readonly dbRedacted: boolean;
}

/** The continuation options of `given`, resolved against `cwd`. */
export function continueArgs(given: ContinueWith | undefined, cwd: string): ContinueArgs {
  if (given === undefined) return { text: '', dbRedacted: false };
  const words: string[] = [];
  let dbRedacted = false;
  if (given.db !== undefined) {
    if (isPostgresUrl(given.db)) {
      const redacted = redactUrl(given.db);
      dbRedacted = redacted.includes('***') && !given.db.includes('***');
      words.push('--db', dbRedacted ? redacted : given.db);
    } else words.push('--db', resolve(cwd, given.db));
  }
  if (given.config !== undefined) words.push('--config', resolve(cwd, given.config));
  if (given.script !== undefined) words.push('--script', resolve(cwd, given.script));
  if (given.fsRoot !== undefined) words.push('--fs-root', resolve(cwd, given.fsRoot));
  if (given.mcpConfig !== undefined) words.push('--mcp-config', resolve(cwd, given.mcpConfig));
  return { text: words.map((word) => ` ${shellQuote(word)}`).join(''), dbRedacted };
}

/** The note after a hint whose `--db` lost its password. */
export const REDACTED_DB_NOTE = '(the password of --db is not shown: pass the same --db as this run)';
