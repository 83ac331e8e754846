/**
 * Scans ONLY the current turn's OUTPUT for the dialect's control signal
 * (seed 002 §4: never USERDATA or SCRATCHPAD): the v4 `<<<LOOP:DONE>>>`
 * marker, or the v1 control JSON line and `[[loop:…]]` markers. Only what
 * the program emitted counts: the host's own SYSTEM_ERROR line carries text
 * from error messages (a tool's, a server's, `fail "…"`), which must never
 * be able to stop or steer the loop.
 */
import { scanDoneMarker, scanLoopControlV1 } from '@askloop/envelope';
import type { ControlSignal } from '../loop/turn-record.ts';

/** The control signal of one turn's OUTPUT. */
export function scanControl(dialect: 'v4' | 'v1', emits: readonly string[]): ControlSignal {
  if (dialect === 'v4') {
    const scan = scanDoneMarker(emits);
    return { dialect, signal: scan.done ? 'done' : 'none', result: scan.result, lints: scan.lints.map(({ code, message }) => ({ code, message })) };
  }
  const output = emits.join('\n');
  const scan = scanLoopControlV1(output);
  const winner = scan.winner;
  if (winner === null) return { dialect, signal: 'none', lints: [] };
  const signals = new Set(scan.found.map((found) => found.signal));
  const lints = signals.size > 1 ? [{ code: 'LINT_MULTIPLE_MARKERS', message: `OUTPUT holds ${[...signals].join(', ')}; ${winner.signal} wins (abort > halt > await > done > continue)` }] : [];
  return {
    dialect,
    signal: winner.signal,
    ...(winner.reason === undefined ? {} : { reason: winner.reason }),
    ...(winner.signal === 'done' ? { result: doneResult(output) } : {}),
    lints,
  };
}

/** A v1 done's result: OUTPUT without the control JSON line and the markers. */
function doneResult(output: string): string | null {
  const lines = output.split(/\r?\n/);
  if (lines[0]?.trim().startsWith('{') === true && /"loop"\s*:/.test(lines[0])) lines.shift();
  const text = lines.map((line) => line.replace(/\[\[loop:[a-z]+(?::[^\]]*)?\]\]/g, '')).join('\n').trim();
  return text === '' ? null : text;
}
