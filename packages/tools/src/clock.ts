/**
 * Time as the tools see it. Injected so replays are deterministic and TTL
 * expiry can be tested without waiting.
 */

/** A source of the current time in milliseconds since the Unix epoch. */
export interface Clock {
  now(): number;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; for tests and replays. */
export interface ManualClock extends Clock {
  set(milliseconds: number): void;
  advance(milliseconds: number): void;
}

/** Creates a {@link ManualClock} starting at `start` (ms since epoch; default 2026-01-01T00:00:00Z). */
export function createManualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let current = start;
  return {
    now: () => current,
    set: (milliseconds) => {
      current = milliseconds;
    },
    advance: (milliseconds) => {
      current += milliseconds;
    },
  };
}
