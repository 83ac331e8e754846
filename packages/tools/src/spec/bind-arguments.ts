/**
 * Binds a call's argument list to a spec (reference §2.3): positionally, or —
 * because the bootstrap capsule teaches models `call tool.x({"arg": "val"})`
 * — from one map of named arguments. Then applies defaults, checks required
 * arguments and coerces each value. Extra arguments are an error unless the
 * tool is variadic (the reference silently drops them, §6).
 *
 * A single map argument is read as named arguments when it is non-empty, all
 * of its keys name declared arguments (case-insensitively), and — when the
 * first argument itself accepts a map (`map` or `any`) — it names at least one
 * argument besides the first. Otherwise it is the first positional argument.
 */
import { ToolError } from '../errors/tool-error.ts';
import { suggestNames } from '../registry/suggest-names.ts';
import { coerceArgument, describeValue } from './coerce-argument.ts';
import type { ToolArgumentSpec, ToolArguments, ToolSpec } from './tool-spec.ts';
import { isToolMap, type ToolMap, type ToolValue } from './tool-value.ts';

/** The result of binding: named, coerced arguments plus extra positional ones of a variadic tool. */
export interface BoundArguments {
  readonly args: ToolArguments;
  readonly rest: readonly ToolValue[];
  /** True when the call used one map of named arguments. */
  readonly named: boolean;
}

/** True when a single-argument call should be read as a map of named arguments (see the module comment). */
export function isNamedArgumentMap(spec: ToolSpec, values: readonly ToolValue[]): boolean {
  if (values.length !== 1 || spec.arguments.length === 0) return false;
  const only = values[0];
  if (!isToolMap(only)) return false;
  const keys = Object.keys(only).map((key) => key.toLowerCase());
  if (keys.length === 0) return false;
  const declared = spec.arguments.map((argument) => argument.name.toLowerCase());
  if (!keys.every((key) => declared.includes(key))) return false;
  const first = spec.arguments[0];
  if (first !== undefined && (first.type === 'map' || first.type === 'any')) {
    return keys.some((key) => key !== first.name.toLowerCase());
  }
  return true;
}

/**
 * `TOOL_ARGUMENT_INVALID` when two keys of a named-argument map differ only in
 * case (they name the same argument), else undefined. Refused rather than
 * resolved: which one wins would depend on key order, and the static check sees
 * the keys in source order while the run gets them sorted, so the two would
 * bind different values. Keys are compared in sorted order so both report the
 * same pair.
 */
export function namedKeyCollision(spec: ToolSpec, map: ToolMap): ToolError | undefined {
  const seen = new Map<string, string>();
  for (const key of Object.keys(map).sort()) {
    const lower = key.toLowerCase();
    const earlier = seen.get(lower);
    if (earlier !== undefined) {
      const argument = spec.arguments.find((candidate) => candidate.name.toLowerCase() === lower)?.name ?? key;
      return new ToolError(
        'TOOL_ARGUMENT_INVALID',
        `${spec.displayName} is given argument '${argument}' twice, as '${earlier}' and '${key}' (named-argument keys ignore case); pass it once`,
        { tool: spec.displayName, argument },
      );
    }
    seen.set(lower, key);
  }
  return undefined;
}

