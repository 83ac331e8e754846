/**
 * Admission to prepare-and-run: at most `slots` turns of this controller
 * parse, check and run their programs at once (about what the sandbox pool
 * can run), in arrival order. The others wait holding only their reply text,
 * not a parsed program (whose AST is many times its size) queued at the pool:
 * with thousands of sessions whose replies arrive together, that is the
 * difference between a little text and thousands of ASTs in memory.
 */

/** A counting semaphore, first come first served. */
export interface RunAdmission {
  /**
   * Waits for a slot; resolves with the function that gives it back (call it
   * once) — or with undefined when `signal` aborts first: a cancelled turn
   * leaves the queue at once instead of waiting out the turns ahead of it.
   */
  acquire(signal?: AbortSignal): Promise<(() => void) | undefined>;
  /** A slot now if one is free (the function that gives it back), else undefined. */
  tryAcquire(): (() => void) | undefined;
  /** Turns admitted now. */
  readonly running: number;
  /** Turns waiting for a slot. */
  readonly waiting: number;
}

/** Creates an admission of `slots` (≥ 1) turns at once. */
export function createRunAdmission(slots: number): RunAdmission {
  let running = 0;
  const queue: (() => void)[] = [];
  const release = (): void => {
    const next = queue.shift();
    // A slot passes straight to the next waiter: `running` stays the same.
    if (next !== undefined) next();
    else running -= 1;
  };
  const once = (): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };
  const tryAcquire = (): (() => void) | undefined => {
    if (running >= Math.max(1, slots)) return undefined;
    running += 1;
    return once();
  };
  return {
    acquire(signal) {
      const release = tryAcquire();
      if (release !== undefined) return Promise.resolve(release);
      if (signal?.aborted === true) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const onAbort = (): void => {
          const at = queue.indexOf(admit);
          if (at < 0) return;
          queue.splice(at, 1);
          resolve(undefined);
        };
        const admit = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve(once());
        };
        queue.push(admit);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    tryAcquire,
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
  };
}
