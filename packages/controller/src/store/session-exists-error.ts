/**
 * The error every transcript store gives `createSession` for a sid it already
 * holds (memory, SQLite, PostgreSQL alike), with how to go on.
 */
import { LoopError } from '../errors/loop-error.ts';

/** `LOOP_STORE_ERROR` for creating session `sid` again; `cause` the store's own error, when it has one. */
export function sessionExistsError(sid: string, cause?: unknown): LoopError {
  return new LoopError({
    code: 'LOOP_STORE_ERROR',
    message: `session ${sid} already exists; give a new session another sid (or none, for a fresh one), or continue this one (resume, step)`,
    sid,
    ...(cause === undefined ? {} : { cause }),
  });
}
