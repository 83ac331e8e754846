/**
 * A turn number as a person types it, in `askloop show --turn 7` or in a
 * viewer address (`/turns/7`, `?before=7`): the one reading both share, each
 * with its own words for what went wrong.
 */
import { MAX_TURN_INDEX } from '@askloop/controller';

const DIGITS = /^[1-9][0-9]{0,9}$/;

/**
 * `text` read as a turn number: a whole number from 1 to `MAX_TURN_INDEX`
 * (2^31 − 1, the stores' bound) written in decimal digits alone — no sign,
 * no leading zero, no spaces, no exponent — or `undefined`.
 */
export function readTurnNumber(text: string): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const value = Number(text);
  return value <= MAX_TURN_INDEX ? value : undefined;
}
