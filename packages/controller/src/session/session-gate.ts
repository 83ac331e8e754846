/**
 * Single flight per session (seed 002 §3): a tail chain of promises keyed by
 * session id. A step of a session starts only after the previous one settled;
 * different sessions never wait for each other. In `reject` mode a busy
 * session fails at once with `LOOP_SESSION_BUSY` instead of waiting. A
 * caller whose signal aborts while it waits behind another caller's step
 * leaves at once with `LOOP_CANCELLED`, and its step never runs: it must not
 * record a cancellation (a HALT) over the session another caller drives.
 */
import { LoopError } from '../errors/loop-error.ts';
import { giveUpOnAbort } from './give-up-on-abort.ts';

/** Runs work for a session exclusively. */
export interface SessionGate {
  /**
   * Runs `work` once the session's earlier steps settled; `signal` aborting while it waits for them cancels it.
   * `onWait` is called once if the step has to wait (for another call here, or another host's lease).
   */
  run<T>(sid: string, work: () => Promise<T>, signal?: AbortSignal, onWait?: (behind: 'another call' | 'another host') => void): Promise<T>;
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
    run<T>(sid: string, work: () => Promise<T>, signal?: AbortSignal, onWait?: (behind: 'another call' | 'another host') => void): Promise<T> {
      const current = lanes.get(sid);
      if (current !== undefined && mode === 'reject') {
        return Promise.reject(new LoopError({ code: 'LOOP_SESSION_BUSY', message: `a turn of session ${sid} is already in flight here; call again once it has ended, or create the loop with busy: 'wait' to queue behind it`, sid }));
      }
      if (current !== undefined) onWait?.('another call');
      const lane = current ?? { tail: Promise.resolve(), steps: 0 };
      lanes.set(sid, lane);
      lane.steps += 1;
      // The step leaves the lane before its caller sees its result, so a caller that goes on at once (the next turn of
      // its own loop) finds the session free; the last one out removes the lane, so the map does not grow.
      const leave = () => {
        lane.steps -= 1;
        if (lane.steps === 0 && lanes.get(sid) === lane) lanes.delete(sid);
      };
      // Only a caller that waits can give up waiting; one that finds the session free runs its step, which sees the
      // aborted signal itself (HALT ERR_CANCELLED after the current step, as documented).
      const waits = current !== undefined && signal !== undefined;
      let started = false;
      const guarded = (): Promise<T> => {
        if (waits && signal.aborted) return Promise.reject(cancelledWhileWaiting(sid, 'another call'));
        started = true;
        return work();
      };
      const result = lane.tail.then(guarded, guarded).then(
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
      return waits ? giveUpOnAbort(result, signal, () => cancelledWhileWaiting(sid, 'another call'), () => !started) : result;
    },
  };
}

/** LOOP_CANCELLED for a caller that gave up waiting for the session's turn in flight (`whose`: another call or host). */
export function cancelledWhileWaiting(sid: string, whose: string): LoopError {
  return new LoopError({ code: 'LOOP_CANCELLED', message: `cancelled while waiting for the turn of session ${sid} that ${whose} is running; this call changed nothing`, sid });
}
