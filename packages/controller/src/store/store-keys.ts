/**
 * The session ids and turn indexes every transcript store can hold, checked
 * by each store (memory, SQLite, PostgreSQL) in the same words, so a key one
 * store keeps is never one another refuses or mangles. PostgreSQL's `text`
 * cannot hold U+0000 and encodes a lone surrogate as U+FFFD (two ids would
 * become one), its `integer` turn index stops at 2^31 − 1, and its primary
 * key index takes entries of a few KiB only; control characters in an id
 * would also break the log lines and the viewer that print it. The
 * controller's own ids (random UUIDs) are far inside these bounds.
 */
import { loneSurrogateIndex } from '@askloop/tools';
import { LoopError } from '../errors/loop-error.ts';

/** The longest session id, in UTF-16 code units (a UUID has 36). */
export const MAX_SESSION_ID_LENGTH = 256;

/** The highest turn index: PostgreSQL's `integer`, which the agent's `ceilings.maxTurns` stays under. */
export const MAX_TURN_INDEX = 2 ** 31 - 1;

// C0 controls (U+0000 NUL included), DEL and the C1 controls.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const codePoint = (char: string): string => `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `sid` is not a session id every store can hold, or undefined when it is one. */
export function sessionIdProblem(sid: unknown): string | undefined {
  if (typeof sid !== 'string') return `must be a string, got ${sid === null ? 'null' : typeof sid}`;
  if (sid.length === 0) return 'must not be empty';
  if (sid.length > MAX_SESSION_ID_LENGTH) return `must be at most ${MAX_SESSION_ID_LENGTH} characters, got ${sid.length}`;
  return characterProblem(sid);
}

/**
 * Why `text` has a character no store can hold or match alike (a control
 * character, a lone surrogate), or undefined: the rule of session ids, and
 * of the text `listSessions` searches for.
 */
export function characterProblem(text: string): string | undefined {
  const control = CONTROL.exec(text);
  if (control !== null) return `must not contain control characters, got ${codePoint(control[0])} at index ${control.index}`;
  // The tools' stores refuse the same halves (`loneSurrogateIndex`): a store keeps one as U+FFFD, so two ids would be one.
  const lone = loneSurrogateIndex(text);
  if (lone >= 0) return `must be well-formed Unicode, got a lone surrogate ${codePoint(text.charAt(lone))} at index ${lone}`;
  return undefined;
}

/** Throws `LOOP_ARGUMENT_INVALID` naming `where` (`createSession`, `run`…) when `sid` is not a session id every store can hold. */
export function requireSessionId(sid: unknown, where: string): asserts sid is string {
  const problem = sessionIdProblem(sid);
  if (problem !== undefined) {
    throw new LoopError({ code: 'LOOP_ARGUMENT_INVALID', message: `${where}: the session id ${quotedArgument(sid)} ${problem}` });
  }
}

/**
 * An argument as an error message shows it: a string quoted as JSON (so a
 * control character shows as an escape, not as itself) and cut at 80
 * characters, anything else as `String` gives it.
 */
export function quotedArgument(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value) : String(value);
}

/** Throws `LOOP_ARGUMENT_INVALID` naming `where` when `turnIndex` is not a whole number from 1 to {@link MAX_TURN_INDEX}. */
export function requireTurnIndex(turnIndex: unknown, where: string): asserts turnIndex is number {
  if (typeof turnIndex !== 'number' || !Number.isInteger(turnIndex) || turnIndex < 1 || turnIndex > MAX_TURN_INDEX) {
    throw new LoopError({ code: 'LOOP_ARGUMENT_INVALID', message: `${where}: the turn index must be a whole number from 1 to ${MAX_TURN_INDEX} (2^31 − 1), got ${String(turnIndex)}` });
  }
}
