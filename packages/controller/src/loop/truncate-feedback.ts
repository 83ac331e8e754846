/**
 * Caps what a turn's OUTPUT or SCRATCHPAD feeds into the next envelope (seed
 * 001's checklist: over the cap, include `[[truncated:OUTPUT:…]]`). Control is
 * always scanned from the full OUTPUT first; only the copy sent back is cut.
 *
 * The cut keeps the start and the end and drops the middle: the end of a
 * turn's OUTPUT is where a run-time error's `SYSTEM_ERROR` line and the
 * offending line's echo are, which the next turn must see to repair the
 * program. Keeping only the start dropped them from any OUTPUT over the cap.
 */

/** Bytes of OUTPUT (and of SCRATCHPAD) the next envelope carries at most, besides the marker line. */
export const FEEDBACK_MAX_BYTES = 16 * 1024;

/** Of those, the bytes kept from the end (at most; whole lines when the end holds a line break). */
export const FEEDBACK_TAIL_BYTES = 4 * 1024;

/** The start of a UTF-8 character at or after byte `index` of `bytes`. */
function characterStart(bytes: Buffer, index: number): number {
  let at = index;
  while (at < bytes.length && ((bytes[at] ?? 0) & 0xc0) === 0x80) at += 1;
  return at;
}

/** The end of the last whole UTF-8 character at or before byte `index` of `bytes`. */
function characterEnd(bytes: Buffer, index: number): number {
  let at = index;
  while (at > 0 && ((bytes[at] ?? 0) & 0xc0) === 0x80) at -= 1;
  return at;
}

/**
 * `text` cut to at most `maxBytes` UTF-8 bytes, its start and its end (up to
 * a quarter of `maxBytes`, from a line's start where the end holds one) with
 * the marker line `[[truncated:SECTION:N bytes]]` between them in place of
 * the N bytes dropped; or `text` when it fits. No character is split.
 */
export function truncateFeedback(text: string, section: 'OUTPUT' | 'SCRATCHPAD', maxBytes = FEEDBACK_MAX_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  const tailBudget = Math.min(FEEDBACK_TAIL_BYTES, Math.floor(maxBytes / 4));
  let tailStart = characterStart(bytes, bytes.length - tailBudget);
  // From the start of a line when the kept end has a line break: a SYSTEM_ERROR line is then whole.
  const lineBreak = bytes.indexOf(0x0a, tailStart);
  if (lineBreak >= 0 && lineBreak + 1 < bytes.length) tailStart = lineBreak + 1;
  const headEnd = characterEnd(bytes, maxBytes - (bytes.length - tailStart));
  const marker = `[[truncated:${section}:${tailStart - headEnd} bytes]]`;
  const head = bytes.subarray(0, headEnd).toString('utf8');
  const tail = bytes.subarray(tailStart).toString('utf8');
  return tail === '' ? `${head}\n${marker}` : `${head}\n${marker}\n${tail}`;
}
