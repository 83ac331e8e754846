/**
 * The `limit` of `listSessions`, checked by every store in the same words.
 * Without it the stores differed: a negative limit made the memory store
 * drop the oldest sessions (`slice(0, -n)`), SQLite read `-1` as "no limit"
 * and PostgreSQL refused it; a fraction or NaN failed differently again.
 */
import { LoopError } from '../errors/loop-error.ts';

/**
 * Throws `LOOP_ARGUMENT_INVALID` unless `limit` is undefined (every session)
 * or a whole number from 0 (no session) to `Number.MAX_SAFE_INTEGER`.
 */
export function requireListLimit(limit: unknown): asserts limit is number | undefined {
  if (limit === undefined) return;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw new LoopError({ code: 'LOOP_ARGUMENT_INVALID', message: `listSessions: limit must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, or left out for every session; got ${typeof limit === 'number' ? String(limit) : typeof limit}` });
  }
}
