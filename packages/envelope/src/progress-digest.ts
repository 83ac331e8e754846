/**
 * The host-observed progress digest of seed 003 §9 / seed 002 §6, with the
 * normalisation of the reference (reference doc §3.6).
 */
import { createHash } from 'node:crypto';
import { LOOP_DONE_MARKER } from './markers.ts';
import { isSpaceOrTab, trimEndWhere, trimStartGoSpace } from './trim.ts';
import { requireString } from './argument-type.ts';

const LINE_SPLIT = /\r?\n/;

/**
 * Normalises one turn's OUTPUT or SCRATCHPAD for the digest: every line keeps
 * its leading white space, loses trailing spaces and tabs and ends in `\n`;
 * lines that start (after trimming) with `<<<LOOP:DONE>>>` and legacy V3
 * token lines (`<<<NSMAG:V3…>>>`) are dropped. A final `\n` adds no empty
 * line, and `""` stays `""`.
 */
export function normalizeForDigest(text: string): string {
  requireString(text, 'normalizeForDigest: text');
  if (text === '') return '';
  const lines = text.split(LINE_SPLIT);
  if (lines[lines.length - 1] === '') lines.pop();
  // Go's line scanner drops one \r at the end of the text as at any line end — only when the text does not end
  // in a newline: then the split has already dropped that line's \r, and a second one (`a\r\r\n`) is content.
  else if (lines[lines.length - 1]!.endsWith('\r')) lines[lines.length - 1] = lines[lines.length - 1]!.slice(0, -1);
  let normalized = '';
  for (const line of lines) {
    if (line.startsWith('<<<NSMAG:V3') && line.endsWith('>>>')) continue;
    if (trimStartGoSpace(line).startsWith(LOOP_DONE_MARKER)) continue;
    normalized += `${trimEndWhere(line, isSpaceOrTab)}\n`;
  }
  return normalized;
}

/** `sha256("OUT|" + norm(output) + "\nSCR|" + norm(scratchpad))` as 64 lower-case hex digits. */
export function progressDigest(output: string, scratchpad: string): string {
  requireString(output, 'progressDigest: output');
  requireString(scratchpad, 'progressDigest: scratchpad (\'\' when there is none)');
  return createHash('sha256')
    .update(`OUT|${normalizeForDigest(output)}\nSCR|${normalizeForDigest(scratchpad)}`, 'utf8')
    .digest('hex');
}

/** Default number of consecutive identical digests that means "no progress". */
export const DEFAULT_NO_PROGRESS_TURNS = 3;

/**
 * Trips on the N-th consecutive identical digest (the first sighting counts
 * as one), as seed 002 §6 requires: with N = 3 the third identical turn halts.
 */
export class ProgressTracker {
  readonly limit: number;
  #last: string | undefined;
  #hits = 0;

  /** A `limit` below 1 (after flooring), not finite, or absent means {@link DEFAULT_NO_PROGRESS_TURNS}. */
  constructor(limit: number = DEFAULT_NO_PROGRESS_TURNS) {
    const whole = Number.isFinite(limit) ? Math.floor(limit) : 0;
    this.limit = whole > 0 ? whole : DEFAULT_NO_PROGRESS_TURNS;
  }

  /** Records a turn's digest; returns true when the loop must halt with `ERR_NO_PROGRESS`. */
  record(digest: string): boolean {
    if (digest === this.#last) this.#hits += 1;
    else {
      this.#last = digest;
      this.#hits = 1;
    }
    return this.#hits >= this.limit;
  }

  /** How many consecutive turns have produced the current digest. */
  get consecutive(): number {
    return this.#hits;
  }
}
