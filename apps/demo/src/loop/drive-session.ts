/**
 * Runs one loop command's controller call — `run` a new session, or
 * `resume`/`approve`/`deny` a stored one — with Ctrl-C wired to the loop's
 * signal (the loop halts `ERR_CANCELLED` after the current step, and the
 * session stays resumable), then prints the outcome and closes the
 * controller.
 */
import { resolveAgentDefinition, type AgentDefinition, type AskLoopWithMetrics, type ContinueOptions, type LoopEventListener, type LoopResult } from '@askloop/controller';
import type { Userdata } from '@askloop/envelope';
import type { CommandIo, ExitCode } from '../io.ts';
import { terminalProgress } from '../progress/terminal-progress.ts';
import { asCliLoopError } from './open-session-loop.ts';
import { printLoopResult } from './print-loop-result.ts';
import { progressLines } from './progress-lines.ts';

/** What to do with the session. */
export type SessionAction =
  | { readonly kind: 'run'; readonly agent: AgentDefinition; readonly task: string | Userdata }
  | { readonly kind: 'resume' | 'approve' | 'deny'; readonly sid: string; readonly note?: string | undefined };

/** Drives the loop, prints the result (JSON or text) and returns the exit code: 0 DONE, 3 HALT, 4 PAUSED. */
export async function driveSession(io: CommandIo, loop: AskLoopWithMetrics, action: SessionAction, options: { json: boolean; onEvent?: LoopEventListener; quiet?: boolean; dbPath?: string }): Promise<ExitCode> {
  const controller = new AbortController();
  const stopListening = io.onInterrupt?.(() => {
    io.stderr('askloop: stopping after the current step (Ctrl-C again to quit at once)\n');
    controller.abort();
  });
  const silent = options.json || options.quiet === true;
  // On a terminal, live progress (spinner, program, tool calls, decisions, summary) — beside a caller's own narration (the demo's) only the spinner and the summary;
  // in a pipe, one line per decision; nothing with --json or --quiet.
  const live = silent || io.stderrTerminal === undefined ? undefined : terminalProgress(io, { ...(action.kind === 'run' ? { ceilings: resolveAgentDefinition(action.agent).ceilings } : {}), turns: options.onEvent === undefined });
  const narrate = silent ? undefined : (options.onEvent ?? (live === undefined ? progressLines(io) : undefined));
  const print: LoopEventListener | undefined = live === undefined ? narrate : (event) => (live.onEvent(event), narrate?.(event));
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
    live?.close();
    return asCliLoopError(error);
  } finally {
    stopListening?.();
    await loop.close();
  }
  live?.finish(result, { nextSteps: false, ...(options.dbPath === undefined ? {} : { dbPath: options.dbPath }) });
  const code = printLoopResult(io, result, options.json);
  if (!options.json && result.status === 'HALT' && failure !== undefined) io.stderr(`  cause: ${failure.code}: ${failure.message}\n`);
  return code;
}
