import { describe, expect, it } from 'vitest';
import { oneLine } from './format-values.ts';

// Walkthrough: the sessions table cut an emoji in half (U+FFFD) and kept tabs, which shifted its columns.
describe('oneLine', () => {
  it('never cuts inside a surrogate pair', () => {
    const text = `${'a'.repeat(38)}🎉🎉 tail`;
    expect(oneLine(text, 40)).toBe(`${'a'.repeat(38)}…`);
    expect(oneLine(text, 41)).toBe(`${'a'.repeat(38)}🎉…`);
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (let width = 1; width < text.length; width++) expect(oneLine(text, width)).not.toMatch(loneSurrogate);
  });

  it('turns tabs into spaces and lines into ⏎', () => {
    expect(oneLine('a\tb\n  c', 40)).toBe('a b ⏎ c');
  });
});
