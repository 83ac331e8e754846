import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH } from '../ast/index.ts';
import { check } from '../check/check.ts';
import { matchWithNestingLimit } from './match-with-nesting-limit.ts';
import { parse, type ParseResult } from './parse.ts';
import { MAX_SOURCE_LENGTH } from './preprocess.ts';

/** One nesting form: text before and after the inner expression. */
interface Form {
  readonly open: string;
  readonly close: string;
}

const FORMS: Record<string, Form> = {
  list: { open: '[', close: ']' },
  parentheses: { open: '(', close: ')' },
  map: { open: '{"k": ', close: '}' },
  'map key': { open: '{', close: ': 1}' },
  call: { open: 'f(', close: ')' },
  'tool call': { open: 'tool.a.B(', close: ')' },
  eval: { open: 'eval(', close: ')' },
  index: { open: 'x[', close: ']' },
  power: { open: '2 ** ', close: '' },
  not: { open: 'not ', close: '' },
  minus: { open: '- ', close: '' },
  tilde: { open: '~', close: '' },
  plus: { open: '', close: ' + 1' },
  'index step': { open: '', close: '[0]' },
};

function nest(pattern: readonly Form[], depth: number): string {
  const opens: string[] = [];
  const closes: string[] = [];
  for (let level = 0; level < depth; level += 1) {
    const form = pattern[level % pattern.length] as Form;
    opens.push(form.open);
    closes.push(form.close);
  }
  return `${opens.join('')}1${closes.reverse().join('')}`;
}

function emitting(expression: string): string {
  return `command\n  emit ${expression}\nendcommand\n`;
}

function codes(result: ParseResult): string[] {
  return result.ok ? [] : result.diagnostics.map((diagnostic) => diagnostic.code);
}

