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

/** Counts one call of `name` (a canonical tool name, or another name a caller counts under) in `counter`. */
export function countCallIn(counter: CallCounter, name: string): void {
  counter.total += 1;
  counter.perTool.set(name, (counter.perTool.get(name) ?? 0) + 1);
}

/** Turn and session counters: fresh unless passed in (the session one carries across turns, the turn one may be shared). */
export function createCallCounters(session: CallCounter = createCallCounter(), turn: CallCounter = createCallCounter()): CallCounters {
  return { turn, session };
}
