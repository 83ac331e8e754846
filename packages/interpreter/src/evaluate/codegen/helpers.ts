/**
 * The run-time support the generated code of one run calls: small functions
 * closed over the run's machine, with inline fast paths for numbers so V8
 * inlines them into the generated function bodies. All value semantics live in
 * `src/runtime`; these only adapt them to the generated code's calling shape.
 */
import {
  ARGUMENT_CHARS_PER_STRING_LENGTH,
  add,
  bitwise,
  bitwiseNot,
  callBuiltin,
  checkCollectionSize,
  checkStringLength,
  compare,
  fail,
  findBuiltin,
  indexValue,
  isTruthy,
  type JsonValue,
  multiply,
  negate,
  numeric,
  type Position,
  describeValue,
  ScriptError,
  scriptEquals,
  sortedKeys,
  toJson,
  toText,
  typeName,
  type Value,
} from '../../runtime/index.ts';
import { MAX_ASKS_AND_PROMPTS } from '../../runtime/limits.ts';
import { INT64_LIMIT } from '../../runtime/to-number.ts';
import { refuseNonFiniteArgument } from '../../runtime/non-finite-argument.ts';
import type { ScriptErrorCode } from '../../runtime/error-codes.ts';
import type { Machine } from '../machine.ts';
import { assignOne, assignPath, type PathStep } from '../assign-path.ts';

