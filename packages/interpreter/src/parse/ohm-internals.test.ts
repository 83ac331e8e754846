import { version } from 'ohm-js';
import { describe, expect, it } from 'vitest';
import grammar from '../grammar/neuroscript.ohm-bundle.js';
import { applyPrototype, cstRoot } from './ohm-internals.ts';

describe('Ohm internals', () => {
  it('are those of the pinned version', () => {
    // The CST walk and the nesting guard read Ohm 17 internals: re-check both when upgrading.
    expect(version).toBe('17.5.0');
  });

  it('expose the CST root and the rule-application prototype', () => {
    const [root, offset] = cstRoot(grammar.match('1 + 2', 'Interpolation'));
    expect(root.ctorName).toBe('Interpolation');
    expect(offset).toBe(0);
    expect(root.matchLength).toBe(5);
    expect(typeof applyPrototype.reallyEval).toBe('function');
  });
});