/** Binds and coerces `values` for `spec`. Throws `TOOL_ARGUMENT_MISSING` or `TOOL_ARGUMENT_INVALID`. */
export function bindArguments(spec: ToolSpec, values: readonly ToolValue[]): BoundArguments {
  const named = isNamedArgumentMap(spec, values);
  const raw = new Map<string, ToolValue | undefined>();
  let rest: ToolValue[] = [];
  if (named) {
    const map = values[0] as ToolMap;
    const collision = namedKeyCollision(spec, map);
    if (collision !== undefined) throw collision;
    for (const [key, value] of Object.entries(map)) {
      const argument = spec.arguments.find((candidate) => candidate.name.toLowerCase() === key.toLowerCase());
      if (argument !== undefined) raw.set(argument.name, value);
    }
  } else {
    if (values.length > spec.arguments.length) {
      if (spec.variadic !== true) {
        throw new ToolError(
          'TOOL_ARGUMENT_INVALID',
          `${spec.displayName} takes at most ${spec.arguments.length} argument${spec.arguments.length === 1 ? '' : 's'} (${signatureText(spec)}), got ${values.length}`,
          { tool: spec.displayName },
        );
      }
      rest = values.slice(spec.arguments.length).map((value) => value ?? null);
    }
    spec.arguments.forEach((argument, index) => raw.set(argument.name, values[index]));
  }
  const args: Record<string, ToolValue> = {};
  for (const argument of spec.arguments) {
    const value = raw.get(argument.name);
    if (value === undefined || value === null) {
      if (argument.required) {
        throw new ToolError(
          'TOOL_ARGUMENT_MISSING',
          `${spec.displayName} needs argument '${argument.name}' (${argument.type}); its arguments, in order: ${spec.displayName}(${signatureText(spec)})`,
          { tool: spec.displayName, argument: argument.name },
        );
      }
      args[argument.name] = argument.default ?? null;
      continue;
    }
    const coerced = coerceArgument(value, argument.type);
    if (!coerced.ok) {
      const meant = named ? '' : namedArgumentHint(spec, values, argument, value);
      throw new ToolError(
        'TOOL_ARGUMENT_INVALID',
        `${spec.displayName} argument '${argument.name}' expects ${coerced.expected}, got ${describeValue(value)}${meant}`,
        { tool: spec.displayName, argument: argument.name },
      );
    }
    args[argument.name] = coerced.value;
  }
  return { args: Object.freeze(args), rest, named };
}

/** How much of a key the named-argument hint quotes. */
const MAX_KEY_SHOWN = 40;

/**
 * For a lone map refused as the first argument (which takes no map): it was
 * most likely meant as named arguments, so this says which keys name no
 * argument (each with the closest argument name when there is one) and the
 * two ways to pass arguments. '' for any other refused value, and when every
 * key names an argument (the map was refused for another reason). Shared by
 * the run (`bindArguments`) and the check of literal arguments.
 */
export function namedArgumentHint(spec: ToolSpec, values: readonly (ToolValue | undefined)[], argument: ToolArgumentSpec, value: ToolValue): string {
  if (values.length !== 1 || argument !== spec.arguments[0] || !isToolMap(value)) return '';
  const declared = spec.arguments.map((candidate) => candidate.name);
  const lower = declared.map((name) => name.toLowerCase());
  // Keys are the program's data: quoted as JSON (no raw line breaks) and cut short; those with a close name first.
  const unknown = Object.keys(value)
    .filter((key) => !lower.includes(key.toLowerCase()))
    .map((key) => ({ key, close: key.length > MAX_KEY_SHOWN * 2 ? undefined : suggestNames(key.toLowerCase(), lower, 1)[0] }))
    .sort((a, b) => Number(a.close === undefined) - Number(b.close === undefined));
  if (unknown.length === 0) return '';
  const named = unknown.slice(0, 3).map(({ key, close }) => {
    const shown = JSON.stringify(key.length > MAX_KEY_SHOWN ? `${key.slice(0, MAX_KEY_SHOWN)}…` : key);
    return `${shown}${close === undefined ? '' : ` (did you mean '${declared[lower.indexOf(close)]}'?)`}`;
  });
  const more = unknown.length > 3 ? ` and ${unknown.length - 3} more` : '';
  const keyed = declared
    .slice(0, 2)
    .map((name) => `"${name}": …`)
    .join(', ');
  return (
    `; read as named arguments, the map's key${unknown.length === 1 ? '' : 's'} ${named.join(', ')}${more} name${unknown.length === 1 ? 's' : ''} no argument of ${spec.displayName}(${signatureText(spec)})` +
    `. Pass the arguments in order, ${spec.displayName}(…), or as one map keyed by their names: ${spec.displayName}({${keyed}${declared.length > 2 ? ', …' : ''}})`
  );
}

/** `name: type, name?: type` for messages and the catalogue. */
export function signatureText(spec: ToolSpec): string {
  const parts = spec.arguments.map((argument) => `${argument.name}${argument.required ? '' : '?'}: ${argument.type}`);
  if (spec.variadic === true) parts.push('...rest');
  return parts.join(', ');
}
