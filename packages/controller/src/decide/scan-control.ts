/**
 * Scans ONLY the current turn's OUTPUT for the dialect's control signal
 * (seed 002 §4: never USERDATA or SCRATCHPAD): the v4 `<<<LOOP:DONE>>>`
 * marker, or the v1 control JSON line and `[[loop:…]]` markers. Only what
 * the program emitted counts: the host's own SYSTEM_ERROR line carries text
 * from error messages (a tool's, a server's, `fail "…"`), which must never
 * be able to stop or steer the loop. Nor can data the program only passed
 * on: a v4 marker ends the loop only when the program itself writes
 * `<<<LOOP:DONE>>>` — in a string literal, not a comment — and, when the run
 * said which statement wrote each emit, only in an emit of a statement that
 * writes it; a program that echoes a file or a web page holding the marker
 * does not end the loop, nor choose its result (`LINT_DONE_FROM_DATA`; in the
 * v1 dialect, `LINT_CONTROL_FROM_DATA`).
 */
import { LOOP_DONE_MARKER, scanDoneMarker, scanLoopControlV1, strongestSignal } from '@askloop/envelope';
import type { ControlSignal } from '../loop/turn-record.ts';
import type { MarkerWriters } from './marker-writers.ts';

/** What the scan knows of the program behind the OUTPUT. */
export interface ScanProvenance {
  /** The program's text (ACTIONS): the fallback when `writers` is unknown. */
  readonly actions?: string;
  /** What the checked program writes of its own (`markerWriters`): its string literals, and its emits that write the v4 marker. */
  readonly writers?: MarkerWriters;
  /** The source line of the emit statement behind each emit, as the run reported them. */
  readonly emitLines?: readonly number[];
}

const DATA_MARKER_HINT = `To finish, emit "${LOOP_DONE_MARKER} <result>" yourself.`;

/** The control signal of one turn's OUTPUT, given what is known of the program that emitted it. */
export function scanControl(dialect: 'v4' | 'v1', emits: readonly string[], provenance: ScanProvenance = {}): ControlSignal {
  // The program's own text: its string literals when known (a marker in a comment is not the program writing it).
  const ownText = provenance.writers?.literals ?? provenance.actions;
  if (dialect === 'v4') return scanV4(emits, ownText, provenance);
  const output = emits.join('\n');
  const scan = scanLoopControlV1(output);
  // As for v4: a signal counts when the program writes it — a `[[loop:SIGNAL` marker in its text, or, for the control
  // JSON, a quoted `loop` key and the signal's name — not when it only passed on data that held one.
  const found = ownText === undefined ? scan.found : scan.found.filter((signal) => (signal.source === 'marker' ? ownText.includes(`[[loop:${signal.signal}`) : /loop["'\\]/.test(ownText) && ownText.includes(signal.signal)));
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

/**
 * The v4 scan. A marker ends the loop only when the program writes it. When the run said which statement wrote each
 * emit, only the emits of statements that hold the marker in a string literal can decide: a marker in any other
 * emit came from data (`emit "fetched: " + page`), even when the program also writes its own later. Without that
 * (a record from before, a custom runner) or when the program builds its marker elsewhere (`set m = "<<<LOOP:DONE>>>"`
 * then `emit m`), the first marker decides if the program's text writes the marker at all.
 */
function scanV4(emits: readonly string[], ownText: string | undefined, provenance: ScanProvenance): ControlSignal {
  const dialect = 'v4';
  const fromData = (count: number, why: string): { code: string; message: string } => ({
    code: 'LINT_DONE_FROM_DATA',
    message: `OUTPUT holds ${count === 1 ? `${LOOP_DONE_MARKER}` : `${count} ${LOOP_DONE_MARKER} markers`} ${why}: ${count === 1 ? 'it' : 'they'} came from data the program emitted (a file, a tool result, the task), so ${count === 1 ? 'it does' : 'they do'} not end the loop. ${DATA_MARKER_HINT}`,
  });
  const lines = provenance.emitLines;
  const ownLines = provenance.writers?.emitLines;
  if (ownLines !== undefined && ownLines.size > 0 && lines !== undefined && lines.length === emits.length) {
    const own = emits.map((_, index) => ownLines.has(lines[index] as number));
    const dataMarkers = emits.reduce((count, text, index) => (own[index] === true ? count : count + markerCount(text)), 0);
    if (emits.some((text, index) => own[index] === true && text.includes(LOOP_DONE_MARKER))) {
      // Only the program's own emits can decide: the data's markers are masked while scanning, then given back.
      const mask = maskFor(emits);
      const scan = scanDoneMarker(emits.map((text, index) => (own[index] === true ? text : text.replaceAll(LOOP_DONE_MARKER, mask))));
      const lints: { code: string; message: string }[] = scan.lints.map(({ code, message }) => ({ code, message }));
      if (dataMarkers > 0) lints.push(fromData(dataMarkers, 'in emits that do not write it'));
      return { dialect, signal: 'done', result: scan.result === null ? null : scan.result.replaceAll(mask, LOOP_DONE_MARKER), lints };
    }
    // The program's own emits of the marker did not run (a branch not taken): nothing the program wrote ends the turn.
    if (dataMarkers > 0) return { dialect, signal: 'none', lints: [fromData(dataMarkers, 'but the statements that write it did not emit it')] };
    return { dialect, signal: 'none', lints: [] };
  }
  const scan = scanDoneMarker(emits);
  const lints: { code: string; message: string }[] = scan.lints.map(({ code, message }) => ({ code, message }));
  if (scan.done && ownText !== undefined && !ownText.includes(LOOP_DONE_MARKER)) {
    lints.push(fromData(1, 'but the program does not write it'));
    return { dialect, signal: 'none', lints };
  }
  return { dialect, signal: scan.done ? 'done' : 'none', result: scan.result, lints };
}

/** How many times `text` holds the v4 marker. */
function markerCount(text: string): number {
  return text.split(LOOP_DONE_MARKER).length - 1;
}

/** A stand-in for the marker that no emit holds (so masking, then unmasking, changes nothing else). */
function maskFor(emits: readonly string[]): string {
  let mask = '\uFFFFmasked-marker\uFFFF';
  while (emits.some((text) => text.includes(mask))) mask += '\uFFFF';
  return mask;
}

/** A v1 done's result: OUTPUT without the control JSON line and the markers. */
function doneResult(output: string): string | null {
  const lines = output.split(/\r?\n/);
  if (lines[0]?.trim().startsWith('{') === true && /"loop"\s*:/.test(lines[0])) lines.shift();
  const text = lines.map((line) => line.replace(/\[\[loop:[a-z]+(?::[^\]]*)?\]\]/g, '')).join('\n').trim();
  return text === '' ? null : text;
}
