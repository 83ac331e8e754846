/**
 * Run quotas. All configurable; every breach is a typed error naming the
 * limit. Defaults follow the reference where it has one (§1.11: call depth
 * 500, 100,000 iterations per loop, 512 KiB per envelope section).
 */
export interface RunLimits {
  /** Evaluation steps (statements, loop iterations, calls); deterministic. */
  readonly fuel: number;
  /** Wall-clock per run in ms, including time spent in tool calls. */
  readonly wallMs: number;
  /** Isolate heap in MiB (enforced by the sandbox). */
  readonly memoryMb: number;
  /** Nested function calls. */
  readonly callDepth: number;
  /** Iterations of one loop instance. */
  readonly loopIterations: number;
  /** Tool calls per run, wherever they happen. */
  readonly toolCalls: number;
  /** Characters in one string the interpreter builds. */
  readonly stringLength: number;
  /** Items in one list or map the interpreter builds. */
  readonly collectionSize: number;
  /**
   * Items (list elements and map entries, nested ones included, a shared part
   * counted each time it appears) one `==` comparison or one conversion of a
   * tool or `ask` argument to JSON may visit.
   */
  readonly valueItems: number;
  /** UTF-8 bytes of OUTPUT (all emits, each followed by a newline). */
  readonly outputBytes: number;
  /** UTF-8 bytes of SCRATCHPAD (all whispers, each followed by a newline). */
  readonly scratchpadBytes: number;
  /**
   * Characters of all the run's tool calls' arguments and results, as JSON
   * (what a host records of them): a call whose arguments would pass it is
   * refused before it runs, a result that would is not delivered
   * (`SCRIPT_TOOL_DATA_LIMIT`). Enforced by the sandbox pool.
   */
  readonly toolDataChars: number;
}

/**
 * How many `ask` and `promptuser` statements together one run may make. Fixed,
 * not a quota of `RunLimits`: each is a whole conversation, and a turn that
 * needs more than this should spread them over more turns. The sandbox's
 * backstop on calls to the host leaves room for exactly these beside the tool
 * calls (`toolCalls` + this), so the evaluator's typed error, with its line,
 * always comes first.
 */
export const MAX_ASKS_AND_PROMPTS = 1_000;

/** The default quotas (documented in the README, "Evaluation"). */
export const DEFAULT_LIMITS: RunLimits = Object.freeze({
  fuel: 1_000_000,
  wallMs: 5_000,
  memoryMb: 64,
  callDepth: 500,
  loopIterations: 100_000,
  toolCalls: 100,
  stringLength: 1024 * 1024,
  collectionSize: 100_000,
  valueItems: 1_000_000,
  outputBytes: 512 * 1024,
  scratchpadBytes: 512 * 1024,
  toolDataChars: 16 * 1024 * 1024,
});

/** Fills unset limits with the defaults. */
export function resolveLimits(limits: Partial<RunLimits> | undefined): RunLimits {
  return { ...DEFAULT_LIMITS, ...(limits ?? {}) };
}
