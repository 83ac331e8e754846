/**
 * How every loop command (`run`, `demo`, `resume`, `approve`, `deny`) ends:
 * one JSON object with `--json`, else a short report; and one exit code per
 * status — 0 DONE, 3 HALT, 4 PAUSED (waiting for `askloop approve|deny`).
 * Model text reaches a terminal escaped, a pipe byte for byte.
 */
import { codeOnce } from '../progress/format-turn-parts.ts';
import { isResumableHalt, type LoopResult } from '@askloop/controller';
import type { CommandIo, ExitCode } from '../io.ts';
import { terminalSafe } from '../progress/terminal-safe.ts';
import { continueArgs, REDACTED_DB_NOTE, type ContinueWith } from './continue-hint.ts';

/** Exit code of a HALT: the loop ran and stopped without an answer. */
export const EXIT_HALT = 3;
/** Exit code of a PAUSED session: a program waits for `askloop approve|deny SID`. */
export const EXIT_PAUSED = 4;

/** The `--json` object: these keys in this order, `message` and `failure` only when the loop stopped with them. */
export interface LoopJson {
  status: LoopResult['status'];
  reason: string | null;
  result: string | null;
  turns: number;
  sid: string;
  decisions: { turn: number; decision: string; reason: string | null }[];
  /** Why a HALT or PAUSE happened, as the decision says it. */
  message?: string;
  /**
   * The last turn's failure, when it had one: what a HALT's reason alone does not say (PROVIDER_AUTH or an outage);
   * with `grant` (the grant to add, unquoted, and the denial's code) when a tool call was denied for want of one.
   */
  failure?: { code: string; kind: string; message: string; grant?: { capability: string; code: string } };
}

/** The `--json` object of a result (`usage` stays out: the shape is fixed for scripts; keys are only ever added). */
export function loopJson(result: LoopResult): LoopJson {
  const { failure } = result;
  return {
    status: result.status,
    reason: result.reason,
    result: result.result,
    turns: result.turns,
    sid: result.sid,
    decisions: result.decisions.map(({ turn, decision, reason }) => ({ turn, decision, reason })),
    // With its code once (a provider's message names it again); the stored decision keeps its own text.
    ...(result.status !== 'DONE' && typeof result.message === 'string' ? { message: codeOnce(result.message) } : {}),
    ...(failure === undefined || failure === null
      ? {}
      : { failure: { code: failure.code, kind: failure.kind, message: failure.message, ...(failure.grant === undefined ? {} : { grant: { capability: failure.grant.capability, code: failure.grant.code } }) } }),
  };
}

/** The exit code of a result: 0 DONE, 3 HALT, 4 PAUSED (RUNNING, after a single step, is 0). */
export function loopExitCode(result: LoopResult): ExitCode {
  if (result.status === 'HALT') return EXIT_HALT;
  if (result.status === 'PAUSED') return EXIT_PAUSED;
  return 0;
}

/**
 * Text from the model (a result, a reason, a message) as written to standard
 * output: escaped (`\x1b`) when it is a terminal, so a reply cannot recolour
 * the screen or retitle the window; byte for byte in a pipe, where scripts
 * read it.
 */
export function stdoutText(io: CommandIo, text: string): string {
  return io.stdoutIsTerminal === true ? terminalSafe(text) : text;
}

/**
 * Where a paused loop stopped. `turns` counts decided turns, and a turn held
 * for approval is not decided until its program runs: "after 0 turns" beside
 * the progress line's "turn 1: PAUSE" read as a contradiction, so the pause
 * names its turn.
 */
export function pausedWhere(result: LoopResult): string {
  const turn = result.decisions.at(-1)?.turn ?? result.turns;
  return result.reason === 'AWAITING_APPROVAL' ? `at turn ${turn}, before its program ran` : `at turn ${turn}`;
}

/**
 * Prints the outcome: the JSON object on standard output, or the final
 * result on standard output and what to do next on standard error (with
 * the options a continuation needs, from `continueWith`).
 */
export function printLoopResult(io: CommandIo, result: LoopResult, json: boolean, continueWith?: ContinueWith): ExitCode {
  if (json) {
    io.stdout(`${JSON.stringify(loopJson(result))}\n`);
    return loopExitCode(result);
  }
  const turns = `${result.turns} turn${result.turns === 1 ? '' : 's'}`;
  // The reason is the controller's code, but a stored record could say anything: it never reaches the terminal raw.
  const reason = terminalSafe(String(result.reason));
  const args = continueArgs(continueWith, io.cwd);
  const note = args.dbRedacted ? `  ${REDACTED_DB_NOTE}\n` : '';
  if (result.status === 'DONE') {
    io.stderr(`askloop: DONE after ${turns} (session ${result.sid})\n`);
    io.stdout(`${stdoutText(io, result.result ?? '')}\n`);
  } else if (result.status === 'PAUSED') {
    io.stderr(
      terminalSafe(
        `askloop: PAUSED (${reason}) ${pausedWhere(result)}: session ${result.sid} waits for a person to answer.\n` +
          // What is to be approved (the tools the program calls, or the model's v1 reason), as the terminal view and --json say.
          (result.message === null || result.message.trim() === '' ? '' : `  why:     ${result.message.replace(/\s*\r?\n\s*/g, ' ')}\n`) +
          `  approve: askloop approve ${result.sid}${args.text} [--note TEXT]\n` +
          `  deny:    askloop deny ${result.sid}${args.text} [--note TEXT]\n${note}`,
      ),
    );
  } else if (result.status === 'HALT') {
    const resumable = isResumableHalt(result.reason, result.failure) ? `; continue with: askloop resume ${result.sid}${args.text}\n${note}` : '\n';
    io.stderr(terminalSafe(`askloop: HALT ${reason} after ${turns} (session ${result.sid})${resumable}`));
    if (result.result !== null) io.stdout(`${stdoutText(io, result.result)}\n`);
  } else io.stderr(`askloop: RUNNING after ${turns} (session ${result.sid})\n`);
  return loopExitCode(result);
}
