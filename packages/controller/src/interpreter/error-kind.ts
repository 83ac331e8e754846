/**
 * The kind of an interpreter error code, derived from the code until the
 * interpreter reports kinds itself (`errorKind(code)` of wave 1 replaces this
 * one file). The loop maps kinds, never codes, to halt reasons.
 */
import type { ScriptErrorKind } from './loop-interpreter.ts';

const SYNTAX = new Set([
  'SCRIPT_SYNTAX', 'SCRIPT_BAD_ESCAPE', 'SCRIPT_BAD_INTERPOLATION', 'SCRIPT_BAD_METADATA', 'SCRIPT_DISALLOWED_CHARACTER',
  'SCRIPT_MIXED_SCRIPT', 'SCRIPT_NUMBER_TOO_LARGE', 'SCRIPT_SOURCE_TOO_LARGE', 'SCRIPT_INVALID_PROGRAM',
]);
const PERMISSION = new Set(['SCRIPT_TOOL_DENIED', 'SCRIPT_TOOL_UNKNOWN', 'SCRIPT_ASK_NOT_ALLOWED', 'SCRIPT_PROMPTUSER_NOT_ALLOWED']);
const QUOTA = new Set([
  'SCRIPT_FUEL_EXHAUSTED', 'SCRIPT_MEMORY_LIMIT', 'SCRIPT_OUTPUT_LIMIT', 'SCRIPT_SCRATCHPAD_LIMIT', 'SCRIPT_TOOL_CALL_LIMIT',
  'SCRIPT_LOOP_LIMIT', 'SCRIPT_CALL_DEPTH', 'SCRIPT_VALUE_TOO_LARGE',
]);
/** Static-check codes that are not syntax: the program is well formed but may not run as written. */
const CHECK = new Set([
  'SCRIPT_AGENT_COMMAND_COUNT', 'SCRIPT_AGENT_EVENT_HANDLER', 'SCRIPT_AGENT_FUNCTION_DEFINITION', 'SCRIPT_BREAK_OUTSIDE_LOOP',
  'SCRIPT_CONTINUE_OUTSIDE_LOOP', 'SCRIPT_EVENT_HANDLER_PLACEMENT', 'SCRIPT_ON_ERROR_PLACEMENT', 'SCRIPT_TOOL_ARGUMENT_COUNT',
]);

/** The kind of `code`; unknown codes are run-time errors (the safe default: fed back, never fatal on their own). */
export function errorKind(code: string): ScriptErrorKind {
  if (SYNTAX.has(code)) return 'syntax';
  if (PERMISSION.has(code)) return 'permission';
  if (CHECK.has(code)) return 'check';
  if (QUOTA.has(code) || code === 'SANDBOX_MEMORY') return 'quota';
  if (code === 'SCRIPT_TIMEOUT' || code === 'SANDBOX_TIMEOUT') return 'timeout';
  if (code === 'SCRIPT_ABORTED' || code === 'SANDBOX_ABORTED') return 'cancelled';
  if (code === 'SCRIPT_INTERNAL' || code.startsWith('SANDBOX_')) return 'internal';
  return 'runtime';
}
