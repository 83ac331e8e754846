import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Expression } from '../ast/index.ts';
import grammar from '../grammar/neuroscript.ohm-bundle.js';
import { parse } from './parse.ts';

function firstExpression(source: string): Expression {
  const result = parse(`func main(returns r) means\n  return ${source}\nendfunc\n`);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  const statement = result.program.functions[0]?.body[0];
  if (statement?.type !== 'ReturnStatement' || !statement.values[0]) throw new Error('no return value');
  return statement.values[0];
}

/** Prints an expression fully parenthesised, so parsing it back must give the same tree. */
function print(expression: Expression): string {
  switch (expression.type) {
    case 'NumberLiteral':
      return expression.raw;
    case 'Identifier':
      return expression.name;
    case 'BinaryExpression':
      return `(${print(expression.left)} ${expression.operator} ${print(expression.right)})`;
    case 'UnaryExpression':
      return `(${expression.operator} ${print(expression.argument)})`;
    case 'IndexExpression':
      return `${print(expression.object)}[${print(expression.index)}]`;
    case 'ListLiteral':
      return `[${expression.elements.map(print).join(', ')}]`;
    default:
      throw new Error(`unprintable ${expression.type}`);
  }
}

function shape(expression: Expression): unknown {
  return JSON.parse(JSON.stringify(expression, (key, value) => (key === 'line' || key === 'column' ? undefined : value)));
}

const operators = ['or', 'and', '|', '^', '&', '==', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/', '%', '**'] as const;
const unary = ['-', 'not', 'no', 'some', '~', 'typeof'] as const;

const expressionArbitrary: fc.Arbitrary<string> = fc.letrec<{ expression: string }>((tie) => ({
  expression: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.nat({ max: 999 }).map(String),
    fc.constantFrom('a', 'b', 'value_1', 'X'),
    fc.tuple(tie('expression'), fc.constantFrom(...operators), tie('expression')).map(([left, operator, right]) => `(${left} ${operator} ${right})`),
    fc.tuple(fc.constantFrom(...unary), tie('expression')).map(([operator, argument]) => `(${operator} ${argument})`),
    fc.array(tie('expression'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
  ),
})).expression;

describe('parse', () => {
  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (source) => {
        const result = parse(source);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on near-miss programs built from NeuroScript tokens', () => {
    const token = fc.constantFrom('command', 'endcommand', 'func', 'means', 'endfunc', 'set', 'x', '=', '1', '"s"', '[[', ']]', '{{', '}}', '```', "'''", '(', ')', '[', ']', '{', '}', ',', ':', '\n', '\\\n', ' ', '#', 'if', 'endif', 'tool.a.b', '.', 'on', 'error', 'do', 'endon', '\r\n', '\u200b');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => {
        const result = parse(tokens.join(''));
        if (!result.ok) for (const diagnostic of result.diagnostics) expect(diagnostic.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('parses printed expressions back to the same structure', () => {
    fc.assert(
      fc.property(expressionArbitrary, (source) => {
        const expression = firstExpression(source);
        expect(shape(firstExpression(print(expression)))).toEqual(shape(expression));
      }),
      { numRuns: 200 },
    );
  });

  it('copies the file name into the program and diagnostics', () => {
    const ok = parse('command\n emit 1\nendcommand\n', { fileName: 'turn.ns' });
    expect(ok.ok && ok.program.fileName).toBe('turn.ns');
    const bad = parse('command\n x = 1\nendcommand\n', { fileName: 'turn.ns' });
    expect(bad.ok ? [] : bad.diagnostics.map((diagnostic) => [diagnostic.file, diagnostic.line, diagnostic.column, diagnostic.numericCode])).toEqual([['turn.ns', 2, 2, 15]]);
  });

  it('rejects non-string input without throwing', () => {
    expect(parse(42 as unknown as string).ok).toBe(false);
  });

  it('reports sources over 1 MiB', () => {
    const result = parse(`command\n emit "${'a'.repeat(1024 * 1024)}"\nendcommand\n`);
    expect(result.ok ? [] : result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['SCRIPT_SOURCE_TOO_LARGE']);
  });

  it('positions interpolation holes in the original source', () => {
    const expression = firstExpression('```a\n  {{ tool.x.y(z) }}```');
    expect(expression.type === 'InterpolatedString' && expression.parts[1]).toMatchObject({ type: 'InterpolationPart', line: 3, column: 6, expression: { type: 'CallExpression', line: 3, column: 6 } });
  });

  it('reports a {{…}} hole the generated matcher does not match without matching it again with Ohm', () => {
    // Ohm's second match of each bad hole made a script full of them cost several syntax errors' worth.
    const match = vi.spyOn(grammar, 'match');
    try {
      const result = parse(`command\n  emit \`\`\`${'{{1+}} '.repeat(50)}{{ok}}\`\`\`\nendcommand\n`);
      expect(result.ok ? [] : result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.column])).toEqual(Array.from({ length: 50 }, (_, index) => ['SCRIPT_BAD_INTERPOLATION', 13 + 7 * index]));
      expect(match).not.toHaveBeenCalled();
      // Past the nesting limit the generated matcher gives up, and Ohm says so.
      const deep = parse(`command\n  emit \`\`\`{{${'('.repeat(200)}1${')'.repeat(200)}}}\`\`\`\nendcommand\n`);
      expect(deep.ok ? [] : deep.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['SCRIPT_NESTING_TOO_DEEP']);
      expect(match).toHaveBeenCalledTimes(1);
    } finally {
      match.mockRestore();
    }
  });

  it('names invisible and separator characters by code point in syntax messages', () => {
    for (const [character, name] of [['\u2028', 'U+2028'], ['\u00a0', 'U+00A0'], ['\u2029', 'U+2029']] as const) {
      const result = parse(`command\n  set ${character}x = 1\nendcommand\n`);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.diagnostics[0]?.message).toContain(name);
        expect(result.diagnostics[0]?.message).not.toContain(character);
      }
    }
  });

  it('refuses number literals beyond the float range with their position', () => {
    const result = parse('command\n  emit 1\n  emit 2 + 1e309\nendcommand\n');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.diagnostics).toHaveLength(1);
      expect(result.diagnostics[0]).toMatchObject({ code: 'SCRIPT_NUMBER_TOO_LARGE', line: 3, column: 12 });
      expect(result.diagnostics[0]?.message).toContain('Number too large: 1e309');
    }
    expect(parse(`command\n  emit 1${'0'.repeat(400)}\nendcommand\n`).ok).toBe(false);
    expect(parse('command\n  emit 1e308\nendcommand\n').ok).toBe(true);
  });
});

