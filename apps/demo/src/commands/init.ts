/**
 * `askloop init [FILE] [--force] [--json]`: writes a commented
 * `askloop.config.yaml` (agents, models, quotas, store, plugins, MCP servers)
 * that loads as it is. It never overwrites a file unless told to.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { usageError } from '../cli-error.ts';
import { CONFIG_FILE_NAME } from '../config/discover-config.ts';
import { ConfigError } from '../config/config-error.ts';
import { CONFIG_TEMPLATE } from '../config/config-template.ts';
import type { Command } from '../io.ts';

/** `askloop init`. */
export const initCommand: Command = {
  usage: `Usage: askloop init [FILE] [--force] [--json]

Writes a commented ${CONFIG_FILE_NAME} (or FILE) in the current directory:
agents, model defaults, quotas and ceilings, the sessions store, plugins
(installed packages that default-export an AskLoop plugin) and MCP servers.
askloop run, resume, approve, deny and replay read it from the current
directory, or from --config FILE. API keys never go in it: providers read
them from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, …).

Options:
  --force   overwrite an existing file.
  --json    print {"ok":true,"file":"…"} instead of the next steps.
`,
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { force: { type: 'boolean' }, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    if (positionals.length > 1) throw usageError(`askloop init takes at most one FILE, not ${positionals.length}`);
    const shown = positionals[0] ?? CONFIG_FILE_NAME;
    const file = resolve(io.cwd, shown);
    // A directory is not a file --force could overwrite: say what it is, and the file name that would work.
    if (existsSync(file) && statSync(file).isDirectory()) throw new ConfigError('CONFIG_UNREADABLE', `is a directory; give a file name, e.g. askloop init ${join(shown, CONFIG_FILE_NAME)}`, { file: shown });
    if (existsSync(file) && values.force !== true) throw new ConfigError('CONFIG_EXISTS', 'the file already exists; keep it, or pass --force to overwrite it', { file: shown });
    try {
      writeFileSync(file, CONFIG_TEMPLATE, { mode: 0o644 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Node's own words quote the path and the call; say what is wrong in the user's terms.
      const why = code === 'ENOENT' ? `the folder ${dirname(file)} does not exist; create it first (mkdir -p)` : code === 'EACCES' || code === 'EPERM' ? `no permission to write in ${dirname(file)}` : (error as Error).message;
      throw new ConfigError('CONFIG_UNREADABLE', `cannot write it: ${why}`, { file: shown });
    }
    if (values.json === true) io.stdout(`${JSON.stringify({ ok: true, file })}\n`);
    else {
      const here = relative(io.cwd, file) === CONFIG_FILE_NAME ? '' : ` --config ${shown}`;
      io.stdout(`Wrote ${shown}. Next:\n  1. set your provider's key in the environment, e.g. export OPENAI_API_KEY=…\n  2. askloop run${here} --agent hello "How many words are in 'the quick brown fox'?"\n  3. askloop sessions, then askloop show SID\n`);
    }
    return 0;
  },
};
