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

/** A session's queue: the promise the next step waits for, and how many steps are in flight or queued. */
interface Lane {
  tail: Promise<unknown>;
  steps: number;
}

/** Creates a gate; `mode` says what a second caller for a busy session does. */
export function createSessionGate(mode: 'wait' | 'reject' = 'wait'): SessionGate {
  const lanes = new Map<string, Lane>();
  return {
    busy: (sid) => lanes.has(sid),
    run<T>(sid: string, work: () => Promise<T>): Promise<T> {
      const current = lanes.get(sid);
      if (current !== undefined && mode === 'reject') {
        return Promise.reject(new LoopError({ code: 'LOOP_SESSION_BUSY', message: `a turn of session ${sid} is already in flight`, sid }));
      }
      const lane = current ?? { tail: Promise.resolve(), steps: 0 };
      lanes.set(sid, lane);
      lane.steps += 1;
      // The step leaves the lane before its caller sees its result, so a caller that goes on at once (the next turn of
      // its own loop) finds the session free; the last one out removes the lane, so the map does not grow.
      const leave = () => {
        lane.steps -= 1;
        if (lane.steps === 0 && lanes.get(sid) === lane) lanes.delete(sid);
      };
      const result = lane.tail.then(work, work).then(
        (value) => {
          leave();
          return value;
        },
        (error: unknown) => {
          leave();
          throw error;
        },
      );
      lane.tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
  };
}
