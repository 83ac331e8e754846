/**
 * `askloop resume SID`, `askloop approve SID [--note TEXT]` and `askloop deny
 * SID [--note TEXT]`: continue a stored session in this process — after a
 * Ctrl-C or a crash, or once a person has answered a paused program.
 */
import { parseArgs } from 'node:util';
import { isLoopError } from '@askloop/controller';
import { CliError, usageError } from '../cli-error.ts';
import type { Command } from '../io.ts';
import { continueArgs, REDACTED_DB_NOTE, type ContinueWith } from '../loop/continue-hint.ts';
import { loadContinueWith, mergeContinueWith, saveContinueWith } from '../loop/continue-record.ts';
import { continueScripts, requireRunConfig, requireScriptGiven } from '../loop/continue-scripts.ts';
import { DETACH_NEEDS_POSTGRES, requeueSession } from '../loop/detach-session.ts';
import { driveSession } from '../loop/drive-session.ts';
import { endedSession, sessionEndedError } from '../loop/ended-session.ts';
import { openSessionLoop } from '../loop/open-session-loop.ts';
import { openStoredSession } from '../loop/open-stored-session.ts';
import { repairOf } from '../loop/repair-hint.ts';
import { LOOP_EXIT_USAGE, SESSION_OPTIONS, STORED_SESSION_OPTIONS_USAGE } from '../loop/session-options.ts';
import { followKnownSecretNames, knownSecretNames } from '../known-secret-names.ts';
import { refuseHeldKey } from '../redact-secrets.ts';
import { MCP_CONFIG_OPTION } from './mcp/load-mcp-config.ts';

type Action = 'resume' | 'approve' | 'deny';

const WHAT: Record<Action, string> = {
  resume: `Continues a stored session from its last decided turn: a turn cut short
(Ctrl-C, a crash) is finished from its recorded reply and program, without
asking the model again; write tools replay their recorded results. A turn
whose model call failed (HALT ERR_PROVIDER: no key, an outage, a rate limit)
asks the model again. A session that already ended (DONE, or another HALT)
is not run again: nothing runs, and resume says so (CLI_SESSION_ENDED, exit 1).`,
  approve: `Approves what a paused session waits on (a program using a tool that
needs approval, or a v1 [[loop:await]]): it runs, and the loop goes on.`,
  deny: `Denies the program a paused session waits on: nothing of it runs, and
the loop halts ERR_PERMISSIONS (or, under the agent's repair, feeds the
denial back to the model).`,
};

