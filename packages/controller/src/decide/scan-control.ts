/**
 * Scans ONLY the current turn's OUTPUT for the dialect's control signal
 * (seed 002 §4: never USERDATA or SCRATCHPAD): the v4 `<<<LOOP:DONE>>>`
 * marker, or the v1 control JSON line and `[[loop:…]]` markers. Only what
 * the program emitted counts: the host's own SYSTEM_ERROR line carries text
 * from error messages (a tool's, a server's, `fail "…"`), which must never
 * be able to stop or steer the loop. Nor can data the program only passed
 * on: given the program's text (`actions`), a v4 marker ends the loop only
 * when the program itself writes `<<<LOOP:DONE>>>`; a program that echoes a
 * file or a web page holding the marker does not end the loop
 * (`LINT_DONE_FROM_DATA`; in the v1 dialect, `LINT_CONTROL_FROM_DATA`).
 */
import { LOOP_DONE_MARKER, scanDoneMarker, scanLoopControlV1, strongestSignal } from '@askloop/envelope';
import type { ControlSignal } from '../loop/turn-record.ts';

/** The control signal of one turn's OUTPUT; `actions`, the program that emitted it, when known. */
export function scanControl(dialect: 'v4' | 'v1', emits: readonly string[], actions?: string): ControlSignal {
  if (dialect === 'v4') {
    const scan = scanDoneMarker(emits);
    const lints: { code: string; message: string }[] = scan.lints.map(({ code, message }) => ({ code, message }));
    if (scan.done && actions !== undefined && !actions.includes(LOOP_DONE_MARKER)) {
      lints.push({ code: 'LINT_DONE_FROM_DATA', message: `OUTPUT holds ${LOOP_DONE_MARKER}, but the program does not write it: it came from data the program emitted (a file, a tool result, the task), so it does not end the loop. To finish, emit "${LOOP_DONE_MARKER} <result>" yourself.` });
      return { dialect, signal: 'none', lints };
    }
    return { dialect, signal: scan.done ? 'done' : 'none', result: scan.result, lints };
  }
  const output = emits.join('\n');
  const scan = scanLoopControlV1(output);
  // As for v4: a signal counts when the program writes it — a `[[loop:SIGNAL` marker in its text, or, for the control
  // JSON, a quoted `loop` key and the signal's name — not when it only passed on data that held one.
  const found = actions === undefined ? scan.found : scan.found.filter((signal) => (signal.source === 'marker' ? actions.includes(`[[loop:${signal.signal}`) : /loop["'\\]/.test(actions) && actions.includes(signal.signal)));
  const fromData = scan.found.length - found.length;
  const dataLints = fromData === 0 ? [] : [{ code: 'LINT_CONTROL_FROM_DATA', message: `OUTPUT holds ${fromData} v1 control signal(s) the program does not write: they came from data it emitted (a file, a tool result, the task), so they do not steer the loop.` }];
  const winner = strongestSignal(found);
  if (winner === null) return { dialect, signal: 'none', lints: dataLints };
  const signals = new Set(found.map((signal) => signal.signal));
  const lints = [...dataLints, ...(signals.size > 1 ? [{ code: 'LINT_MULTIPLE_MARKERS', message: `OUTPUT holds ${[...signals].join(', ')}; ${winner.signal} wins (abort > halt > await > done > continue)` }] : [])];
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
