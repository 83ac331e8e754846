import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallExpression, Expression } from '../ast/index.ts';
import { parse } from '../parse/index.ts';
import type { JsonValue } from '../runtime/json-value.ts';
import { findToolCalls } from './tool-check.ts';
import { staticArguments, staticValue } from './static-arguments.ts';

/** The arguments of the one tool call in `source` (a command block body). */
function argumentsOf(body: string): readonly Expression[] {
  const parsed = parse(`command\n  emit tool.t.x(${body})\nendcommand\n`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
  const [found] = findToolCalls(parsed.program);
  return (found?.call as CallExpression).arguments;
}

/** JSON data as a NeuroScript literal. */
function literal(value: JsonValue): string {
  if (value === null) return 'nil';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${literal(item)}`).join(', ')}}`;
}

const text = fc.stringMatching(/^[ -~]{0,12}$/);
const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: 0, max: 1_000_000 }),
    text,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('staticValue', () => {
  it('gives back any JSON value written as a literal (property)', () => {
    fc.assert(
      fc.property(json, (value) => {
        const [only] = argumentsOf(literal(value));
        expect(staticValue(only as Expression)).toEqual(value);
      }),
      { numRuns: 200 },
    );
  });

  it('marks anything computed unknown, as a whole', () => {
    expect(staticArguments(argumentsOf('"a", x, [1, x], {"k": x}, {x: 1}, -1, "a" + "b", ```t{{x}}```, ```t```'))).toEqual([
      'a',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      't',
    ]);
  });

  it('keeps a __proto__ key as an own property', () => {
    const value = staticValue(argumentsOf('{"__proto__": {"a": 1}}')[0] as Expression) as Record<string, JsonValue>;
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});
