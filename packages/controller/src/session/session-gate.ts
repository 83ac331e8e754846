/**
 * Single flight per session (seed 002 §3): a tail chain of promises keyed by
 * session id. A step of a session starts only after the previous one settled;
 * different sessions never wait for each other. In `reject` mode a busy
 * session fails at once with `LOOP_SESSION_BUSY` instead of waiting.
 */
import { LoopError } from '../errors/loop-error.ts';

/** Runs work for a session exclusively. */
export interface SessionGate {
  run<T>(sid: string, work: () => Promise<T>): Promise<T>;
  /** True while a step of `sid` is in flight or queued. */
  busy(sid: string): boolean;
}

/** Creates a gate; `mode` says what a second caller for a busy session does. */
export function createSessionGate(mode: 'wait' | 'reject' = 'wait'): SessionGate {
  const tails = new Map<string, Promise<unknown>>();
  return {
    busy: (sid) => tails.has(sid),
    run<T>(sid: string, work: () => Promise<T>): Promise<T> {
      const previous = tails.get(sid);
      if (previous !== undefined && mode === 'reject') {
        return Promise.reject(new LoopError({ code: 'LOOP_SESSION_BUSY', message: `a turn of session ${sid} is already in flight`, sid }));
      }
      const result = (previous ?? Promise.resolve()).then(work, work);
      const tail = result.then(() => undefined, () => undefined);
      tails.set(sid, tail);
      // The last one out removes the entry, so the map does not grow with finished sessions.
      void tail.then(() => {
        if (tails.get(sid) === tail) tails.delete(sid);
      });
      return result;
    },
  };
}
