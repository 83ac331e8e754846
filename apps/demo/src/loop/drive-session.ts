/**
 * Runs one loop command's controller call — `run` a new session, or
 * `resume`/`approve`/`deny` a stored one — with Ctrl-C wired to the loop's
 * signal (the loop halts `ERR_CANCELLED` after the current step, and the
 * session stays resumable), then prints the outcome and closes the
 * controller.
 */
import { isLoopError, type AgentDefinition, type AskLoopWithMetrics, type ContinueOptions, type LoopEvent, type LoopEventListener, type LoopResult } from '@askloop/controller';
import type { Userdata } from '@askloop/envelope';
import { CliError } from '../cli-error.ts';
import type { CommandIo, ExitCode } from '../io.ts';
import { formatNextSteps } from '../progress/format-summary.ts';
import { failureText } from '../progress/format-turn-parts.ts';
import { oneLine } from '../progress/format-values.ts';
import { shouldUseColor, terminalColors } from '../progress/terminal-colors.ts';
import { terminalProgress } from '../progress/terminal-progress.ts';
import { terminalSafe } from '../progress/terminal-safe.ts';
import { followKnownSecretNames } from '../known-secret-names.ts';
import { createSecretRedactor } from '../redact-secrets.ts';
import { continueArgs, REDACTED_DB_NOTE, type ContinueWith } from './continue-hint.ts';
import { damagedStoreMessage, isDamagedStore } from './damaged-store.ts';
import { refusedRights } from './host-rights.ts';
import { asCliLoopError } from './open-session-loop.ts';
import { loopExitCode, printLoopResult, stdoutText } from './print-loop-result.ts';
import { progressLines } from './progress-lines.ts';
import { grantHintLine } from './grant-hint-line.ts';
import { repairHint, repairOf } from './repair-hint.ts';
import { secretInAgentError } from './secret-in-agent-hint.ts';

/** What to do with the session. */
export type SessionAction =
  | { readonly kind: 'run'; readonly agent: AgentDefinition; readonly task: string | Userdata; /** The new session's id (default: the controller's). */ readonly sid?: string }
  | { readonly kind: 'resume' | 'approve' | 'deny'; readonly sid: string; readonly note?: string | undefined };

/** How {@link driveSession} reports. */
export interface DriveOptions {
  readonly json: boolean;
  /** Prints the events instead of the progress renderer or lines (the demo). */
  readonly onEvent?: LoopEventListener;
  readonly quiet?: boolean;
  /** Where the session is stored, for the summary. */
  readonly storedIn?: string;
  /** The SQLite sessions file (none for PostgreSQL) and what gave it (`--db`, or the config's `store.path`): a damaged one is said so, with the fix. */
  readonly sqliteFile?: { readonly path: string; readonly name?: string | undefined };
  /** The options the command was given that a continuation needs again, for the next-step hints. */
  readonly continueWith?: ContinueWith;
  /**
   * Called with the session's id once the controller is closed, when a session was run or continued (to record
   * `continueWith` with it); `ran` is false for a run given its `sid` whose session never started (nothing stored).
   */
  readonly afterLoop?: (sid: string, ran: boolean) => void;
  /**
   * The session's agent's `repair` (its stored definition's, for a continued session; a run's is its agent's), for
   * the hint after a HALT the repair could have fed back to the model. None: no hint.
   */
  readonly repair?: number;
}

