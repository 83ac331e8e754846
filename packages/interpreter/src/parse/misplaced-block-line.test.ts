/**
 * The words the block count (`misplaced-block-line.ts`) takes a line's role
 * from are the grammar's: each word a `Line` can start with, and only those.
 * Behaviour is tested with the further syntax errors
 * (`further-syntax-errors.test.ts`).
 */
import { describe, expect, it } from 'vitest';
import grammar from '../grammar/neuroscript.ohm-bundle.js';
import { BLOCK_OF_CLOSER, blockOpenedBy } from './open-blocks.ts';
import { LINE_START_WORDS } from './misplaced-block-line.ts';

/** An Ohm parsing expression, as far as this walk reads one. */
interface Pexpr {
  readonly terms?: readonly Pexpr[];
  readonly factors?: readonly Pexpr[];
  readonly ruleName?: string;
  readonly obj?: unknown;
  readonly expr?: Pexpr;
}

const rules = (grammar as unknown as { rules: Record<string, { body: Pexpr }> }).rules;

/** The words an expression can start with: the keyword rules (`kwSet`) it reaches first, by their text. */
function firstWords(pexpr: Pexpr, seen = new Set<string>()): string[] {
  if (pexpr.terms !== undefined) return pexpr.terms.flatMap((term) => firstWords(term, seen));
  if (pexpr.factors !== undefined) return pexpr.factors.length === 0 ? [] : firstWords(pexpr.factors[0] as Pexpr, seen);
  if (typeof pexpr.obj === 'string') return [pexpr.obj];
  if (pexpr.expr !== undefined) return firstWords(pexpr.expr, seen);
  const name = pexpr.ruleName;
  if (name === undefined || seen.has(name)) return [];
  seen.add(name);
  return firstWords((rules[name] as { body: Pexpr }).body, seen);
}

describe('the words a line starts with', () => {
  it("are the first words of the grammar's Line, every one", () => {
    // A metadata line starts with `::`, no word: it opens and closes nothing.
    const words = [...firstWords({ ruleName: 'LineStatement' }), ...firstWords({ ruleName: 'LineOther' })].filter((word) => /^[A-Za-z_]\w*$/.test(word));
    expect([...new Set(words)].sort()).toEqual([...LINE_START_WORDS].sort());
  });

  it('hold every opener and closer the count knows', () => {
    for (const closer of Object.keys(BLOCK_OF_CLOSER)) expect(LINE_START_WORDS.has(closer)).toBe(true);
    for (const word of ['command', 'func', 'if', 'while', 'for', 'on']) {
      expect(blockOpenedBy(word, 1)?.line).toBe(1);
      expect(LINE_START_WORDS.has(word)).toBe(true);
    }
  });
});
