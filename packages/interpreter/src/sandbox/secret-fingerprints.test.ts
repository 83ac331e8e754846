import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsSecret, prepareSecretScan, secretFingerprints } from './secret-fingerprints.ts';

/** Texts of UTF-16 code units from a small alphabet (so secrets occur by chance too), lone surrogates included. */
const unit = fc.constantFrom('a', 'b', 'k', '-', 'é', '\ud83d', '\ude00', '😀', ' ');
const text = (maxLength: number) => fc.array(unit, { maxLength }).map((units) => units.join(''));

describe('secret fingerprints', () => {
  it('find a secret exactly where the text holds it (property, against includes)', () => {
    fc.assert(
      fc.property(fc.array(text(6).filter((secret) => secret.length >= 1), { minLength: 1, maxLength: 3 }), text(40), fc.nat(), (secrets, haystack, at) => {
        const scan = prepareSecretScan(secretFingerprints(secrets));
        const planted = haystack.slice(0, at % (haystack.length + 1)) + (secrets[0] as string) + haystack.slice(at % (haystack.length + 1));
        expect(holdsSecret(haystack, scan)).toBe(secrets.some((secret) => haystack.includes(secret)));
        expect(holdsSecret(planted, scan)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('look in every string of a value, map keys included, and nowhere else', () => {
    const scan = prepareSecretScan(secretFingerprints(['sk-live-0123456789']));
    expect(holdsSecret({ list: [1, 'x', { deep: ['a sk-live-0123456789 b'] }] }, scan)).toBe(true);
    expect(holdsSecret({ 'key sk-live-0123456789': 1 }, scan)).toBe(true);
    expect(holdsSecret(['sk-live-012345678', '9', 12_345_678_9, null, true], scan)).toBe(false);
    expect(holdsSecret('SK-LIVE-0123456789', scan)).toBe(false);
    expect(holdsSecret('anything', prepareSecretScan([]))).toBe(false);
  });

  it('hold no secret: only its length, a rolling hash and a SHA-256', () => {
    const [print] = secretFingerprints(['sk-live-0123456789']);
    expect(Object.keys(print ?? {}).sort()).toEqual(['length', 'rolling', 'sha256']);
    expect(JSON.stringify(print)).not.toContain('0123456789');
    expect(print?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Number.isSafeInteger(print?.rolling)).toBe(true);
  });
});
