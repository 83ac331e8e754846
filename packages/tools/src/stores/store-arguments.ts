/**
 * The argument rules of the tool stores' public methods, shared by every
 * backend (SQLite here, PostgreSQL in `@askloop/postgres`) through
 * `checkedToolStores`. Called from code, a store took whatever it was given:
 * `cas(key, NaN, value)` answered "stale" on SQLite, a fractional TTL failed
 * deep in PostgreSQL, and a value holding `undefined` or a function was
 * written as text that no later read could parse; a key holding U+0000
 * failed on PostgreSQL only, and keys holding a lone surrogate became one
 * key (U+FFFD) on both. Each rule throws
 * `STORE_ARGUMENT_INVALID` naming the method, the argument, what it got and
 * what to pass instead.
 *
 * What a value is allowed to be is what a tool call's arguments may be
 * (`toToolValue`): plain JSON data nested at most `MAX_TOOL_VALUE_DEPTH`
 * levels, so no NeuroScript tool call is refused here. A value is never
 * shown in a message (it may hold a secret), only where in it the fault is.
 */
import { ToolError } from '../errors/tool-error.ts';
import { className, describeNotPlainData } from '../spec/not-plain-data.ts';
import { isToolMap, MAX_TOOL_VALUE_DEPTH, shownPath, type ToolValue } from '../spec/tool-value.ts';
import { loneSurrogateIndex, unitName } from '../text/lone-surrogate.ts';
import { nulIndex } from '../text/nul-character.ts';

/**
 * A short description of a refused scalar argument. A string is shown by its
 * length only, so no key or secret text reaches a message.
 */
