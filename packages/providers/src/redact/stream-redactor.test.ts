import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from './create-redactor.ts';
import { createStreamRedactor } from './stream-redactor.ts';

const KEY = 'sk-test-0123456789abcdef';

/** Feeds `text` cut at `cuts` through a stream redactor and returns every delivery. */
function stream(text: string, cuts: number[]): string[] {
  const redactor = createStreamRedactor(createRedactor([KEY]));
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    out.push(redactor.push(text.slice(from, point)));
    from = point;
  }
  out.push(redactor.flush());
  return out;
}

describe('createStreamRedactor', () => {
  it('scrubs a key split across deltas, whatever the split', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.array(fc.nat(), { maxLength: 8 }), (before, after, cuts) => {
        const text = `${before}${KEY}${after}`;
        const out = stream(text, cuts);
        expect(out.join('')).toBe(createRedactor([KEY]).secretsOnly(text));
        for (const delivery of out) expect(delivery).not.toContain(KEY.slice(0, 12));
      }),
    );
  });

  it('delivers ordinary text at once, holding back only what could start a key', () => {
    const redactor = createStreamRedactor(createRedactor([KEY]));
    expect(redactor.push('hello ')).toBe('hello ');
    expect(redactor.push('see sk-te')).toBe('see ');
    expect(redactor.push('st-0123456789abcdef!')).toBe(`${REDACTED}!`);
    expect(redactor.flush()).toBe('');
  });

  it('does not touch credential-looking text that is not a configured key', () => {
    const redactor = createStreamRedactor(createRedactor([KEY]));
    expect(redactor.push('set api_key = "demo"')).toBe('set api_key = "demo"');
  });

  it('never splits a surrogate pair between deliveries', () => {
    const redactor = createStreamRedactor(createRedactor([]));
    expect(redactor.push('a\uD83D')).toBe('a');
    expect(redactor.push('\uDE00b')).toBe('\uD83D\uDE00b');
  });
});
