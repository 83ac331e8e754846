/**
 * The literal arguments of a tool call: what the static check can know about
 * them before anything runs. The tool host's policy uses them to check the
 * capabilities a call needs (an fs path, an http host) ahead of the run.
 */
import type { Expression } from '../ast/index.ts';
import type { JsonValue } from '../runtime/json-value.ts';
import type { StaticArgument } from '../tool-signature.ts';

/**
 * The value of `expression` when it is a compile-time constant (a string,
 * number, bool or nil literal, an interpolated string without holes, or a
 * list or map built only from those with literal string keys), else
 * `undefined`. A list or map with any computed part is unknown as a whole.
 */
export function staticValue(expression: Expression): StaticArgument {
  switch (expression.type) {
    case 'StringLiteral':
    case 'NumberLiteral':
    case 'BooleanLiteral':
      return expression.value;
    case 'NilLiteral':
      return null;
    case 'InterpolatedString': {
      let text = '';
      for (const part of expression.parts) {
        if (part.type !== 'TextPart') return undefined;
        text += part.value;
      }
      return text;
    }
    case 'ListLiteral': {
      const items: JsonValue[] = [];
      for (const element of expression.elements) {
        const value = staticValue(element);
        if (value === undefined) return undefined;
        items.push(value);
      }
      return items;
    }
    case 'MapLiteral': {
      const entries: [string, JsonValue][] = [];
      for (const entry of expression.entries) {
        const value = staticValue(entry.value);
        if (entry.key.type !== 'StringLiteral' || value === undefined) return undefined;
        entries.push([entry.key.value, value]);
      }
      // Object.fromEntries: every key, '__proto__' included, becomes an own data property.
      return Object.fromEntries(entries);
    }
    default:
      return undefined;
  }
}

/** The call's arguments as the static check sees them (see `staticValue`). */
export function staticArguments(args: readonly Expression[]): StaticArgument[] {
  return args.map(staticValue);
}
