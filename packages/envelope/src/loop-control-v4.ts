/**
 * v4 loop control (seed 003 §5, seed 002 §5): the program ends the loop by
 * emitting `<<<LOOP:DONE>>>`, optionally followed by the final result.
 */
import { cleanPayload } from './clean-payload.ts';
import type { Lint } from './lint.ts';
import { LOOP_DONE_MARKER } from './markers.ts';
import { kindOf, requireString } from './argument-type.ts';

/** What scanning one turn's OUTPUT for the DONE marker found. */
export interface DoneScan {
  /** True when the marker was emitted: the decision is DONE. */
  done: boolean;
  /**
   * The final result: the cleaned text after the first marker on its line;
   * for a bare marker, the turn's other output lines joined by `\n`; `null`
   * when there is none (or no marker).
   */
  result: string | null;
  /** 1-based OUTPUT line of the first marker. */
  line: number | null;
  lints: Lint[];
}

/**
 * Scans the current turn's OUTPUT, in emission order, for `<<<LOOP:DONE>>>`.
 * Accepts the OUTPUT text or the list of emitted strings (each emit is one or
 * more lines). The first marker wins; any further markers add
 * `LINT_MULTIPLE_MARKERS` and are left out of the result.
 */
export function scanDoneMarker(output: string | readonly string[]): DoneScan {
  if (typeof output !== 'string' && !Array.isArray(output)) throw new TypeError(`scanDoneMarker takes OUTPUT as a string or a list of lines, got ${kindOf(output)}`);
  // A number among the lines would be joined in as its digits: a caller's mistake, named where it is.
  if (typeof output !== 'string') output.forEach((line, index) => requireString(line, `scanDoneMarker: OUTPUT line [${index}]`));
  const text = typeof output === 'string' ? output : output.join('\n');
  const lines = text.split(/\r?\n/);
  let first = -1;
  let payload = '';
  let count = 0;
  const others: string[] = [];
  lines.forEach((line, index) => {
    const at = line.indexOf(LOOP_DONE_MARKER);
    if (at === -1) {
      others.push(line);
      return;
    }
    count += line.split(LOOP_DONE_MARKER).length - 1;
    const before = line.slice(0, at);
    if (before.trim() !== '') others.push(before);
    if (first === -1) {
      first = index;
      // The payload ends where a second marker on the same line begins.
      const after = line.slice(at + LOOP_DONE_MARKER.length);
      const next = after.indexOf(LOOP_DONE_MARKER);
      payload = next === -1 ? after : after.slice(0, next);
    }
  });
  if (first === -1) return { done: false, result: null, line: null, lints: [] };
  const lints: Lint[] = [];
  if (count > 1) {
    lints.push({
      code: 'LINT_MULTIPLE_MARKERS',
      message: `the program emitted ${LOOP_DONE_MARKER} ${count} times; the first (OUTPUT line ${first + 1}) decided the turn`,
      line: first + 1,
    });
  }
  const inline = cleanPayload(payload);
  const rest = others.join('\n').trim();
  return { done: true, result: inline !== '' ? inline : rest !== '' ? rest : null, line: first + 1, lints };
}
