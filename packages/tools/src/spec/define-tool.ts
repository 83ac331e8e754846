/**
 * `defineTool(spec, handler)`: validates an authored spec, fills in defaults
 * and freezes it. Specs are checked once here so the call path can trust them.
 */
import type { ToolValueType } from './tool-signature.ts';
import { ToolError } from '../errors/tool-error.ts';
import { canonicalToolName, isValidToolName } from './canonical-name.ts';
import { editDistance } from '../registry/suggest-names.ts';
import { capabilityNeedProblem } from '../policy/capability.ts';
import { coerceArgument } from './coerce-argument.ts';
import type { ToolArgumentSpec, ToolDefinition, ToolEffect, ToolHandler, ToolScopeFunction, ToolSpec } from './tool-spec.ts';
import type { ToolValue } from './tool-value.ts';

/** An argument as authored: `required` defaults to true unless a `default` is given. */
export interface ToolArgumentInput {
  readonly name: string;
  readonly type: ToolValueType;
  readonly required?: boolean;
  readonly default?: ToolValue;
  readonly description?: string;
}

/** A tool spec as authored. `name` is the display name, e.g. `tool.str.ToUpper` (the `tool.` prefix is optional). */
export interface ToolSpecInput {
  readonly name: string;
  readonly description: string;
  readonly args?: readonly ToolArgumentInput[];
  readonly returns?: ToolValueType;
  readonly capabilities?: readonly string[];
  readonly scopes?: ToolScopeFunction;
  readonly trusted?: boolean;
  /** Default `read`. */
  readonly effect?: ToolEffect;
  /** Default: true for `read` tools, false otherwise. */
  readonly idempotent?: boolean;
  readonly timeoutMs?: number;
  readonly variadic?: boolean;
  /** Default false: see {@link ToolSpec.requiresApproval}. */
  readonly requiresApproval?: boolean;
}

const VALUE_TYPES: ReadonlySet<string> = new Set(['string', 'int', 'float', 'number', 'bool', 'list', 'map', 'any', 'nil']);
/** The fields of a spec and of an argument: any other is refused (a misspelt `requiresApproval` would drop the gate). */
const SPEC_FIELDS: readonly string[] = ['name', 'description', 'args', 'returns', 'capabilities', 'scopes', 'trusted', 'effect', 'idempotent', 'timeoutMs', 'variadic', 'requiresApproval'];
const ARGUMENT_FIELDS: readonly string[] = ['name', 'type', 'required', 'default', 'description'];
const FLAG_FIELDS = ['trusted', 'idempotent', 'variadic', 'requiresApproval'] as const;

/**
 * Other schemas' words for a field (JSON Schema, MCP, OpenAI functions): too far from ours in spelling for the edit
 * distance to find, but what an author coming from them writes first.
 */
const FIELD_ALIASES: Readonly<Record<string, string>> = {
  arguments: 'args',
  params: 'args',
  parameters: 'args',
  inputs: 'args',
  return: 'returns',
  returntype: 'returns',
  result: 'returns',
  output: 'returns',
  desc: 'description',
  capability: 'capabilities',
  timeout: 'timeoutMs',
  optional: 'required',
  defaultvalue: 'default',
};

/** The known field `field` most likely meant: an alias from another schema, else the closest spelling. */
function meantField(field: string, known: readonly string[]): string | undefined {
  // Own keys only: `constructor` or `__proto__` must not find Object's.
  const alias = Object.hasOwn(FIELD_ALIASES, field.toLowerCase()) ? FIELD_ALIASES[field.toLowerCase()] : undefined;
  if (alias !== undefined && known.includes(alias)) return alias;
  const [closest] = known
    .map((name) => ({ name, distance: editDistance(field.toLowerCase(), name.toLowerCase()) }))
    .filter((entry) => entry.distance <= 3)
    .sort((a, b) => a.distance - b.distance);
  return closest?.name;
}

