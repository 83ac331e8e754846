/**
 * What the model is told after a person approved its v1 `await`: the turn
 * after it otherwise showed the same OUTPUT (the await marker) with nothing
 * to say it was answered, so a model would await again. In the system text,
 * as the fix of a run-time error is, so a recorded session's OUTPUT (which
 * `replay` compares) stays as recorded.
 */
import type { TurnRecord } from './turn-record.ts';

/** The longest note of the person's that the line quotes. */
const MAX_NOTE_CHARS = 500;

/** The line for the turn after `last`, or undefined when `last` was not an approved v1 await. */
export function approvedAwaitLine(last: TurnRecord): string | undefined {
  const decision = last.decision;
  if (decision?.kind !== 'PAUSE' || decision.reason !== 'V1_AWAIT' || last.approval?.state !== 'approved') return undefined;
  // One line: the note is a person's free text.
  const note = last.approval.note?.replace(/\s+/g, ' ').trim();
  const quoted = note === undefined || note === '' ? '' : ` Their note: "${note.length > MAX_NOTE_CHARS ? `${note.slice(0, MAX_NOTE_CHARS)}...` : note}".`;
  return `A person approved what your last turn awaited (${decision.message}): go on with it, and do not await it again.${quoted}`;
}
