/**
 * Stable run-time error codes (sorted) and the Go reference's numeric code for
 * each (reference §1.10), so messages stay familiar to models trained on it.
 * Every code is documented in the package README under "Error codes (evaluation)".
 */
export const RUNTIME_ERROR_CODES = {
  SCRIPT_ARGUMENT_COUNT: 4,
  SCRIPT_ASK_FAILED: 16,
  SCRIPT_ASK_UNAVAILABLE: 18,
  SCRIPT_CALL_DEPTH: 37,
  SCRIPT_CLEAR_ERROR_OUTSIDE_HANDLER: 13,
  SCRIPT_COUNT_MISMATCH: 36,
  SCRIPT_DIVISION_BY_ZERO: 14,
  SCRIPT_DUPLICATE_FUNCTION: 42,
  SCRIPT_FAIL: 1,
  SCRIPT_FUEL_EXHAUSTED: 37,
  SCRIPT_FUNCTION_NOT_FOUND: 2,
  SCRIPT_GLOBAL_READ_ONLY: 43,
  SCRIPT_INDEX_OUT_OF_RANGE: 8,
  SCRIPT_INDEX_TYPE: 7,
  SCRIPT_INTERNAL: 6,
  SCRIPT_INVALID_ARGUMENT: 41,
  SCRIPT_LOOP_LIMIT: 37,
  SCRIPT_MEMORY_LIMIT: 37,
  SCRIPT_MUST_FAILED: 5,
  SCRIPT_NOT_A_CONTAINER: 7,
  SCRIPT_NOT_IMPLEMENTED: 35,
  SCRIPT_NOT_ITERABLE: 7,
  SCRIPT_OUTPUT_LIMIT: 37,
  SCRIPT_PROMPT_UNAVAILABLE: 18,
  SCRIPT_RETURN_IN_COMMAND: 15,
  SCRIPT_RETURN_IN_HANDLER: 12,
  SCRIPT_SCRATCHPAD_LIMIT: 37,
  SCRIPT_TIMEOUT: 37,
  SCRIPT_TOOL_ARGUMENTS: 4,
  SCRIPT_TOOL_CALL_LIMIT: 20,
  SCRIPT_TOOL_DENIED: 1003,
  SCRIPT_TOOL_ERROR: 21,
  SCRIPT_TOOL_NOT_FOUND: 3,
  SCRIPT_TYPE_MISMATCH: 7,
  SCRIPT_VALUE_TOO_LARGE: 37,
} as const;

/** A stable run-time error code. */
export type RuntimeErrorCode = keyof typeof RUNTIME_ERROR_CODES;

/**
 * Codes a script's `on error` handler never sees: quotas that must stop the
 * run (otherwise a handler could keep a runaway going), and interpreter bugs.
 */
export const FATAL_CODES: ReadonlySet<string> = new Set([
  'SCRIPT_FUEL_EXHAUSTED',
  'SCRIPT_INTERNAL',
  'SCRIPT_MEMORY_LIMIT',
  'SCRIPT_OUTPUT_LIMIT',
  'SCRIPT_SCRATCHPAD_LIMIT',
  'SCRIPT_TIMEOUT',
  'SCRIPT_TOOL_CALL_LIMIT',
]);