/** `unknown field 'x'`, with the known field it most likely meant. */
function unknownField(field: string, known: readonly string[]): string {
  const meant = meantField(field, known);
  return `unknown field '${field}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the fields are ${known.join(', ')})`;
}

/** Other languages' names for the value types (JSON Schema, TypeScript, Python). */
const TYPE_ALIASES: Readonly<Record<string, ToolValueType>> = {
  integer: 'int',
  long: 'int',
  double: 'float',
  decimal: 'float',
  boolean: 'bool',
  object: 'map',
  dict: 'map',
  record: 'map',
  array: 'list',
  str: 'string',
  text: 'string',
  null: 'nil',
  none: 'nil',
  undefined: 'nil',
  unknown: 'any',
};

/** `unknown type 'integer'; did you mean 'int'? (the types are …)`: an alias, a case slip or a near miss. */
function unknownType(type: unknown): string {
  if (type === undefined) return `no type (the types are ${[...VALUE_TYPES].join(', ')})`;
  const text = String(type);
  const lower = text.toLowerCase();
  const meant =
    // Own keys only: `constructor` or `__proto__` must not find Object's.
    (Object.hasOwn(TYPE_ALIASES, lower) ? TYPE_ALIASES[lower] : undefined) ??
    [...VALUE_TYPES]
      .map((name) => ({ name, distance: editDistance(lower, name) }))
      .filter((entry) => entry.distance <= Math.min(2, Math.floor(entry.name.length / 2)))
      .sort((a, b) => a.distance - b.distance)[0]?.name;
  return `unknown type '${text}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the types are ${[...VALUE_TYPES].join(', ')})`;
}

/** `a string`, `an int`. */
const withArticle = (type: string): string => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;

