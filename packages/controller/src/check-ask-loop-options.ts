/**
 * `createAskLoop`'s options, checked before anything is built: each is
 * `LOOP_CONFIG_INVALID` naming the option, what it must be and what it was.
 * A caller in JavaScript (or one casting) was never type-checked: a misspelt
 * option (`maxConcurentRuns`) would be ignored, `busy: 'nope'` would act as
 * `wait`, `onEvent: 'x'` would drop every event, and a store or clock of the
 * wrong shape would fail at the first turn as a bare `TypeError`.
 */
import type { AskLoopOptions } from './ask-loop.ts';
import { closestOption } from './closest-option.ts';
import { describeValue as described } from './describe-value.ts';
import { LoopError } from './errors/loop-error.ts';

/** The longest `sessionLeaseMs`: the range of a Node timer. */
export const MAX_SESSION_LEASE_MS = 2 ** 31 - 1;

/** The default `sessionLeaseMs`. */
export const DEFAULT_SESSION_LEASE_MS = 15_000;

/**
 * The least default `idempotenceRetentionMs`: one hour. The default is ten session leases when that is longer, so a
 * host that stalled past a long lease still finds its turn's records when it wakes.
 */
export const IDEMPOTENCE_RETENTION_MS = 3_600_000;

/** The `idempotenceRetentionMs` a loop with these options uses. */
export function idempotenceRetention(options: Pick<AskLoopOptions, 'idempotenceRetentionMs' | 'sessionLeaseMs'>): number {
  return options.idempotenceRetentionMs ?? Math.max(IDEMPOTENCE_RETENTION_MS, 10 * (options.sessionLeaseMs ?? DEFAULT_SESSION_LEASE_MS));
}

const OPTION_NAMES = ['plugins', 'store', 'interpreter', 'pool', 'toolStores', 'toolStorePath', 'busy', 'sessionLeaseMs', 'sessionCacheSize', 'maxConcurrentRuns', 'endGraceMs', 'idempotenceRetentionMs', 'secrets', 'clock', 'createId', 'onEvent'] as const;
/** What every transcript store has (the rest is optional). */
const STORE_METHODS = ['createSession', 'getSession', 'updateSession', 'listSessions', 'saveTurn', 'listTurns', 'lastTurn', 'close'] as const;

const invalid = (message: string): LoopError => new LoopError({ code: 'LOOP_CONFIG_INVALID', message });


