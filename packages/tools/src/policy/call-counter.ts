/**
 * Call counters for policy limits. The host keeps one counter per turn and is
 * handed one per session (the controller owns it across turns).
 */

/** Calls counted so far: in total and per canonical tool name. */
export interface CallCounter {
  total: number;
  readonly perTool: Map<string, number>;
}

/** The counters `policy.authorize` checks and increments. */
export interface CallCounters {
  readonly turn: CallCounter;
  readonly session: CallCounter;
}

/** A fresh, zeroed counter. */
export function createCallCounter(): CallCounter {
  return { total: 0, perTool: new Map() };
}

/** Fresh turn and session counters (the session one may be passed in to carry it across turns). */
export function createCallCounters(session: CallCounter = createCallCounter()): CallCounters {
  return { turn: createCallCounter(), session };
}
