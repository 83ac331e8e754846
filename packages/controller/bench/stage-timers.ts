/**
 * Stage clocks for the turn benchmark: wrappers around the store, the
 * interpreter port and the run's tool bridge that add the time spent inside
 * them to running totals. They wrap the real parts (SQLite file, sandbox
 * pool, the turn's tool host); nothing is stubbed.
 */
import type { ExecuteOptions, LoopInterpreter, LoopToolBridge } from '../src/index.ts';

/** Milliseconds spent in each wrapped part since the last `reset`. */
export interface StageTotals {
  persist: number;
  prepare: number;
  execute: number;
  toolBridge: number;
}

/** Running totals, reset before each measured turn. */
export function createStageTotals(): StageTotals & { reset(): void } {
  return {
    persist: 0,
    prepare: 0,
    execute: 0,
    toolBridge: 0,
    reset() {
      this.persist = 0;
      this.prepare = 0;
      this.execute = 0;
      this.toolBridge = 0;
    },
  };
}

/** `store` with every method's time (until its promise settles) added to `totals.persist`. */
export function timedStore<T extends object>(store: T, totals: StageTotals): T {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function' || key === 'openToolStores' || key === 'close') return value;
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await (value as (...rest: unknown[]) => unknown).apply(target, args);
        } finally {
          totals.persist += performance.now() - started;
        }
      };
    },
  });
}

function timedTools(tools: LoopToolBridge, totals: StageTotals): LoopToolBridge {
  return {
    ...(tools.catalog === undefined ? {} : { catalog: tools.catalog }),
    async call(name, args, options) {
      const started = performance.now();
      try {
        return await tools.call(name, args, options);
      } finally {
        totals.toolBridge += performance.now() - started;
      }
    },
    // The host's share of a call the sandbox worker answered itself: booking it on the tool host.
    ...(tools.recordLocalCall === undefined
      ? {}
      : {
          recordLocalCall(name: string) {
            const started = performance.now();
            try {
              tools.recordLocalCall?.(name);
            } finally {
              totals.toolBridge += performance.now() - started;
            }
          },
        }),
  };
}

/** `inner` with prepare (parse + check), execute (sandbox run) and the host side of tool calls timed. */
export function timedInterpreter(inner: LoopInterpreter, totals: StageTotals): LoopInterpreter {
  return {
    async prepare(source, options) {
      const started = performance.now();
      try {
        return await inner.prepare(source, options);
      } finally {
        totals.prepare += performance.now() - started;
      }
    },
    async execute(prepared, options: ExecuteOptions = {}) {
      const started = performance.now();
      try {
        return await inner.execute(prepared, options.tools === undefined ? options : { ...options, tools: timedTools(options.tools, totals) });
      } finally {
        totals.execute += performance.now() - started;
      }
    },
  };
}
