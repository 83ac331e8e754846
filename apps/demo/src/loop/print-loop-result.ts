/**
 * How every loop command (`run`, `demo`, `resume`, `approve`, `deny`) ends:
 * one JSON object with `--json`, else a short report; and one exit code per
 * status — 0 DONE, 3 HALT, 4 PAUSED (waiting for `askloop approve|deny`).
 */
import type { LoopResult } from '@askloop/controller';
import type { CommandIo, ExitCode } from '../io.ts';

/** Exit code of a HALT: the loop ran and stopped without an answer. */
export const EXIT_HALT = 3;
/** Exit code of a PAUSED session: a program waits for `askloop approve|deny SID`. */
export const EXIT_PAUSED = 4;

/** The `--json` object, exactly these keys in this order. */
export interface LoopJson {
  status: LoopResult['status'];
  reason: string | null;
  result: string | null;
  turns: number;
  sid: string;
  decisions: { turn: number; decision: string; reason: string | null }[];
}

/** The `--json` object of a result (`usage` stays out: the shape is fixed for scripts). */
export function loopJson(result: LoopResult): LoopJson {
  return {
    status: result.status,
    reason: result.reason,
    result: result.result,
    turns: result.turns,
    sid: result.sid,
    decisions: result.decisions.map(({ turn, decision, reason }) => ({ turn, decision, reason })),
  };
}

/** The exit code of a result: 0 DONE, 3 HALT, 4 PAUSED (RUNNING, after a single step, is 0). */
export function loopExitCode(result: LoopResult): ExitCode {
  if (result.status === 'HALT') return EXIT_HALT;
  if (result.status === 'PAUSED') return EXIT_PAUSED;
  return 0;
}

/**
 * Prints the outcome: the JSON object on standard output, or the final
 * result on standard output and what to do next on standard error.
 */
export function printLoopResult(io: CommandIo, result: LoopResult, json: boolean): ExitCode {
  if (json) {
    io.stdout(`${JSON.stringify(loopJson(result))}\n`);
    return loopExitCode(result);
  }
  const turns = `${result.turns} turn${result.turns === 1 ? '' : 's'}`;
  if (result.status === 'DONE') {
    io.stderr(`askloop: DONE after ${turns} (session ${result.sid})\n`);
    io.stdout(`${result.result ?? ''}\n`);
  } else if (result.status === 'PAUSED') {
    io.stderr(
      `askloop: PAUSED (${result.reason}) after ${turns}: session ${result.sid} waits for a person to answer.\n` +
        `  approve: askloop approve ${result.sid} [--note TEXT]\n` +
        `  deny:    askloop deny ${result.sid} [--note TEXT]\n`,
    );
  } else if (result.status === 'HALT') {
    const resumable = result.reason === 'ERR_CANCELLED' ? `; continue with: askloop resume ${result.sid}` : '';
    io.stderr(`askloop: HALT ${result.reason} after ${turns} (session ${result.sid})${resumable}\n`);
    if (result.result !== null) io.stdout(`${result.result}\n`);
  } else io.stderr(`askloop: RUNNING after ${turns} (session ${result.sid})\n`);
  return loopExitCode(result);
}