/** The authored fields' kinds, before anything reads them: a JavaScript or JSON plugin's spec was never type-checked. */
function fieldProblem(input: ToolSpecInput): string | undefined {
  for (const field of Object.keys(input)) if (!SPEC_FIELDS.includes(field)) return unknownField(field, SPEC_FIELDS);
  if (typeof input.description !== 'string') return 'description must be a string (one line the model reads in the catalogue)';
  for (const flag of FLAG_FIELDS) {
    if (input[flag] !== undefined && typeof input[flag] !== 'boolean') return `${flag} must be true or false, not ${JSON.stringify(input[flag])}`;
  }
  if (input.args !== undefined && !Array.isArray(input.args)) return 'args must be a list of { name, type, … }';
  if (input.capabilities !== undefined && !Array.isArray(input.capabilities)) return "capabilities must be a list of strings such as 'fs:read'";
  for (const capability of input.capabilities ?? []) {
    const problem = capabilityNeedProblem(capability);
    if (problem !== undefined) return problem;
  }
  if (input.scopes !== undefined && typeof input.scopes !== 'function') return 'scopes must be a function (args) => capabilities';
  for (const [index, argument] of (input.args ?? []).entries()) {
    if (argument === null || typeof argument !== 'object') return `argument ${index + 1} must be { name, type, … }`;
    for (const field of Object.keys(argument)) if (!ARGUMENT_FIELDS.includes(field)) return `argument ${index + 1}: ${unknownField(field, ARGUMENT_FIELDS)}`;
    if (argument.required !== undefined && typeof argument.required !== 'boolean') return `argument '${String(argument.name)}': required must be true or false`;
  }
  return undefined;
}
const ARGUMENT_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Validates and freezes a tool definition. Throws `TOOL_SPEC_INVALID` naming the problem. */
export function defineTool(input: ToolSpecInput, handler: ToolHandler): ToolDefinition {
  // A JavaScript plugin's spec was never type-checked: no object, or no name, must be named as such, not crash on it.
  if (input === null || typeof input !== 'object') {
    throw new ToolError('TOOL_SPEC_INVALID', `tool spec must be an object { name, description, args, … }, not ${input === null ? 'null' : typeof input}`);
  }
  if (typeof input.name !== 'string') {
    const shown = input.name === undefined ? 'is missing' : `must be a string, not ${input.name === null ? 'null' : typeof input.name}`;
    throw new ToolError('TOOL_SPEC_INVALID', `tool spec without a name: name ${shown}; give it one such as 'tool.<group>.<Name>'`);
  }
  const name = canonicalToolName(input.name);
  const invalid = (message: string): ToolError => new ToolError('TOOL_SPEC_INVALID', `tool spec ${input.name}: ${message}`, { tool: input.name });
  if (!isValidToolName(name)) throw invalid('name must look like tool.<group>.<Name> with letters, digits and _');
  if (typeof handler !== 'function') throw invalid('handler must be a function');
  const problem = fieldProblem(input);
  if (problem !== undefined) throw invalid(problem);
  const rawDisplay = input.name.trim().replace(/^(tool\.)+/i, '');
  const displayName = `tool.${rawDisplay}`;
  const group = name.slice('tool.'.length, name.lastIndexOf('.'));
  const argumentsList = (input.args ?? []).map((argument, index) => defineArgument(argument, index, invalid));
  const seen = new Set<string>();
  let optionalSeen = false;
  for (const argument of argumentsList) {
    const key = argument.name.toLowerCase();
    if (seen.has(key)) throw invalid(`argument '${argument.name}' is declared twice`);
    seen.add(key);
    if (!argument.required) optionalSeen = true;
    else if (optionalSeen) throw invalid(`required argument '${argument.name}' follows an optional one`);
  }
  const effect = input.effect ?? 'read';
  if (effect !== 'read' && effect !== 'write' && effect !== 'external') throw invalid(`effect must be read, write or external, not ${String(effect)}`);
  const returns = input.returns ?? 'any';
  if (!VALUE_TYPES.has(returns)) throw invalid(`returns: ${unknownType(returns)}`);
  if (input.timeoutMs !== undefined && !(Number.isFinite(input.timeoutMs) && input.timeoutMs > 0)) throw invalid('timeoutMs must be a positive number');
  const spec: ToolSpec = {
    name,
    displayName,
    group,
    description: input.description.trim(),
    arguments: Object.freeze(argumentsList),
    returns,
    capabilities: Object.freeze([...(input.capabilities ?? [])]),
    ...(input.scopes === undefined ? {} : { scopes: input.scopes }),
    trusted: input.trusted ?? false,
    effect,
    idempotent: input.idempotent ?? effect === 'read',
    ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
    ...(input.variadic === true ? { variadic: true } : {}),
    ...(input.requiresApproval === true ? { requiresApproval: true } : {}),
  };
  return Object.freeze({ spec: Object.freeze(spec), handler });
}

function defineArgument(input: ToolArgumentInput, index: number, invalid: (message: string) => ToolError): ToolArgumentSpec {
  if (typeof input.name !== 'string') throw invalid(`argument ${index + 1} has no name; give it one such as 'input_string'`);
  if (!ARGUMENT_NAME_PATTERN.test(input.name)) throw invalid(`argument ${index + 1} has an invalid name '${input.name}'`);
  if (!VALUE_TYPES.has(input.type)) throw invalid(`argument '${input.name}' has ${unknownType(input.type)}`);
  const required = input.required ?? input.default === undefined;
  if (required && input.default !== undefined) throw invalid(`required argument '${input.name}' cannot have a default`);
  let defaultValue = input.default;
  if (defaultValue !== undefined && defaultValue !== null) {
    const coerced = coerceArgument(defaultValue, input.type);
    if (!coerced.ok) throw invalid(`default of argument '${input.name}' is not ${withArticle(input.type)}`);
    defaultValue = coerced.value;
  }
  return Object.freeze({
    name: input.name,
    type: input.type,
    required,
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
    description: input.description ?? '',
  });
}