/** Drives the loop, prints the result (JSON or text) and returns the exit code: 0 DONE, 3 HALT, 4 PAUSED. */
export async function driveSession(io: CommandIo, loop: AskLoopWithMetrics, action: SessionAction, options: DriveOptions): Promise<ExitCode> {
  const controller = new AbortController();
  // On a terminal the live renderer (spinner, highlighted program, tool calls, summary); in a pipe or a log,
  // one line per turn; nothing with --json or --quiet.
  const silent = options.json || options.quiet === true;
  const renderer = options.onEvent === undefined && !silent && io.stderrTerminal !== undefined ? terminalProgress(io, action.kind === 'run' && action.agent.ceilings !== undefined ? { ceilings: action.agent.ceilings } : {}) : undefined;
  let interruptedBy: 'SIGINT' | 'SIGTERM' | undefined;
  let callStarted = false;
  // Whether the first interrupt came once the controller was called (before it, the call is refused at once).
  let interruptedDuringCall = false;
  const stopListening = io.onInterrupt?.((signal) => {
    if (interruptedBy === undefined) interruptedDuringCall = callStarted;
    interruptedBy ??= signal;
    controller.abort();
    // Stop the spinner before the message, so the message gets a line of its own.
    renderer?.close();
    io.stderr(signal === 'SIGINT' ? 'askloop: stopping after the current step (Ctrl-C again to quit at once)\n' : 'askloop: SIGTERM: stopping after the current step (a second one quits at once)\n');
  });
  const shown = options.onEvent ?? renderer?.onEvent ?? (silent ? undefined : progressLines(io));
  // What is printed passes the redactor `show` and the viewer use: a model or a tool may echo a key of the environment.
  const redact = createSecretRedactor(io.env, followKnownSecretNames(io));
  const print = shown === undefined ? undefined : (event: LoopEvent) => shown(redact(event) as LoopEvent);
  // The last turn's failure (a provider error, a refusal) says why a HALT happened; the result alone only names the reason.
  let failure: { code: string; message: string } | undefined;
  // The session the loop started (not an ask's child), so an error thrown mid-loop can name it.
  let started: string | undefined;
  const onEvent: LoopEventListener = (event) => {
    if (event.type === 'decision') failure = event.record.failure === undefined ? undefined : (redact(event.record.failure) as typeof failure);
    if (event.type === 'loop-start' && event.parentSid === undefined) started ??= event.sid;
    print?.(event);
  };
  const call: ContinueOptions = { signal: controller.signal, onEvent };
  let result: LoopResult;
  callStarted = true;
  try {
    if (action.kind === 'run') result = await loop.run({ agent: action.agent, task: action.task, ...(action.sid === undefined ? {} : { sid: action.sid }), ...call });
    else if (action.kind === 'resume') result = await loop.resume(action.sid, call);
    else result = await loop[action.kind](action.sid, { ...call, ...(action.note === undefined ? {} : { note: action.note }) });
  } catch (error) {
    renderer?.close();
    // Interrupted so early that nothing began: nothing ran and nothing was stored, so there is no session to resume;
    // the shell's code for the signal. The controller's own words say what it was doing (starting the tool sources,
    // waiting for another call's turn); a signal aborted before the call began is said in the CLI's.
    // Any other error after an interrupt is reported as itself.
    if (started === undefined && interruptedBy !== undefined && isLoopError(error) && error.code === 'LOOP_CANCELLED') {
      const nothingDone = action.kind === 'run' ? 'nothing ran and no session was created' : `nothing ran and session ${action.sid} is as it was`;
      const message = interruptedDuringCall ? `interrupted: ${error.message}` : `interrupted before the loop began: ${nothingDone}`;
      throw CliError.interrupted({ code: 'LOOP_CANCELLED', message }, interruptedBy);
    }
    // A role that may read the store but not write it: the controller says its store failed (for a continued session,
    // after the session began); the fix is a GRANT, not a resume.
    const denied = await refusedRights(error, 'the sessions database refused this host');
    if (denied !== undefined) throw denied;
    // A tool source (an MCP server) that did not start: the controller lists them before it stores or changes
    // anything, so say that nothing was.
    if (started === undefined && isLoopError(error) && error.hook?.startsWith('toolSources.') === true) {
      const nothingDone = action.kind === 'run' ? 'no session was created' : `nothing ran and session ${action.sid} is as it was`;
      throw CliError.fromLoopError({ code: error.code, message: `${error.message}; ${nothingDone}` });
    }
    // A sessions file found damaged mid-way (a page the open did not read): the file and the fix, not SQLite's words.
    if (options.sqliteFile !== undefined && isDamagedStore(error)) {
      const unfinished = started === undefined ? '' : `; session ${started} is left unfinished`;
      throw CliError.fromLoopError({ code: isLoopError(error) ? error.code : 'LOOP_STORE_ERROR', message: `${damagedStoreMessage(error, options.sqliteFile.name)}${unfinished}` }, options.sqliteFile.path);
    }
    // The controller threw after the session was stored (a tool source or plugin failing in a turn): the session
    // stays `running` with no decision, so say which one it is and how to go on once the cause is fixed.
    if (started !== undefined && isLoopError(error)) {
      const args = continueArgs(options.continueWith, io.cwd);
      const note = args.dbRedacted ? ` ${REDACTED_DB_NOTE}` : '';
      throw CliError.fromLoopError({ code: error.code, message: `${error.message}; session ${started} is left unfinished (no decision was made); once the cause is fixed, continue with: askloop resume ${started}${args.text}${note}` });
    }
    // A new session refused for an environment variable's value in what its agent is: the variable, and what to do.
    const named = action.kind === 'run' ? secretInAgentError(error, action.agent, io) : undefined;
    if (named !== undefined) throw named;
    return asCliLoopError(error);
  } finally {
    stopListening?.();
    await loop.close();
    // After close: the store's connection is gone, so a second writer on the file never waits on it.
    const sid = action.kind === 'run' ? (started ?? action.sid) : action.sid;
    if (sid !== undefined) options.afterLoop?.(sid, action.kind !== 'run' || started !== undefined);
  }
  result = redact(result) as LoopResult;
  if (renderer !== undefined) {
    // The renderer's summary says what printLoopResult would on standard error (status, session); the next steps
    // follow it here, since only this command knows the options a continuation needs again.
    renderer.finish(result, { nextSteps: false, ...(options.storedIn === undefined ? {} : { dbPath: options.storedIn }) });
    const colors = terminalColors(shouldUseColor({ isTTY: true, env: io.env }));
    io.stderr(formatNextSteps(result, { colors, continueArgs: continueArgs(options.continueWith, io.cwd) }));
    if (result.result !== null && (result.status === 'DONE' || result.status === 'HALT')) io.stdout(`${stdoutText(io, result.result)}\n`);
  }
  const code = renderer === undefined ? printLoopResult(io, result, options.json, options.continueWith) : loopExitCode(result);
  // The failure's message can quote the model or a server: escaped, as every model text on standard error.
  // A provider's message names its code already (`[openai:gpt-4.1-mini] PROVIDER_CONFIG: …`): once is enough.
  if (!options.json && result.status === 'HALT' && failure !== undefined) {
    // On one line: a message quotes what the program asked for (a path, a URL), and a newline in it would print a line
    // of the program's choosing, such as a `grant:` line under this one naming a grant the call did not need.
    io.stderr(`  cause: ${oneLine(failureText(failure), Number.POSITIVE_INFINITY)}\n`);
    // A denial for want of a grant: only the operator can give one, so say what to type.
    const grant = grantHintLine(failure);
    if (grant !== undefined) io.stderr(`${terminalSafe(grant)}\n`);
    // A failure the model never saw, though the agent's repair could have shown it: say so, and how.
    const repair = options.repair ?? (action.kind === 'run' ? repairOf(action.agent) : undefined);
    const hint = repair === undefined ? undefined : repairHint(result, repair);
    if (hint !== undefined) io.stderr(`${hint}\n`);
  }
  return code;
}
