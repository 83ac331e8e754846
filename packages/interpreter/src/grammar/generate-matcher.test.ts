import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, GRAMMAR_FILE, generateMatcherSource } from './generate-matcher.ts';

describe('generated matcher', () => {
  it('is what the generator makes of the committed grammar (run `pnpm generate:matcher` after editing neuroscript.ohm)', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(generateMatcherSource(readFileSync(GRAMMAR_FILE, 'utf8')));
  });
});
