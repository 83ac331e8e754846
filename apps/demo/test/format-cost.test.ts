/**
 * A cost of 0 from a model without prices reads "unknown (no prices)", not
 * "$0.0000", which reads as free (the run's summary and `askloop show`).
 */
import { describe, expect, it } from 'vitest';
import { formatCost } from '../src/progress/format-values.ts';

describe('formatCost', () => {
  it('gives dollars to four places, and "unknown" for a cost no price gave', () => {
    expect(formatCost(0.0012)).toBe('$0.0012');
    expect(formatCost(0)).toBe('$0.0000');
    expect(formatCost(0, false)).toBe('unknown (no prices)');
    // A cost counted from prices somewhere is shown whatever the rest.
    expect(formatCost(0.5, false)).toBe('$0.5000');
  });
});