/** Throws `LOOP_CONFIG_INVALID` for the first option that cannot be right. */
export function checkAskLoopOptions(options: AskLoopOptions): void {
  if (options === null || typeof options !== 'object') throw invalid(`createAskLoop needs its options: { plugins, store, … }, got ${described(options)}`);
  for (const name of Object.keys(options)) {
    if ((OPTION_NAMES as readonly string[]).includes(name)) continue;
    const closest = closestOption(name, OPTION_NAMES, 3);
    throw invalid(`createAskLoop has no option '${name}'${closest === undefined ? '' : `; did you mean '${closest}'?`} (its options: ${OPTION_NAMES.join(', ')})`);
  }
  if (options.store === undefined) throw invalid('createAskLoop needs a store (createMemoryTranscriptStore() for tests)');
  const store = options.store as unknown as Record<string, unknown> | null;
  const missing = store === null || typeof store !== 'object' ? undefined : STORE_METHODS.find((method) => typeof store[method] !== 'function');
  if (store === null || typeof store !== 'object' || missing !== undefined) {
    throw invalid(`store must be a transcript store (createSqliteTranscriptStore(file), createMemoryTranscriptStore(), …)${missing === undefined ? `, got ${described(store)}` : `: it has no ${missing}() method`}`);
  }
  if (!Array.isArray(options.plugins)) throw invalid(`plugins must be a list of plugins ([builtinPlugin(), …]), got ${described(options.plugins)}`);
  if (options.busy !== undefined && options.busy !== 'wait' && options.busy !== 'reject') throw invalid(`busy must be 'wait' or 'reject', got ${described(options.busy)}`);
  for (const name of ['onEvent', 'createId', 'secrets'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw invalid(`${name} must be a function, got ${described(options[name])}`);
  }
  if (options.clock !== undefined && typeof (options.clock as { now?: unknown } | null)?.now !== 'function') throw invalid(`clock must be { now(): number } (milliseconds), got ${described(options.clock)}`);
  if (options.toolStorePath !== undefined && (typeof options.toolStorePath !== 'string' || options.toolStorePath === '')) throw invalid(`toolStorePath must be a file path, got ${described(options.toolStorePath)}`);
  // Renewed on a timer every third of it: beyond a timer's range (2^31 - 1 ms, about 24.8 days) Node fires it every 1 ms.
  if (options.sessionLeaseMs !== undefined && !(Number.isInteger(options.sessionLeaseMs) && options.sessionLeaseMs > 0 && options.sessionLeaseMs <= MAX_SESSION_LEASE_MS)) {
    throw invalid(`sessionLeaseMs must be a whole number of milliseconds from 1 to ${MAX_SESSION_LEASE_MS} (about 24.8 days), got ${String(options.sessionLeaseMs)}`);
  }
  if (options.sessionCacheSize !== undefined && !(Number.isInteger(options.sessionCacheSize) && options.sessionCacheSize > 0)) {
    throw invalid(`sessionCacheSize must be a whole number > 0, got ${String(options.sessionCacheSize)}`);
  }
  if (options.endGraceMs !== undefined && !(Number.isFinite(options.endGraceMs) && options.endGraceMs >= 0)) {
    throw invalid(`endGraceMs must be a number of milliseconds >= 0, got ${String(options.endGraceMs)}`);
  }
  const retention = options.idempotenceRetentionMs;
  if (retention !== undefined && !((Number.isInteger(retention) && retention >= 0) || retention === Number.POSITIVE_INFINITY)) {
    throw invalid(`idempotenceRetentionMs must be a whole number of milliseconds >= 0 (Infinity keeps every record), got ${String(retention)}`);
  }
  if (options.maxConcurrentRuns !== undefined && !(Number.isInteger(options.maxConcurrentRuns) && options.maxConcurrentRuns > 0)) {
    throw invalid(`maxConcurrentRuns must be a whole number > 0, got ${String(options.maxConcurrentRuns)}`);
  }
  if (options.toolStores !== undefined && options.toolStorePath !== undefined) throw invalid('createAskLoop takes toolStores or toolStorePath, not both');
  // Parts a caller brings: checked by shape here, or they would fail as a bare TypeError after the model was paid.
  const lacking = (value: unknown, methods: readonly string[]): string | undefined =>
    value === null || typeof value !== 'object' ? `got ${described(value)}` : methods.filter((method) => typeof (value as Record<string, unknown>)[method] !== 'function').map((method) => `it has no ${method}() method`)[0];
  const partProblems: readonly [string, unknown, readonly string[], string][] = [
    ['interpreter', options.interpreter, ['prepare', 'execute'], "an interpreter ({ prepare, execute }: createDefaultInterpreter(pool), which gives each run the loop's ask hook)"],
    ['pool', options.pool, ['run'], 'a sandbox pool ({ run }: createSandboxPool() of @askloop/interpreter)'],
  ];
  for (const [name, value, methods, what] of partProblems) {
    if (value === undefined) continue;
    const problem = lacking(value, methods);
    if (problem !== undefined) throw invalid(`${name} must be ${what}, ${problem}`);
  }
  if (options.toolStores !== undefined) {
    const stores = options.toolStores as unknown as Record<string, unknown> | null;
    const missing = stores === null || typeof stores !== 'object' ? undefined : ['memory', 'scratch', 'idempotence'].find((part) => typeof stores[part] !== 'object' || stores[part] === null);
    if (stores === null || typeof stores !== 'object' || missing !== undefined) {
      throw invalid(`toolStores must be the tools' stores { memory, scratch, idempotence } (openSqliteStore(file) of @askloop/tools, or a database package's own), ${missing === undefined ? `got ${described(stores)}` : `it has no ${missing} store`}`);
    }
  }
}
