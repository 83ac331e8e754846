/**
 * A map keyed by session id that keeps at most `max` entries, dropping the
 * least recently used. `createAskLoop` keeps each session's model and tool
 * call counter between driver calls; only sessions that end DONE or HALT on
 * this host are dropped explicitly, so a long-running host (a PostgreSQL
 * worker stepping sessions that other workers finish, sessions left paused or
 * failed) would otherwise keep one entry per session it ever touched.
 */

/** The cache's operations (a subset of `Map`'s). */
export interface SessionCache<T> {
  /** The entry, now the most recently used one. */
  get(sid: string): T | undefined;
  /** Stores the entry as the most recently used one, dropping the oldest beyond `max`. */
  set(sid: string, value: T): void;
  delete(sid: string): void;
  readonly size: number;
}

/** Sessions a controller keeps per-session state for by default. */
export const SESSION_CACHE_MAX = 1024;

/** Creates a cache of at most `max` (≥ 1) sessions. */
export function createSessionCache<T>(max: number = SESSION_CACHE_MAX): SessionCache<T> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, T>();
  return {
    get(sid) {
      const value = entries.get(sid);
      if (value !== undefined) {
        entries.delete(sid);
        entries.set(sid, value);
      }
      return value;
    },
    set(sid, value) {
      entries.delete(sid);
      entries.set(sid, value);
      while (entries.size > Math.max(1, max)) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
      }
    },
    delete(sid) {
      entries.delete(sid);
    },
    get size() {
      return entries.size;
    },
  };
}
