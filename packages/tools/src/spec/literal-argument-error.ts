/**
 * The static half of `bindArguments`: which literal arguments of a call can
 * never bind, so the check refuses the call before anything runs instead of
 * the run failing there after earlier statements ran (`tool.str.Length(5)`,
 * `tool.math.Add("a", 1)`, nil for a required argument). It applies the same
 * binding rule and the same coercion as the run time to the arguments that
 * are literals (`undefined` marks a computed one) and leaves everything else
 * — computed values, argument counts (the interpreter's own check) — alone.
 */
import { ToolError } from '../errors/tool-error.ts';
import { coerceArgument, describeValue } from './coerce-argument.ts';
import { isNamedArgumentMap, namedArgumentHint, namedKeyCollision, signatureText } from './bind-arguments.ts';
import type { ToolArgumentSpec, ToolSpec } from './tool-spec.ts';
import type { ToolMap, ToolValue } from './tool-value.ts';

/** `TOOL_ARGUMENT_INVALID` / `TOOL_ARGUMENT_MISSING` for the first literal argument that cannot bind; undefined when none is known to fail. */
export function literalArgumentError(spec: ToolSpec, args: readonly (ToolValue | undefined)[]): ToolError | undefined {
  // One computed argument may be a map of named arguments at run time: nothing is known.
  if (args.length === 1 && args[0] === undefined) return undefined;
  const pairs: [ToolArgumentSpec, ToolValue | undefined][] = [];
  // The arguments a map of named arguments leaves out (told apart from an explicit nil in the message).
  const leftOut = new Set<ToolArgumentSpec>();
  const only = args[0];
  const named = args.length === 1 && isNamedArgumentMap(spec, [only as ToolValue]);
  if (named) {
    // A literal map's own values are literal too (staticValue gives undefined for the whole map otherwise).
    const collision = namedKeyCollision(spec, only as ToolMap);
    if (collision !== undefined) return collision;
    const entries = Object.entries(only as Record<string, ToolValue>);
    for (const argument of spec.arguments) {
      const entry = entries.find(([key]) => key.toLowerCase() === argument.name.toLowerCase());
      if (entry === undefined) leftOut.add(argument);
      pairs.push([argument, entry === undefined ? null : entry[1]]);
    }
  } else {
    // Positional: a literal binds to its own slot whatever the computed ones hold. Missing and extra ones are the count check's.
    spec.arguments.forEach((argument, index) => {
      if (index < args.length) pairs.push([argument, args[index]]);
    });
  }
  for (const [argument, value] of pairs) {
    if (value === undefined) continue;
    if (value === null) {
      if (!argument.required) continue;
      const given = leftOut.has(argument) ? `but the map of named arguments has no "${argument.name}"; add "${argument.name}": … to it` : 'but is given nil';
      return new ToolError('TOOL_ARGUMENT_MISSING', `${spec.displayName} needs argument '${argument.name}' (${argument.type}) ${given}; its arguments, in order: ${spec.displayName}(${signatureText(spec)})`, {
        tool: spec.displayName,
        argument: argument.name,
      });
    }
    const coerced = coerceArgument(value, argument.type);
    if (!coerced.ok) {
      // As the run says it: a lone map for an argument that takes none was most likely meant as named arguments.
      const meant = named ? '' : namedArgumentHint(spec, args, argument, value);
      return new ToolError('TOOL_ARGUMENT_INVALID', `${spec.displayName} argument '${argument.name}' expects ${coerced.expected}, got ${describeValue(value)}${meant}`, {
        tool: spec.displayName,
        argument: argument.name,
      });
    }
  }
  return undefined;
}