describe('nesting limit', () => {
  // Each of these crashed the host with "Maximum call stack size exceeded" before the limit.
  it.each(Object.entries(FORMS))('%s: at the limit it parses and checks; past it, a typed diagnostic', (_name, form) => {
    // `emit` is level 1, the innermost `1` the last level.
    const deepest = parse(emitting(nest([form], MAX_NESTING_DEPTH - 2)));
    expect(deepest.ok).toBe(true);
    if (deepest.ok) expect(check(deepest.program, { mode: 'agent' })).toEqual([]);
    // Parentheses make no node of their own: only the matcher's bound (one level of slack) applies to them.
    for (const depth of form.open === '(' ? [MAX_NESTING_DEPTH + 1, 4_000] : [MAX_NESTING_DEPTH - 1, 4_000]) {
      const result = parse(emitting(nest([form], depth)));
      expect(codes(result)).toEqual(['SCRIPT_NESTING_TOO_DEEP']);
      if (!result.ok) {
        expect(result.diagnostics[0]).toMatchObject({ line: 2, numericCode: 38 });
        expect(result.diagnostics[0]?.message).toContain(`the limit is ${MAX_NESTING_DEPTH} levels`);
      }
    }
  });

  it('4,000 nested `not` is a parse diagnostic at the 101st level', () => {
    const result = parse(emitting(`${'not '.repeat(4_000)}x`));
    expect(result).toEqual({
      ok: false,
      diagnostics: [expect.objectContaining({ code: 'SCRIPT_NESTING_TOO_DEEP', line: 2, column: 8 + 4 * (MAX_NESTING_DEPTH - 1) })],
    });
  });

  it('100,000 nested brackets stop where the matcher passes the limit (one level of slack)', () => {
    const result = parse(emitting(`${'['.repeat(100_000)}${']'.repeat(100_000)}`));
    expect(result).toEqual({ ok: false, diagnostics: [expect.objectContaining({ code: 'SCRIPT_NESTING_TOO_DEEP', line: 2, column: 8 + MAX_NESTING_DEPTH })] });
  });

  it.each([
    ['if', 'if true\n', 'endif\n'],
    ['else', 'if true\nemit 0\nelse\n', 'endif\n'],
    ['while', 'while true\n', 'endwhile\n'],
    ['for each', 'for each a in b\n', 'endfor\n'],
    ['on error', 'on error do\n', 'endon\n'],
  ])('nested %s blocks past the limit are a diagnostic on the line of the first block too deep', (_name, open, close) => {
    const blocks = (depth: number): string => `command\n${open.repeat(depth)}emit 1\n${close.repeat(depth)}endcommand\n`;
    expect(parse(blocks(MAX_NESTING_DEPTH - 2)).ok).toBe(true);
    const result = parse(blocks(5_000));
    expect(codes(result)).toEqual(['SCRIPT_NESTING_TOO_DEEP']);
  });

  it('holes in strings are matched under the limit too', () => {
    const result = parse(emitting(`\`\`\`a{{${'['.repeat(5_000)}${']'.repeat(5_000)}}}\`\`\``));
    expect(codes(result)).toEqual(['SCRIPT_NESTING_TOO_DEEP']);
  });

  it('never throws for random nestings of every form, up to 100,000 deep', () => {
    const forms = Object.values(FORMS);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...forms), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 100_000 }), (pattern, depth) => {
        // Operator chains are matched in full (they nest only in the tree), so keep those shorter.
        const brackets = pattern.some((form) => form.open.includes('[') || form.open.includes('(') || form.open.includes('{'));
        const result = parse(emitting(nest(pattern, brackets ? depth : Math.min(depth, 20_000))));
        expect(typeof result.ok).toBe('boolean');
        if (!result.ok) expect(result.diagnostics.every((diagnostic) => diagnostic.code === 'SCRIPT_NESTING_TOO_DEEP' || diagnostic.code === 'SCRIPT_SYNTAX')).toBe(true);
        else expect(check(result.program, { mode: 'agent' })).toBeInstanceOf(Array);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('never throws for random nestings of blocks and expressions together, up to 100,000 deep', () => {
    const blocks: Form[] = [
      { open: 'if x\n', close: 'endif\n' },
      { open: 'while x\n', close: 'endwhile\n' },
      { open: 'for each v in x\n', close: 'endfor\n' },
      { open: 'on error do\n', close: 'endon\n' },
      { open: 'if x\nemit 0\nelse\n', close: 'endif\n' },
    ];
    const expressions = Object.values(FORMS).filter((form) => /[[({]/.test(form.open));
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...blocks), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(fc.constantFrom(...expressions), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 100_000 }),
        (blockPattern, blockDepth, expressionPattern, expressionDepth) => {
          const opens: string[] = [];
          const closes: string[] = [];
          for (let level = 0; level < blockDepth; level += 1) {
            const form = blockPattern[level % blockPattern.length] as Form;
            opens.push(form.open);
            closes.push(form.close);
          }
          const source = `command\n${opens.join('')}emit ${nest(expressionPattern, expressionDepth)}\n${closes.reverse().join('')}endcommand\n`;
          const result = parse(source);
          const expected = blockDepth + expressionDepth + 2 <= MAX_NESTING_DEPTH ? [] : ['SCRIPT_NESTING_TOO_DEEP'];
          if (source.length > MAX_SOURCE_LENGTH) expect(codes(result)).toEqual(['SCRIPT_SOURCE_TOO_LARGE']);
          // Parentheses make no node, so a parenthesised program may parse a little past the count.
          else if (expressionPattern.some((form) => form.open === '(')) expect(codes(result).every((code) => code === 'SCRIPT_NESTING_TOO_DEEP')).toBe(true);
          else expect(codes(result)).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('matches without a limit once the guarded match is over', () => {
    const guarded = matchWithNestingLimit('[[[1]]]', 'Interpolation', 3, (match) => match.succeeded());
    expect(guarded).toEqual({ tooDeepAt: 3 });
    expect(matchWithNestingLimit('[[[1]]]', 'Interpolation', 4, (match) => match.succeeded())).toEqual({ value: true });
  });
});
