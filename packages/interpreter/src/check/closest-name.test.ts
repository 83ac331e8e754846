/** The distance and the did-you-mean that name hints (unset variables, tool names) rest on. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from './closest-name.ts';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions as one edit each', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('totl', 'total')).toBe(1);
    expect(editDistance('price', 'pirce')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('ca', 'abc')).toBe(3);
  });

  it('is symmetric, zero only for equal strings, and at most the longer length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const distance = editDistance(a, b);
        expect(editDistance(b, a)).toBe(distance);
        expect(distance === 0).toBe(a === b);
        expect(distance).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(distance).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
    );
  });
});

describe('closestName', () => {
  it('names the closest known name within 2 edits and under half the length, ties to the first in order', () => {
    expect(closestName('totl', ['total', 'items'])).toBe('total');
    expect(closestName('pirce', ['price', 'prize'])).toBe('price');
    expect(closestName('Total', ['total'])).toBe('total');
    expect(closestName('ab', ['ac'])).toBeUndefined();
    expect(closestName('x', ['y'])).toBeUndefined();
    expect(closestName('summary', ['sum'])).toBeUndefined();
    expect(closestName('cat', ['bat', 'cab', 'car'].reverse())).toBe('bat');
    expect(closestName('same', ['same'])).toBeUndefined();
  });
});

describe('editDistance with a limit', () => {
  it('agrees with the full distance up to the limit, and says only "further" past it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), fc.integer({ min: 0, max: 4 }), (a, b, limit) => {
        const full = editDistance(a, b);
        const bounded = editDistance(a, b, limit);
        if (full <= limit) expect(bounded).toBe(full);
        else expect(bounded).toBeGreaterThan(limit);
      }),
      { numRuns: 2000 },
    );
  });

  it('stays cheap for many long names that are almost alike (a program a model could send)', () => {
    const known = Array.from({ length: 400 }, (_, index) => `${'n'.repeat(100)}${index}`);
    const reads = Array.from({ length: 400 }, (_, index) => `${'n'.repeat(99)}x${index}`);
    // 160,000 comparisons of 100-letter names: the full tables would hold 1.6 billion cells, the bands about 80 million.
    expect(reads.map((name) => closestName(name, known)).filter((meant) => meant !== undefined)).toHaveLength(400);
    expect(closestName(`${'n'.repeat(99)}x7`, known)).toBe(`${'n'.repeat(100)}7`);
  });
});