function shown(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value === '' ? 'an empty string' : `a string of ${value.length} character${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'bigint') return 'a BigInt';
  if (typeof value !== 'object') return `a ${typeof value}`;
  if (Array.isArray(value)) return 'a list';
  // Read safely: a proxy whose traps throw must not turn the refusal into another error.
  let map: boolean;
  try {
    map = isToolMap(value);
  } catch {
    map = false;
  }
  return map ? 'a map' : `an object of class ${className(value)}`;
}

function refuse(method: string, argument: string, why: string): ToolError {
  return new ToolError('STORE_ARGUMENT_INVALID', `${method}(): ${argument} ${why}`, { argument });
}

/** What a name argument is, in a fix: "use a session id without …". */
const NAME_NOUNS: Readonly<Record<string, string>> = { session: 'session id', tool: 'tool name' };

/**
 * A key, session id or tool name: a non-empty string without U+0000, which
 * PostgreSQL's text cannot hold (`text/nul-character.ts`), and well-formed
 * (no lone surrogate, which both backends keep as U+FFFD, so two names would
 * be one: `text/lone-surrogate.ts`); refused alike on every backend, saying
 * where the character is but not what surrounds it.
 */
export function checkName(method: string, argument: string, value: unknown, example: string): asserts value is string {
  if (typeof value !== 'string' || value === '') throw refuse(method, argument, `must be a non-empty string (e.g. ${example}), got ${shown(value)}`);
  const noun = NAME_NOUNS[argument] ?? argument;
  const nul = nulIndex(value);
  if (nul >= 0) {
    throw refuse(method, argument, `must be text without the NUL character (U+0000), which PostgreSQL cannot store, got ${shown(value)} with it at index ${nul}: use a ${noun} without the NUL character`);
  }
  const lone = loneSurrogateIndex(value);
  if (lone >= 0) {
    throw refuse(method, argument, `must be well-formed text, got ${shown(value)} whose character at index ${lone} is half of a surrogate pair (${unitName(value, lone)}) without its other half, which every store keeps as U+FFFD, so two ${noun}s would be one: use a ${noun} that is well-formed text`);
  }
}

/** A version, turn or call index: a whole number >= 0. */
export function checkIndex(method: string, argument: string, value: unknown, meaning: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw refuse(method, argument, `must be a whole number >= 0 (${meaning}), got ${shown(value)}`);
}

/** A time-to-live in ms: a whole number >= 1 (an entry that lives 0 ms is never read). */
export function checkTtl(method: string, argument: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw refuse(method, argument, `must be a whole number of milliseconds >= 1, got ${shown(value)}`);
}

/** An age in ms: any number but NaN (`forgetBefore` takes a negative or fractional age as its whole part, at least 0; Infinity removes nothing). */
export function checkAge(method: string, argument: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || Number.isNaN(value)) throw refuse(method, argument, `must be a number of milliseconds (Infinity keeps every record), got ${shown(value)}`);
}

/** What an idempotence record's `argumentsJson` must be. */
const TEXT_RULE = "must be a string (the canonical JSON text of the call's arguments, canonicalJson(args), which writes U+0000 as \\u0000 and a lone surrogate as \\udXXX)";

/**
 * Text the store keeps as it is (an idempotence record's arguments JSON):
 * canonical JSON never holds a raw U+0000, which PostgreSQL cannot store, nor
 * a raw lone surrogate, which a store would keep as U+FFFD (a replay's
 * arguments would no longer match): it writes both as escapes.
 */
export function checkText(method: string, argument: string, value: unknown): asserts value is string {
  if (typeof value === 'string') {
    const nul = nulIndex(value);
    const lone = loneSurrogateIndex(value);
    if (nul < 0 && lone < 0) return;
    const got = nul >= 0 ? `${shown(value)} with a raw NUL at index ${nul}` : `${shown(value)} with a raw lone surrogate (${unitName(value, lone)}) at index ${lone}`;
    throw refuse(method, argument, `${TEXT_RULE}, got ${got}`);
  }
  throw refuse(method, argument, `${TEXT_RULE}, got ${shown(value)}`);
}

/** An object argument (an idempotence key or record) before its fields are checked. */
export function checkObject(method: string, argument: string, value: unknown): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw refuse(method, argument, `must be an object, got ${shown(value)}`);
}

/**
 * A value to store: plain JSON data. Throws naming where in it the fault is,
 * never its content: it may hold a secret.
 */
export function checkStoredValue(method: string, argument: string, value: unknown): asserts value is ToolValue {
  const fault = valueFault(value, '$', new Set());
  if (fault !== undefined) {
    throw refuse(method, argument, `must be plain JSON data (null, a boolean, a finite number, a string, a list, or a map of these, at most ${MAX_TOOL_VALUE_DEPTH} levels deep), but ${fault}; convert it first`);
  }
}

/** A value no store keeps, named and fixed as a tool result's is ("What a tool may return" in the README). */
function notPlain(value: unknown, path: string): string {
  const { kind, fix } = describeNotPlainData(value);
  return `it holds ${kind} at ${shownPath(path)} (${fix})`;
}

/** Why `value` at `path` is not storable, or undefined when it is; `ancestors` holds the containers above it. */
function valueFault(value: unknown, path: string, ancestors: Set<object>): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : notPlain(value, path);
  // undefined: canonical JSON would write `undefined`, not data (a tool's result has it as nil already).
  if (value === undefined) return `it holds undefined at ${shownPath(path)} (pass null for nil)`;
  // A function, a symbol or a BigInt: named and fixed as a tool result's would be.
  if (typeof value !== 'object') return notPlain(value, path);
  // The same bound as a tool call's arguments: deeper values were never a script's, and a walk must stop somewhere.
  if (ancestors.size >= MAX_TOOL_VALUE_DEPTH) return `it nests more than ${MAX_TOOL_VALUE_DEPTH} levels deep at ${shownPath(path)}`;
  if (ancestors.has(value)) return `it is cyclic at ${shownPath(path)}`;
  // A plain map with a toJSON method is refused as a whole, as a tool's result is: it meant to be converted.
  if ((!Array.isArray(value) && !isToolMap(value)) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return notPlain(value, path);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        const itemPath = `${path}[${index}]`;
        // A hole reads as undefined, which canonical JSON would write as nothing between two commas.
        const fault = index in value ? valueFault(value[index], itemPath, ancestors) : `it has an empty slot at ${shownPath(itemPath)}`;
        if (fault !== undefined) return fault;
      }
      return undefined;
    }
    for (const key of Object.keys(value)) {
      const fault = valueFault((value as Record<string, unknown>)[key], `${path}.${key}`, ancestors);
      if (fault !== undefined) return fault;
    }
    return undefined;
  } finally {
    ancestors.delete(value);
  }
}
