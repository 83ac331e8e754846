/**
 * `askloop replay SID [--db FILE] [--json]`: re-runs a stored session with
 * its recorded model replies, tool results and approvals (no model is asked,
 * no write tool acts again) and compares every turn's digest, decision and
 * OUTPUT with the recording.
 */
import { parseArgs } from 'node:util';
import { usageError } from '../cli-error.ts';
import { failureText } from '../progress/format-turn-parts.ts';
import { oneLine } from '../progress/format-values.ts';
import { terminalSafe } from '../progress/terminal-safe.ts';
import type { Command } from '../io.ts';
import { asCliLoopError, openSessionLoop } from '../loop/open-session-loop.ts';
import { continueArgs, type ContinueWith } from '../loop/continue-hint.ts';
import { loadContinueWith, mergeContinueWith } from '../loop/continue-record.ts';
import { openStoredSession } from '../loop/open-stored-session.ts';
import { REPLAY_OPTIONS_USAGE, REPLAY_SESSION_OPTIONS } from '../loop/session-options.ts';
import { MCP_CONFIG_OPTION } from './mcp/load-mcp-config.ts';
import { followKnownSecretNames } from '../known-secret-names.ts';
import { createSecretRedactor } from '../redact-secrets.ts';

/**
 * A compared value on one line, cut to 200 characters. JSON escapes the C0 controls but leaves the C1 ones and the
 * bidi controls (a recorded OUTPUT's `\u202e`, `\x9b`) raw: escaped as all stored text printed to a terminal is.
 */
const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'undefined';
  return terminalSafe(text.length > 200 ? `${text.slice(0, 200)}…` : text);
};

/**
 * The tool options to replay with: the command to paste when the run recorded options this replay was not given
 * (kept with the session in its sessions file, as `resume` and `approve` print them), else the options to look for.
 */
function replayWith(sid: string, given: ContinueWith, sqlitePath: string | undefined, cwd: string): string {
  const recorded = sqlitePath === undefined ? {} : loadContinueWith(sqlitePath, sid);
  // A replay asks no model: the run's --script is not among its options.
  const merged = { ...mergeContinueWith(given, recorded), script: undefined };
  const missing = merged.config !== given.config || merged.fsRoot !== given.fsRoot || merged.mcpConfig !== given.mcpConfig;
  return missing ? `: askloop replay ${sid}${continueArgs(merged, cwd).text}` : ' (--fs-root, --mcp-config, --config)';
}

/** `askloop replay`. */
export const replayCommand: Command = {
  usage: `Usage: askloop replay SID [--db FILE] [--config FILE] [--fs-root DIR] [--mcp-config FILE] [--json]

Re-runs the stored session SID with its recorded replies, tool results and
approvals — no model call, no write tool acting twice — and compares each
turn's progress digest, decision and OUTPUT with the recording. Prints
"matched" or the first divergence (turn, field, recorded and replayed values).
No model is asked, so neither its key nor a --script is needed; the tool
options of the run are (its --fs-root, --mcp-config, --config).

Options:
${REPLAY_OPTIONS_USAGE}
  --mcp-config FILE the MCP servers of a session run with --mcp-config: the same file.
With --json prints {"sid":"…","matched":true|false,"turns":N,
  "divergence":null|{"turnIndex":N,"field":"…","recorded":…,"replayed":…}}.

Exit codes: 0 the replay matched; 1 it diverged (the first divergence is
printed), or the session is not in the sessions file or the file is broken;
2 a usage error or no sessions file.
`,
  jsonErrors: (args) => args.includes('--json'),
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { ...REPLAY_SESSION_OPTIONS, ...MCP_CONFIG_OPTION }, allowPositionals: true, strict: true });
    if (positionals.length !== 1) throw usageError(`askloop replay takes one session id (SID), got ${positionals.length}`);
    const { sid, store, plugins, providers, http, fsRoot, configFile, sqlitePath } = await openStoredSession(values, positionals[0]!, io, { readOnly: true });
    // The secrets the run hid (the environment's, and the variables the config and --mcp-config name) are hidden in the
    // replay too, so that it stores (in memory) and compares what the run stored; and out of what it prints.
    const { loop } = openSessionLoop({ store, fsRoot, plugins, providers, http, env: io.env, secretNames: followKnownSecretNames(io) });
    let report;
    try {
      report = await loop.replay(sid);
    } catch (error) {
      return asCliLoopError(error);
    } finally {
      await loop.close();
    }
    report = createSecretRedactor(io.env, followKnownSecretNames(io))(report) as typeof report;
    if (values.json === true) io.stdout(`${JSON.stringify(report)}\n`);
    else if (report.matched) io.stdout(`replay of ${sid}: matched (${report.turns} turn${report.turns === 1 ? '' : 's'})\n`);
    else {
      const divergence = report.divergence!;
      io.stdout(`replay of ${sid}: diverged at turn ${divergence.turnIndex}, ${divergence.field}: recorded ${show(divergence.recorded)}, replayed ${show(divergence.replayed)}\n`);
      const failure = divergence.replayedFailure;
      if (failure !== undefined) {
        // Most often the replaying host lacks a tool or a setting the session's host had.
        const given = { db: values.db, config: configFile, fsRoot, mcpConfig: values['mcp-config'] };
        const hint = /TOOL_(NOT_FOUND|UNKNOWN|DENIED)|not found|not allowed/i.test(`${failure.code} ${failure.message}`) ? ` — replay with the tool options the session ran with${replayWith(sid, given, sqlitePath, io.cwd)}; a tool an MCP server added while the session ran (its list changed) is not there until the server adds it again` : '';
        io.stdout(`  the replayed turn failed: ${oneLine(failureText(failure), 300)}${hint}\n`);
      }
    }
    return report.matched ? 0 : 1;
  },
};