function continueCommand(action: Action): Command {
  const note = action === 'resume' ? '' : ' [--note TEXT]';
  return {
    usage: `Usage: askloop ${action} SID${note} [--db FILE] [--config FILE] [--script FILE] [--fs-root DIR] [--mcp-config FILE]${action === 'resume' ? ' [--detach]' : ''} [--quiet] [--json]

${WHAT[action]}

Options:
${action === 'resume' ? '  --detach          with --db postgres://…: queue the session again for\n                    `askloop worker` instead of running it here (a session a\n                    worker parked failed, once its cause is fixed).\n' : '  --note TEXT       stored with the decision in the session record.\n'}  --script FILE     for a session run with --script (or by askloop mcp serve
                    --script): the same file; the replies the session has not
                    used yet answer its next turns.
${STORED_SESSION_OPTIONS_USAGE}
  --mcp-config FILE the MCP servers of a session run with --mcp-config: the same file.
Give the same --db, --config, --fs-root and --mcp-config as the run.

With --json prints the same object as askloop run --json.

${LOOP_EXIT_USAGE}
`,
    jsonErrors: (args) => args.includes('--json'),
    async run(args, io) {
      const { values, positionals } = parseArgs({
        args,
        options: { ...SESSION_OPTIONS, ...MCP_CONFIG_OPTION, script: { type: 'string' }, ...(action === 'resume' ? { detach: { type: 'boolean' } } : { note: { type: 'string' } }) },
        allowPositionals: true,
        strict: true,
      });
      if (positionals.length !== 1) throw usageError(`askloop ${action} takes one session id (SID), got ${positionals.length}`);
      // As a task is (run.ts): the note goes to the model in the next turn's system text.
      const noteGiven = (values as { note?: string }).note;
      const detach = (values as { detach?: boolean }).detach === true;
      const { sid, store, plugins, providers, http, fsRoot, storedIn, configFile, sqlitePath, storeName, pool } = await openStoredSession(values, positionals[0]!, io, detach ? { needsPostgres: DETACH_NEEDS_POSTGRES } : {});
      // If it pauses or is cancelled again, the next step needs the options of this command, and those of the run
      // that this command was not given (recorded with the session): `resume SID --db FILE` alone prints them all.
      const given = { db: values.db, config: configFile, script: values.script, fsRoot, mcpConfig: values['mcp-config'] };
      const recorded = sqlitePath === undefined ? {} : loadContinueWith(sqlitePath, sid);
      const continueWith = sqlitePath === undefined ? given : mergeContinueWith(given, recorded);
      let scripts: Record<string, string[]>;
      let repair: number;
      try {
        // Once the config is read (a variable it hands to an MCP server or a plugin holds a key too), before the session is touched.
        if (noteGiven !== undefined) refuseHeldKey(noteGiven, io.env, '--note', 'leave the key out of the note', knownSecretNames(io));
        // A session that ended (DONE, or HALT other than a Ctrl-C) has nothing to resume: say so rather than reprint its end.
        const ended = action === 'resume' ? await endedSession(store, sid) : undefined;
        // The show it suggests must find the same store (a PostgreSQL one too, its password hidden).
        if (ended !== undefined) throw sessionEndedError(sid, ended, continueArgs({ db: values.db }, io.cwd).text);
        const session = await store.getSession(sid);
        if (detach) return await requeueSession(io, store, pool, sid, session?.status === 'paused', values.json === true);
        if (values.script === undefined) requireScriptGiven(session, sid, action, continueWith, io.cwd);
        requireRunConfig(session, configFile, recorded.config, sid, action, continueWith, io.cwd);
        scripts = await continueScripts(store, sid, session, values.script, io);
        repair = repairOf(session?.agentDefinition);
      } catch (error) {
        await store.close();
        // A store that fails reading the session (a damaged file) is reported with its code, as `show` reports it.
        throw isLoopError(error) ? CliError.fromLoopError(error) : error;
      }
      const { loop } = openSessionLoop({ store, fsRoot, scripts, plugins, providers, http, env: io.env, secretNames: followKnownSecretNames(io) });
      const noteText = (values as { note?: string }).note;
      const afterLoop = sqlitePath === undefined ? undefined : (id: string) => saveContinueWith(sqlitePath, id, continueWith, io.cwd);
      try {
        return await driveSession(io, loop, { kind: action, sid, note: noteText }, { json: values.json === true, quiet: values.quiet === true, storedIn, ...(sqlitePath === undefined ? {} : { sqliteFile: { path: sqlitePath, name: storeName } }), continueWith, repair, ...(afterLoop === undefined ? {} : { afterLoop }) });
      } catch (error) {
        throw withProviderHint(error, action, sid, continueWith, given, io.cwd);
      }
    },
  };
}

/**
 * A provider the session's model needs is missing (most often the plugin of a config this command was not given), or
 * a tool its checked program calls (the plugin of that config, a server of its --mcp-config): nothing ran or was
 * recorded, so say the command with the options the run was given (kept with the session), to paste.
 */
function withProviderHint(error: unknown, action: Action, sid: string, continueWith: ContinueWith, given: ContinueWith, cwd: string): unknown {
  if (!(error instanceof CliError) || (error.code !== 'LOOP_PROVIDER_NOT_FOUND' && error.code !== 'LOOP_TOOLS_MISSING')) return error;
  const args = continueArgs(continueWith, cwd);
  const note = args.dbRedacted ? ` ${REDACTED_DB_NOTE}` : '';
  if (error.code === 'LOOP_TOOLS_MISSING') {
    // Only when the sessions file kept options this command lacks: else the command would be the one that failed.
    if (args.text === continueArgs(given, cwd).text) return error;
    return CliError.fromLoopError({ code: error.code, message: `${error.message}. The options of the run: askloop ${action} ${sid}${args.text}${note}` });
  }
  const recorded = action === 'resume' ? 'nothing ran' : `nothing was recorded and session ${sid} still waits`;
  return CliError.fromLoopError({ code: error.code, message: `${error.message}; ${recorded}. Give the options of the run (its --config loads the plugins): askloop ${action} ${sid}${args.text}${note}` });
}

/** `askloop resume SID`. */
export const resumeCommand: Command = continueCommand('resume');
/** `askloop approve SID [--note TEXT]`. */
export const approveCommand: Command = continueCommand('approve');
/** `askloop deny SID [--note TEXT]`. */
export const denyCommand: Command = continueCommand('deny');
