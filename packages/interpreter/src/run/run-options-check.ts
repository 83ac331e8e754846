/**
 * The options check of `prepare`, `execute` and `run`. A misspelt or
 * misplaced option was ignored and the call went on without it:
 * `prepare(source, { tools: catalog })` checked no tool before the program
 * ran, `execute(prepared, { tool: host })` ran with no tools. Each is refused
 * with `SANDBOX_INVALID_REQUEST` naming the option, as `createInterpreter`
 * refuses its own: a rejection, not a diagnostic, since it is the host's
 * mistake and a diagnostic goes back to the model, which cannot fix it.
 */
import { describeGiven } from '../ast/validate-program.ts';
import { closestName } from '../check/closest-name.ts';
import { isAbortSignal } from '../sandbox/request-validation.ts';
import { SandboxError } from '../sandbox/sandbox-error.ts';
import type { ExecuteOptions, PrepareOptions } from './run-types.ts';

// Listed as the keys of a record of every option the type has, so an option added to a type and not here fails the typecheck.
/** Every option `prepare` reads. */
const PREPARE_OPTIONS: readonly string[] = Object.keys({ mode: 1, catalog: 1, libraries: 1, fileName: 1, allowAsk: 1, globalNames: 1 } satisfies Record<keyof PrepareOptions, 1>);
/** Every option `execute` reads. */
const EXECUTE_OPTIONS: readonly string[] = Object.keys({
  tools: 1,
  localTools: 1,
  limits: 1,
  signal: 1,
  userdata: 1,
  globals: 1,
  onEmit: 1,
  onWhisper: 1,
  onToolCall: 1,
  onStart: 1,
} satisfies Record<keyof ExecuteOptions, 1>);

/** The method whose options are checked. */
export type OptionsOf = 'prepare' | 'execute' | 'run';

const OWN: Readonly<Record<OptionsOf, readonly string[]>> = { prepare: PREPARE_OPTIONS, execute: EXECUTE_OPTIONS, run: [...PREPARE_OPTIONS, ...EXECUTE_OPTIONS] };

/** What to write instead of an option of the other method (where that is not simply "call the other method") or of none. */
const INSTEAD: Readonly<Record<string, string>> = {
  // prepare's: the slip this check was made for.
  tools: 'prepare checks the tools against a catalogue: pass { catalog: host.catalog } (tools, the bridge that runs the calls, is an option of execute and run)',
  globals: 'prepare takes the names execute will bind, as globalNames',
  userdata: "prepare takes the names execute will bind, as globalNames (['userdata'])",
  // execute's.
  catalog: 'execute calls only the tools prepare approved, through tools; the catalogue is an option of prepare and run',
  mode: 'the mode is chosen at prepare (or run) and kept in the prepared program',
  // None's: @askloop/controller's port takes an ask hook per run, which a bare interpreter would silently drop.
  ask: "an ask statement goes to the interpreter's orchestrator (createInterpreter({ orchestrator })); for @askloop/controller, whose loop gives each run an ask hook, use its createDefaultInterpreter(pool)",
};

type OptionRecord = Readonly<Record<string, unknown>>;
const isRecord = (value: unknown): value is OptionRecord => typeof value === 'object' && value !== null && !Array.isArray(value);
const isFunction = (value: unknown): boolean => typeof value === 'function';
const hasFunction = (value: unknown, name: string): boolean => isRecord(value) && typeof value[name] === 'function';

/** Each option's test and what it must be, with a word for the likeliest wrong value where one helps. */
const KINDS: Readonly<Record<string, { test(value: unknown): boolean; must: string; instead?(value: unknown): string | undefined }>> = {
  mode: { test: (value) => value === 'agent' || value === 'host', must: "'agent' or 'host'" },
  catalog: {
    test: (value) => hasFunction(value, 'get'),
    must: "a tool catalogue with get(name) (a ToolHost's catalog)",
    instead: (value) => (hasFunction(value, 'call') ? 'a tool bridge: pass its catalog (host.catalog)' : undefined),
  },
  libraries: { test: (value) => Array.isArray(value) && value.every((library) => typeof library === 'string' || isRecord(library)), must: 'a list of library sources or parsed programs' },
  fileName: { test: (value) => typeof value === 'string', must: 'a string' },
  allowAsk: { test: (value) => typeof value === 'boolean', must: 'true or false' },
  globalNames: { test: (value) => Array.isArray(value) && value.every((name) => typeof name === 'string'), must: 'a list of names' },
  tools: {
    test: (value) => hasFunction(value, 'call'),
    must: 'a tool bridge with a call(name, args) function (a ToolHost)',
    instead: (value) => (hasFunction(value, 'get') ? 'a tool catalogue: give it as catalog (to prepare or run), and a bridge as tools' : undefined),
  },
  localTools: { test: isRecord, must: 'an object { module, names } (workerLocalTools of @askloop/tools)' },
  limits: { test: isRecord, must: 'an object of limits ({ wallMs, fuel, … })' },
  signal: { test: isAbortSignal, must: 'an AbortSignal' },
  globals: { test: isRecord, must: 'an object of names and their values' },
  onEmit: { test: isFunction, must: 'a function (text) => void' },
  onWhisper: { test: isFunction, must: 'a function (target, text) => void' },
  onToolCall: { test: isFunction, must: 'a function (call) => void' },
  onStart: { test: isFunction, must: 'a function () => void' },
};

/** Why `key` is no option of `method`: the option it most likely meant, or the method it belongs to. */
function unknownOption(method: OptionsOf, key: string): string {
  const other = method === 'prepare' ? EXECUTE_OPTIONS : method === 'execute' ? PREPARE_OPTIONS : [];
  const otherName = method === 'prepare' ? 'execute' : 'prepare';
  const meant = closestName(key, OWN[method]);
  // An option of the other method, exactly or misspelt (`tool`), when none of this method's is close.
  const misplaced = other.includes(key) ? key : meant === undefined ? closestName(key, other) : undefined;
  let hint = '';
  if (misplaced === undefined && INSTEAD[key] !== undefined) hint = `; ${INSTEAD[key]}`;
  else if (misplaced !== undefined) hint = `; ${misplaced === key ? '' : `did you mean ${misplaced}? `}${INSTEAD[misplaced] ?? `${misplaced} is an option of ${otherName} and run`}`;
  else if (meant !== undefined) hint = `; did you mean ${meant}?`;
  return `there is no option ${key}${hint} (the options: ${OWN[method].join(', ')})`;
}

/**
 * Throws `SANDBOX_INVALID_REQUEST` for options `method` does not have (with
 * the one most likely meant, or the method it belongs to) or of the wrong
 * kind. `undefined` options are none; an option set to `undefined` is unset.
 */
export function checkRunOptions(method: OptionsOf, options: unknown): void {
  if (options === undefined) return;
  const invalid = (why: string) => new SandboxError('SANDBOX_INVALID_REQUEST', `${method}(): ${why}`);
  if (!isRecord(options)) throw invalid(`its options are an object ({ ${OWN[method].join(', ')} }), got ${describeGiven(options)}`);
  for (const key of Object.keys(options)) if (!OWN[method].includes(key)) throw invalid(unknownOption(method, key));
  for (const [key, value] of Object.entries(options)) {
    const kind = KINDS[key];
    if (value === undefined || kind === undefined || kind.test(value)) continue;
    throw invalid(`${key} must be ${kind.must}, got ${kind.instead?.(value) ?? describeGiven(value)}`);
  }
}