/** Creates the helpers for one run. */
export function createHelpers(machine: Machine, positions: readonly Position[]) {
  const { limits, owned } = machine;
  // What a tool call's arguments (or an ask's options) may hold in text, for the whole run.
  const argumentChars = ARGUMENT_CHARS_PER_STRING_LENGTH * limits.stringLength;
  const maxLoop = limits.loopIterations;
  // Read once here, not at the bottom of an overflowing stack: under a module loader that reaches imports
  // through getters (vitest), `frame` below would otherwise find no class when the stack is exhausted.
  const ErrorClass = ScriptError;
  /** Counts an `ask` or `promptuser` against their fixed bound (each is a whole conversation; see `MAX_ASKS_AND_PROMPTS`). */
  const countAskOrPrompt = (statement: 'ask' | 'promptuser', w: Position): void => {
    if (machine.asksAndPrompts >= MAX_ASKS_AND_PROMPTS) {
      fail('SCRIPT_TOOL_CALL_LIMIT', `The program made more than ${MAX_ASKS_AND_PROMPTS} ask and promptuser statements in one run (this ${statement} is one too many); spread them over more turns (a fixed bound).`, w);
    }
    machine.asksAndPrompts++;
  };
  return {
    /** Truthiness. */
    tr: isTruthy,
    /** A variable read whose value may be stored elsewhere (see `Machine.owned`). */
    sh(value: Value | undefined): Value {
      if (value === undefined) return null;
      if (typeof value === 'object' && value !== null) owned.delete(value);
      return value;
    },
    add: (a: Value, b: Value, w: Position): Value => (typeof a === 'number' && typeof b === 'number' ? a + b : add(a, b, w, limits)),
    sub: (a: Value, b: Value, w: Position): Value => (typeof a === 'number' && typeof b === 'number' ? a - b : numeric('-', a, b, w)),
    mul: (a: Value, b: Value, w: Position): Value => (typeof a === 'number' && typeof b === 'number' ? a * b : multiply(a, b, w, limits)),
    div: (a: Value, b: Value, w: Position): Value => (typeof a === 'number' && typeof b === 'number' && b !== 0 ? a / b : numeric('/', a, b, w)),
    mod: (a: Value, b: Value, w: Position): Value =>
      typeof a === 'number' && typeof b === 'number' && b !== 0 && Number.isInteger(a) && Number.isInteger(b) && Math.abs(a) < INT64_LIMIT && Math.abs(b) < INT64_LIMIT
        ? a % b
        : numeric('%', a, b, w),
    pow: (a: Value, b: Value, w: Position): Value => numeric('**', a, b, w),
    lt: (a: Value, b: Value, w: Position): boolean => (typeof a === 'number' && typeof b === 'number' ? a < b : compare('<', a, b, w)),
    gt: (a: Value, b: Value, w: Position): boolean => (typeof a === 'number' && typeof b === 'number' ? a > b : compare('>', a, b, w)),
    le: (a: Value, b: Value, w: Position): boolean => (typeof a === 'number' && typeof b === 'number' ? a <= b : compare('<=', a, b, w)),
    ge: (a: Value, b: Value, w: Position): boolean => (typeof a === 'number' && typeof b === 'number' ? a >= b : compare('>=', a, b, w)),
    eq: (a: Value, b: Value, w: Position): boolean => a === b || scriptEquals(a, b, limits, w),
    ne: (a: Value, b: Value, w: Position): boolean => a !== b && !scriptEquals(a, b, limits, w),
    band: (a: Value, b: Value, w: Position): Value => bitwise('&', a, b, w),
    bor: (a: Value, b: Value, w: Position): Value => bitwise('|', a, b, w),
    bxor: (a: Value, b: Value, w: Position): Value => bitwise('^', a, b, w),
    neg: (a: Value, w: Position): Value => (typeof a === 'number' ? -a : negate(a, w)),
    bnot: bitwiseNot,
    tof: typeName,
    /** `collection[index]` with a fast path for in-range list indexes. */
    ix(collection: Value, index: Value, w: Position): Value {
      if (Array.isArray(collection) && typeof index === 'number' && index >= 0 && index < collection.length && Number.isInteger(index)) {
        return collection[index] as Value;
      }
      return indexValue(collection, index, w, limits);
    },
    /** A map literal from alternating keys and values. */
    map(entries: Value[], w: Position): Value {
      const map = new Map<string, Value>();
      for (let i = 0; i < entries.length; i += 2) {
        const key = entries[i] as Value;
        map.set(typeof key === 'string' ? key : toText(key, limits.stringLength, w), entries[i + 1] as Value);
      }
      return map;
    },
    /** A value as text inside an interpolation (quota: stringLength). */
    txt: (value: Value, w: Position): string => toText(value, limits.stringLength, w),
    /** Checks the length of a string built by interpolation. */
    cs(text: string, w: Position): string {
      checkStringLength(text.length, limits, w);
      return text;
    },
    /** A built-in call (the built-in was found when the code was generated). */
    bi(name: string, builtin: NonNullable<ReturnType<typeof findBuiltin>>, args: Value[], w: Position): Value {
      return callBuiltin(name, builtin, args, w);
    },
    /** A tool call: counted, then sent to the host. `shown` is the name as the program wrote it, for messages. */
    tool(name: string, args: Value[], w: Position, shown: string = name): Value {
      machine.tick(w);
      if (machine.toolCalls >= limits.toolCalls) {
        fail('SCRIPT_TOOL_CALL_LIMIT', `The program made more than ${limits.toolCalls} tool calls (limit: toolCalls).`, w);
      }
      machine.toolCalls++;
      // Bounded in text too: the arguments are copied as JSON into the host, once per share of a shared string.
      // An infinity or NaN would reach the tool as null: refused here, naming it (V9).
      const data = toJson(args, limits, w, argumentChars, () => refuseNonFiniteArgument(shown, args, w)) as JsonValue[];
      return machine.request({ kind: 'tool', name, args: data }, w);
    },
    ask(agent: Value, prompt: Value, options: Value | undefined, w: Position): Value {
      countAskOrPrompt('ask', w);
      const request = {
        kind: 'ask' as const,
        agent: toText(agent, limits.stringLength, w),
        prompt: toText(prompt, limits.stringLength, w),
        options: options === undefined ? null : toJson(options, limits, w, argumentChars),
      };
      machine.tick(w);
      return machine.request(request, w);
    },
    prompt(prompt: Value, w: Position): Value {
      countAskOrPrompt('promptuser', w);
      return machine.request({ kind: 'promptuser', prompt: toText(prompt, limits.stringLength, w) }, w);
    },
    emit(value: Value, w: Position): Value {
      machine.emit(toText(value, limits.stringLength, w), w);
      return value;
    },
    whisper(handle: Value, value: Value, w: Position): Value {
      machine.whisper(toText(handle, limits.stringLength, w), toText(value, limits.stringLength, w), w);
      return value;
    },
    must(value: Value, w: Position): Value {
      if (!isTruthy(value)) fail('SCRIPT_MUST_FAILED', `must condition failed (the value was ${describeValue(value)}).`, w);
      return value;
    },
    failWith: (message: Value, w: Position): never => fail('SCRIPT_FAIL', toText(message, limits.stringLength, w), w),
    raise: (code: ScriptErrorCode, message: string, w: Position): never => fail(code, message, w),
    /** Stores `value` at `steps` inside `current`, in place when only this variable holds it. */
    store(current: Value | undefined, steps: PathStep[], value: Value): Value {
      const inPlace = typeof current === 'object' && current !== null && owned.has(current);
      const next = assignPath(current === undefined ? null : current, steps, 0, value, limits, inPlace);
      // Changed in place, the container is the one already owned.
      if (!inPlace && typeof next === 'object' && next !== null) owned.add(next);
      return next;
    },
    /** `store` for a path of one step (`set x[key] = …`, `set x.field = …`), without building the path. */
    store1(current: Value | undefined, key: Value, field: boolean, w: Position, value: Value): Value {
      const inPlace = typeof current === 'object' && current !== null && owned.has(current);
      const next = assignOne(current === undefined ? null : current, key, field, w, value, limits, inPlace);
      if (!inPlace && typeof next === 'object' && next !== null) owned.add(next);
      return next;
    },
    /** The list of a multi-assignment, checked. */
    multi(value: Value, count: number, w: Position): Value[] {
      if (!Array.isArray(value)) return fail('SCRIPT_TYPE_MISMATCH', `Assigning to ${count} names needs a list on the right-hand side.`, w);
      if (value.length !== count) return fail('SCRIPT_COUNT_MISMATCH', `LHS count ${count} doesn't match RHS list length ${value.length}.`, w);
      return value;
    },
    /** What `for each` visits: list items, string characters, map values in sorted key order; nil visits nothing. */
    items(collection: Value, w: Position): readonly Value[] {
      if (collection === null) return [];
      if (Array.isArray(collection)) return collection;
      if (typeof collection === 'string') return Array.from(collection);
      if (collection instanceof Map) return sortedKeys(collection).map((key) => collection.get(key) as Value);
      return fail('SCRIPT_NOT_ITERABLE', `Cannot iterate over a ${typeName(collection)}; 'for each' takes a list, string or map.`, w);
    },
    maxLoop,
    loopLimit: (w: Position): never => fail('SCRIPT_LOOP_LIMIT', `exceeded max iterations (${maxLoop}) in one loop (limit: loopIterations).`, w),
    /** Checks the size of a list built from a literal. */
    size(count: number, w: Position): void {
      checkCollectionSize(count, limits, w);
    },
    /** The deepest call allowed (a function's `depth` parameter; the command blocks are depth 0). */
    maxDepth: limits.callDepth,
    /** A call past the call-depth limit, reported at its call site. */
    depthLimit: (site: number): never =>
      fail('SCRIPT_CALL_DEPTH', `Calls are nested more than ${limits.callDepth} deep (limit: callDepth); is a recursion missing its base case?`, positions[site]),
    /** Adds this function's frame to an error leaving it; turns a JavaScript stack overflow into `SCRIPT_CALL_DEPTH`. */
    frame(error: unknown, name: string, siteIndex: number): unknown {
      const site = siteIndex < 0 ? null : (positions[siteIndex] as Position);
      let scriptError = error;
      if (error instanceof RangeError) {
        scriptError = new ErrorClass('SCRIPT_CALL_DEPTH', 'The interpreter ran out of stack; calls or expressions are nested too deeply (limit: callDepth).', site);
      }
      if (scriptError instanceof ErrorClass) {
        if (scriptError.frames.length === 0 || site === null) scriptError.frames.push({ name, line: scriptError.line, column: scriptError.column });
        else scriptError.frames.push({ name, line: site.line, column: site.column });
      }
      return scriptError;
    },
    /** Whether an `on error` handler of the activation `token` may handle `error` (marks it if so). */
    handles(error: unknown, token: object): error is ScriptError {
      if (!(error instanceof ScriptError) || error.fatal || error.handledBy === token) return false;
      error.handledBy = token;
      return true;
    },
  };
}

/** The helpers' type. */
export type Helpers = ReturnType<typeof createHelpers>;