describe('invisible characters that reorder text', () => {
  it('rejects the bidi isolates U+2066–U+2069 as it rejects the overrides, in strings and in comments', () => {
    for (const codePoint of [0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      const character = String.fromCodePoint(codePoint);
      for (const source of [`command\n  emit "a${character}b"\nendcommand\n`, `command\n  emit 1 # x${character}y\nendcommand\n`]) {
        const result = parse(source);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.diagnostics[0]).toMatchObject({ code: 'SCRIPT_DISALLOWED_CHARACTER', line: 2, message: expect.stringContaining(`U+${codePoint.toString(16).toUpperCase()}`) });
      }
    }
  });

  it('reports a refused character once, not again as a syntax error at the same place (walkthrough: two diagnostics)', () => {
    const result = parse('command\n  emit 1\u200b\nendcommand\n');
    expect(result.ok ? [] : result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line, diagnostic.column])).toEqual([['SCRIPT_DISALLOWED_CHARACTER', 2, 9]]);
  });
});

describe('syntax messages', () => {
  it('reads as English when what was found is named with "the" (walkthrough: "Unexpected the invisible character …")', () => {
    const result = parse('command\n  emit 1\u00a02\nendcommand\n');
    const message = result.ok ? '' : (result.diagnostics[0]?.message ?? '');
    expect(message).toMatch(/^Unexpected invisible character U\+00A0 after a complete expression/);
  });
});

