/**
 * Caps what a turn's OUTPUT or SCRATCHPAD feeds into the next envelope (seed
 * 001's checklist: over the cap, include `[[truncated:OUTPUT:…]]`). Control is
 * always scanned from the full OUTPUT first; only the copy sent back is cut.
 */

/** Bytes of OUTPUT (and of SCRATCHPAD) the next envelope carries at most. */
export const FEEDBACK_MAX_BYTES = 16 * 1024;

/** `text` cut to `maxBytes` UTF-8 bytes (on a character boundary) plus the truncation marker, or `text` when it fits. */
export function truncateFeedback(text: string, section: 'OUTPUT' | 'SCRATCHPAD', maxBytes = FEEDBACK_MAX_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over UTF-8 continuation bytes so no character is split.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return `${bytes.subarray(0, end).toString('utf8')}\n[[truncated:${section}:${bytes.length - end} bytes]]`;
}
