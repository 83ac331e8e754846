/**
 * The helpers of syntax messages that read the text around a failure. They
 * run on a model's failing program in the host, so each stays linear in the
 * length of a line, however it is made.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from './parse.ts';
import { trailingName } from './syntax-message.ts';

describe('trailingName', () => {
  it('finds what /[A-Za-z_][A-Za-z0-9_]*$/ finds', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'Z', '9', '_', ' ', '@', '.', '\n'), { maxLength: 24 }), (characters) => {
        const text = characters.join('');
        expect(trailingName(text)).toBe(/[A-Za-z_][A-Za-z0-9_]*$/.exec(text)?.[0]);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads a line with a very long name and a mistake after it in time linear in the name's length", () => {
    // The pattern tried every start of the name, each running to its end: a 32 KB name then ` @` took 2.6 s, so
    // these 300,000 letters would outlast the test's timeout many times over. No timing is asserted: the timeout guards.
    const name = 'a'.repeat(300_000);
    for (const line of [`emit ${name} @`, `set x = ${name} @`, `if ${name} @`, `call ${name} @`]) {
      const result = parse(`command\n  ${line}\nendcommand\n`);
      expect(result.ok).toBe(false);
      expect(result.ok ? [] : result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['SCRIPT_SYNTAX']);
    }
  });
});
