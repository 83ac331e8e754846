/**
 * Runs one loop command's controller call — `run` a new session, or
 * `resume`/`approve`/`deny` a stored one — with Ctrl-C wired to the loop's
 * signal (the loop halts `ERR_CANCELLED` after the current step, and the
 * session stays resumable), then prints the outcome and closes the
 * controller.
 */
import type { AgentDefinition, AskLoopWithMetrics, ContinueOptions, LoopEventListener, LoopResult } from '@askloop/controller';
import type { Userdata } from '@askloop/envelope';
import type { CommandIo, ExitCode } from '../io.ts';
import { terminalProgress } from '../progress/terminal-progress.ts';
import { asCliLoopError } from './open-session-loop.ts';
import { loopExitCode, printLoopResult } from './print-loop-result.ts';
import { progressLines } from './progress-lines.ts';

/** What to do with the session. */
export type SessionAction =
  | { readonly kind: 'run'; readonly agent: AgentDefinition; readonly task: string | Userdata }
  | { readonly kind: 'resume' | 'approve' | 'deny'; readonly sid: string; readonly note?: string | undefined };

/** Drives the loop, prints the result (JSON or text) and returns the exit code: 0 DONE, 3 HALT, 4 PAUSED. */
export async function driveSession(io: CommandIo, loop: AskLoopWithMetrics, action: SessionAction, options: { json: boolean; onEvent?: LoopEventListener; quiet?: boolean; storedIn?: string }): Promise<ExitCode> {
  const controller = new AbortController();
  // On a terminal the live renderer (spinner, highlighted program, tool calls, summary); in a pipe or a log,
  // one line per turn; nothing with --json or --quiet.
  const silent = options.json || options.quiet === true;
  const renderer = options.onEvent === undefined && !silent && io.stderrTerminal !== undefined ? terminalProgress(io, action.kind === 'run' && action.agent.ceilings !== undefined ? { ceilings: action.agent.ceilings } : {}) : undefined;
  const stopListening = io.onInterrupt?.(() => {
    controller.abort();
    // Stop the spinner before the message, so the message gets a line of its own.
    renderer?.close();
    io.stderr('askloop: stopping after the current step (Ctrl-C again to quit at once)\n');
  });
  const print = options.onEvent ?? renderer?.onEvent ?? (silent ? undefined : progressLines(io));
  // The last turn's failure (a provider error, a refusal) says why a HALT happened; the result alone only names the reason.
  let failure: { code: string; message: string } | undefined;
  const onEvent: LoopEventListener = (event) => {
    if (event.type === 'decision') failure = event.record.failure;
    print?.(event);
  };
  const call: ContinueOptions = { signal: controller.signal, onEvent };
  let result: LoopResult;
  try {
    if (action.kind === 'run') result = await loop.run({ agent: action.agent, task: action.task, ...call });
    else if (action.kind === 'resume') result = await loop.resume(action.sid, call);
    else result = await loop[action.kind](action.sid, { ...call, ...(action.note === undefined ? {} : { note: action.note }) });
  } catch (error) {
    renderer?.close();
    return asCliLoopError(error);
  } finally {
    stopListening?.();
    await loop.close();
  }
  if (renderer !== undefined) {
    // The renderer's summary says what printLoopResult would on standard error (status, session, how to go on).
    renderer.finish(result, options.storedIn === undefined ? {} : { dbPath: options.storedIn });
    if (result.result !== null && (result.status === 'DONE' || result.status === 'HALT')) io.stdout(`${result.result}\n`);
  }
  const code = renderer === undefined ? printLoopResult(io, result, options.json) : loopExitCode(result);
  if (!options.json && result.status === 'HALT' && failure !== undefined) io.stderr(`  cause: ${failure.code}: ${failure.message}\n`);
  return code;
}
