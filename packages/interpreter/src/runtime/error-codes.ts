/**
 * Every error code the interpreter reports — front-end diagnostics, run-time
 * errors, sandbox failures — in one sorted table: the Go reference's numeric
 * code where one exists (reference §1.10), the kind of failure, and how to fix
 * it. The README's error table is tested against this one. Hosts map *kinds*
 * (never codes) to their own outcomes, e.g. `quota` → a quota halt.
 */

/**
 * What kind of failure a code is. `syntax`: the text is not a valid program;
 * `check`: a static rule refused it; `permission`: the policy refused a tool;
 * `runtime`: the program failed while running (catchable by `on error`);
 * `quota`, `timeout`, `cancelled`: the run was stopped (never catchable);
 * `internal`: a bug or a sandbox failure.
 */
export type ErrorKind = 'syntax' | 'check' | 'permission' | 'runtime' | 'quota' | 'timeout' | 'cancelled' | 'internal';

/** One row of the table. */
export interface ErrorCodeInfo {
  /** The Go reference's numeric code, where it has one. */
  readonly numericCode?: number;
  readonly kind: ErrorKind;
  /** How to fix it, in a few words. */
  readonly fix: string;
}

/** Every interpreter error code, sorted. */
export const SCRIPT_ERROR_CODES = {
  SANDBOX_ABORTED: { kind: 'cancelled', fix: 'Intended; do not retry unless the caller wants to.' },
  SANDBOX_ENTRY_NOT_FOUND: { kind: 'internal', fix: 'Assign the entry to `globalThis` in the bundle; check the name.' },
  SANDBOX_INTERNAL: { kind: 'internal', fix: 'A bug in the sandbox: report it with the message.' },
  SANDBOX_INVALID_REQUEST: { kind: 'internal', fix: 'Fix the request or the options, as the message says.' },
  SANDBOX_MEMORY: { kind: 'quota', fix: 'Lower the program\'s memory use (it is usually a runaway) or raise `memoryMb`.' },
  SANDBOX_OUTPUT_LIMIT: { kind: 'quota', fix: 'Emit less, or raise the limit.' },
  SANDBOX_POOL_CLOSED: { kind: 'internal', fix: 'Create a new pool (`createSandboxPool()`) for more runs; close a pool only once the runs given to it have finished (await them before `close()`).' },
  SANDBOX_QUEUE_TIMEOUT: { kind: 'internal', fix: 'The pool is overloaded: add workers, admit fewer runs at once, or raise `maxQueueMs`.' },
  SANDBOX_RESULT_NOT_JSON: { kind: 'internal', fix: 'Return plain JSON data.' },
  SANDBOX_RUNTIME_ERROR: { kind: 'internal', fix: 'A bug in the runtime bundle: script errors should be values.' },
  SANDBOX_STACK_OVERFLOW: { kind: 'quota', fix: 'Bound recursion in the runtime (the evaluator\'s call-depth limit should fire first).' },
  SANDBOX_TIMEOUT: { kind: 'timeout', fix: 'Make the program or its tools faster, or raise `wallMs`.' },
  SANDBOX_TOOL_CALL_LIMIT: { kind: 'quota', fix: 'Call fewer tools, or raise the limit.' },
  SANDBOX_WORKER_DIED: { kind: 'internal', fix: 'Usually a crash in native code; the worker was replaced. Report it if it repeats.' },
  SANDBOX_WORKER_START_FAILED: { kind: 'internal', fix: 'Check Node 24, `isolated-vm` installed for it, and that the worker file exists (`dist/sandbox/worker-main.js` in a build).' },
  SCRIPT_ABORTED: { numericCode: 6, kind: 'cancelled', fix: 'The host aborted the run (its `signal`); intended, nothing to fix in the script.' },
  SCRIPT_AGENT_COMMAND_COUNT: { kind: 'check', fix: 'Write exactly one `command … endcommand`; merge the blocks.' },
  SCRIPT_AGENT_EVENT_HANDLER: { kind: 'check', fix: 'Do the work inside the command block.' },
  SCRIPT_AGENT_FUNCTION_DEFINITION: { kind: 'check', fix: 'Inline the steps in the command block.' },
  SCRIPT_ARGUMENT_COUNT: { numericCode: 4, kind: 'runtime', fix: 'match the function\'s `needs`/`optional` list' },
  SCRIPT_ASK_FAILED: { numericCode: 16, kind: 'runtime', fix: 'see the message; the orchestrator\'s error is included. Answer with plain data (see "What a bridge and the orchestrator may return")' },
  SCRIPT_ASK_NOT_ALLOWED: { numericCode: 10, kind: 'permission', fix: 'Use tools and `emit`; or set `allowAsk`.' },
  SCRIPT_ASK_UNAVAILABLE: { numericCode: 18, kind: 'runtime', fix: 'register one with `createInterpreter({ orchestrator })`' },
  SCRIPT_BAD_ESCAPE: { numericCode: 15, kind: 'syntax', fix: 'Use `\\n \\t \\r \\" \\\' \\\\ \\xHH \\uHHHH`, `\\\\` for a backslash, or a raw `\'\'\'…\'\'\'` string.' },
  SCRIPT_BAD_INTERPOLATION: { numericCode: 15, kind: 'syntax', fix: 'Write `{{name}}`, `{{items[0]}}` or `{{@nl}}`.' },
  SCRIPT_BAD_METADATA: { numericCode: 15, kind: 'syntax', fix: 'Write `:: key: value`.' },
  SCRIPT_BREAK_OUTSIDE_LOOP: { numericCode: 39, kind: 'check', fix: 'Move it into a loop or remove it.' },
  SCRIPT_CALL_DEPTH: { numericCode: 37, kind: 'quota', fix: 'recurse less deeply or iterate' },
  SCRIPT_CLEAR_ERROR_OUTSIDE_HANDLER: { numericCode: 13, kind: 'check', fix: 'Use it only inside a handler.' },
  SCRIPT_CONTINUE_OUTSIDE_LOOP: { numericCode: 39, kind: 'check', fix: 'Move it into a loop or remove it.' },
  SCRIPT_COUNT_MISMATCH: { numericCode: 36, kind: 'runtime', fix: 'return/assign as many values as names' },
  SCRIPT_DISALLOWED_CHARACTER: { numericCode: 15, kind: 'syntax', fix: 'Delete it.' },
  SCRIPT_DIVISION_BY_ZERO: { numericCode: 14, kind: 'runtime', fix: 'check the divisor first' },
  SCRIPT_DUPLICATE_FUNCTION: { numericCode: 42, kind: 'check', fix: 'Rename one.' },
  SCRIPT_DUPLICATE_PARAMETER: { kind: 'check', fix: 'Give each parameter of a function its own name.' },
  SCRIPT_EVENT_HANDLER_PLACEMENT: { kind: 'check', fix: 'Declare handlers at the top level of a library script.' },
  SCRIPT_FAIL: { numericCode: 1, kind: 'runtime', fix: '(intended by the script)' },
  SCRIPT_FUEL_EXHAUSTED: { numericCode: 37, kind: 'quota', fix: 'do less work per turn, or raise `--fuel`' },
  SCRIPT_FUNCTION_ARGUMENT_COUNT: { numericCode: 4, kind: 'check', fix: 'Pass as many arguments as the function takes: a script function\'s `needs` and `optional` lists, a built-in\'s count in the message.' },
  SCRIPT_FUNCTION_NOT_FOUND: { numericCode: 2, kind: 'runtime', fix: 'define it in a library or fix the name' },
  SCRIPT_FUNCTION_UNKNOWN: { numericCode: 2, kind: 'check', fix: 'Write what the message names instead (a built-in, a tool or a statement), or fix the name; a host can define the function in a library passed with the program.' },
  SCRIPT_GLOBAL_READ_ONLY: { numericCode: 43, kind: 'runtime', fix: 'copy it into a local first' },
  SCRIPT_INDEX_OUT_OF_RANGE: { numericCode: 8, kind: 'runtime', fix: 'check `len(list)` first' },
  SCRIPT_INDEX_TYPE: { numericCode: 7, kind: 'runtime', fix: 'index lists by number, maps by string' },
  SCRIPT_INTERNAL: { numericCode: 6, kind: 'internal', fix: 'report it' },
  SCRIPT_INVALID_ARGUMENT: { numericCode: 41, kind: 'runtime', fix: 'see the message' },
  SCRIPT_INVALID_PROGRAM: { kind: 'syntax', fix: 'Pass source text, or an AST exactly as `parse()` built it (`validateProgram` checks one).' },
  SCRIPT_LOOP_LIMIT: { numericCode: 37, kind: 'quota', fix: 'bound the loop' },
  SCRIPT_MAP_KEY_UNSET: { kind: 'check', fix: 'Write the key in quotes (`{"name": "Ada"}`), or set the variable first when its value is the key.' },
  SCRIPT_MEMORY_LIMIT: { numericCode: 37, kind: 'quota', fix: 'build smaller values' },
  SCRIPT_MIXED_SCRIPT: { numericCode: 15, kind: 'syntax', fix: 'Split into a library script and a command script.' },
  SCRIPT_MUST_FAILED: { numericCode: 5, kind: 'runtime', fix: '(intended by the script)' },
  SCRIPT_NESTING_TOO_DEEP: { numericCode: 38, kind: 'syntax', fix: 'Compute inner parts into variables with `set` first; use fewer nested blocks.' },
  SCRIPT_NOT_A_CONTAINER: { numericCode: 7, kind: 'runtime', fix: 'check `typeof` first' },
  SCRIPT_NOT_IMPLEMENTED: { numericCode: 35, kind: 'runtime', fix: 'use another construct' },
  SCRIPT_NOT_ITERABLE: { numericCode: 7, kind: 'runtime', fix: 'iterate lists, strings or maps' },
  SCRIPT_NUMBER_TOO_LARGE: { numericCode: 15, kind: 'syntax', fix: 'Write a smaller number.' },
  SCRIPT_ON_ERROR_PLACEMENT: { numericCode: 15, kind: 'check', fix: 'Put it in a `func` or `command`.' },
  SCRIPT_ON_ERROR_UNUSED: { kind: 'check', fix: 'Merge the handlers into the first: only it runs.' },
  SCRIPT_OUTPUT_LIMIT: { numericCode: 37, kind: 'quota', fix: 'emit less; what was emitted is kept' },
  SCRIPT_PARSE_LIMIT: { numericCode: 37, kind: 'syntax', fix: 'Write a shorter program, or split the work across turns; or raise the limit.' },
  SCRIPT_PROGRAM_TOO_LARGE: { numericCode: 37, kind: 'syntax', fix: 'Write a shorter program, or split the work across turns.' },
  SCRIPT_PROMPTUSER_NOT_ALLOWED: { numericCode: 10, kind: 'permission', fix: 'Emit the question as output; or set `allowPromptUser`.' },
  SCRIPT_PROMPT_UNAVAILABLE: { numericCode: 18, kind: 'runtime', fix: 'register `promptUser`' },
  SCRIPT_RETURN_IN_COMMAND: { numericCode: 15, kind: 'check', fix: 'Use `emit`; a command ends after its last statement.' },
  SCRIPT_RETURN_IN_HANDLER: { numericCode: 12, kind: 'runtime', fix: 'Set a variable and `clear_error`.' },
  SCRIPT_SCRATCHPAD_LIMIT: { numericCode: 37, kind: 'quota', fix: 'whisper less' },
  SCRIPT_SOURCE_TOO_LARGE: { numericCode: 37, kind: 'syntax', fix: 'Split the work.' },
  SCRIPT_SYNTAX: { numericCode: 15, kind: 'syntax', fix: 'Follow the message.' },
  SCRIPT_TIMEOUT: { numericCode: 37, kind: 'timeout', fix: 'do less per turn, or raise `--timeout-ms`' },
  SCRIPT_TOOL_ARGUMENTS: {
    numericCode: 4,
    kind: 'runtime',
    fix: "see the tool's signature in the message; for an infinity or NaN, check the number before the call (`if x > -1e308 and x < 1e308` is false for all three)",
  },
  SCRIPT_TOOL_ARGUMENT_COUNT: { numericCode: 4, kind: 'check', fix: 'Pass the arguments the message lists, positionally or as one map of named arguments.' },
  SCRIPT_TOOL_ARGUMENT_TYPE: { numericCode: 4, kind: 'check', fix: 'Pass a value of the type the message names (a number, not "5"; a list, not a string), or compute it first.' },
  SCRIPT_TOOL_CALL_LIMIT: { numericCode: 20, kind: 'quota', fix: 'batch work into fewer calls' },
  SCRIPT_TOOL_DATA_LIMIT: { numericCode: 37, kind: 'quota', fix: 'pass and fetch less data through tools in one run: work in parts across turns' },
  SCRIPT_TOOL_DENIED: { numericCode: 1003, kind: 'permission', fix: 'Use another tool, or change the policy.' },
  SCRIPT_TOOL_ERROR: { numericCode: 21, kind: 'runtime', fix: 'see the tool\'s message; `[TOOL_RESULT_INVALID]` (numeric code 6): return plain data (see "What a bridge and the orchestrator may return"); from `promptuser`: the hook must give a string' },
  SCRIPT_TOOL_NOT_FOUND: { numericCode: 3, kind: 'runtime', fix: 'use a tool from the catalogue' },
  SCRIPT_TOOL_UNKNOWN: { numericCode: 3, kind: 'permission', fix: 'Use the suggested name or a listed tool.' },
  SCRIPT_TYPE_MISMATCH: { numericCode: 7, kind: 'runtime', fix: 'give the operator values it takes, as the message says: numbers for arithmetic and `< > <= >=` (a numeric string counts), text on either side of `+` to join; a nil is usually a map key that is absent: read it with a default, `tool.map.Get(m, k, 0)`' },
  SCRIPT_VALUE_TOO_LARGE: { numericCode: 37, kind: 'quota', fix: 'build smaller (flatter) values' },
  SCRIPT_VARIABLE_UNSET: { kind: 'runtime', fix: 'Set the variable before reading it, or fix its name (the message names the closest one); text goes in quotes: `"hello"`, not `hello`.' },
  SCRIPT_WHISPER_TARGET_UNSET: { kind: 'check', fix: 'Write `whisper self, …` for your own notes, or the target in quotes (`whisper "notes", …`); or set the variable first when its value is the target.' },
} as const satisfies Readonly<Record<string, ErrorCodeInfo>>;

/** A stable interpreter error code. */
export type ScriptErrorCode = keyof typeof SCRIPT_ERROR_CODES;

/** The kind of a code; an unknown code (e.g. one a host invented) is `internal`. */
export function errorKind(code: string): ErrorKind {
  return Object.hasOwn(SCRIPT_ERROR_CODES, code) ? SCRIPT_ERROR_CODES[code as ScriptErrorCode].kind : 'internal';
}

/** The reference's numeric code for `code`, when it has one. */
export function numericCodeOf(code: string): number | undefined {
  if (!Object.hasOwn(SCRIPT_ERROR_CODES, code)) return undefined;
  const info: ErrorCodeInfo = SCRIPT_ERROR_CODES[code as ScriptErrorCode];
  return info.numericCode;
}

/**
 * Kinds a script's `on error` handler never sees: stopping the run is their
 * point (otherwise a handler could keep a runaway going), and interpreter bugs.
 */
export function skipsHandlers(kind: ErrorKind): boolean {
  return kind === 'quota' || kind === 'timeout' || kind === 'cancelled' || kind === 'internal';
}
