/**
 * Fingerprints of a host's secrets (its model keys), so that a sandbox worker
 * can tell that a result it computed holds one without ever holding the
 * secret itself: the worker runs untrusted programs, and keys stay out of it.
 *
 * A tool host replaces the known secrets in what a tool gives back (the
 * controller's redaction). A pure tool answered in the worker
 * (`local-tool-answers.ts`) skips that host, and a decoding tool
 * (`tool.str.FromHex`, `tool.str.FromBase64`, `tool.json.Parse`, …) can make
 * a key out of text that did not hold it. So the worker looks for each secret
 * in every string of such a result, map keys included, and leaves a result
 * that holds one to the host, which hides it as it always did.
 *
 * A fingerprint is the secret's length, a rolling hash of it (two polynomial
 * hashes modulo primes below 2^26, so every product stays an exact double)
 * and its SHA-256 over its UTF-16 code units. The worker rolls the hash over
 * every window of that length and confirms a match with SHA-256, so a found
 * window is the secret (a false alarm only sends a call to the host, which
 * costs time, not correctness).
 */
import { createHash } from 'node:crypto';

/** What a worker knows of one secret. Plain data: it travels in the run request. */
export interface SecretFingerprint {
  /** Its length in UTF-16 code units. */
  readonly length: number;
  /** Its rolling hash (see the module's comment). */
  readonly rolling: number;
  /** SHA-256 of its UTF-16 code units (little-endian), in hex. */
  readonly sha256: string;
}

const MODULUS_1 = 67_108_859;
const MODULUS_2 = 67_108_837;
const BASE_1 = 1_000_003;
const BASE_2 = 999_983;

/** `base` to the power `exponent`, modulo `modulus`. */
function power(base: number, exponent: number, modulus: number): number {
  let result = 1;
  for (let step = 0; step < exponent; step += 1) result = (result * base) % modulus;
  return result;
}

/** The two hashes of `text.slice(start, start + length)`, combined into one safe integer. */
function windowHash(text: string, start: number, length: number): { first: number; second: number } {
  let first = 0;
  let second = 0;
  for (let at = start; at < start + length; at += 1) {
    const unit = text.charCodeAt(at);
    first = (first * BASE_1 + unit) % MODULUS_1;
    second = (second * BASE_2 + unit) % MODULUS_2;
  }
  return { first, second };
}

const combine = (first: number, second: number): number => first * MODULUS_2 + second;

/** SHA-256 of a text's UTF-16 code units (lone surrogates as they are). */
function sha256Of(text: string): string {
  return createHash('sha256').update(Buffer.from(text, 'utf16le')).digest('hex');
}

/** Whether `value` is a fingerprint as {@link secretFingerprints} makes one (what a run request may carry). */
export function isSecretFingerprint(value: unknown): value is SecretFingerprint {
  const print = value as Partial<SecretFingerprint> | null;
  return typeof print === 'object' && print !== null && Number.isSafeInteger(print.length) && (print.length as number) > 0 && Number.isSafeInteger(print.rolling) && typeof print.sha256 === 'string' && /^[0-9a-f]{64}$/.test(print.sha256);
}

/** Fingerprints of `secrets` (the texts a redactor replaces: `@askloop/providers`' `secretForms`). */
export function secretFingerprints(secrets: readonly string[]): SecretFingerprint[] {
  return secrets
    .filter((secret) => secret.length > 0)
    .map((secret) => {
      const { first, second } = windowHash(secret, 0, secret.length);
      return { length: secret.length, rolling: combine(first, second), sha256: sha256Of(secret) };
    });
}

/** Fingerprints of one length, by rolling hash: what a scan of windows of that length looks up. */
interface LengthGroup {
  readonly length: number;
  readonly byRolling: ReadonlyMap<number, readonly string[]>;
  /** BASE^(length - 1) for each modulus: what the unit leaving the window weighed. */
  readonly lead1: number;
  readonly lead2: number;
}

/** Prepared fingerprints: made once per run, used on each of its results. */
export interface SecretScan {
  readonly groups: readonly LengthGroup[];
}

/** Groups `prints` by length for {@link holdsSecret}; a malformed fingerprint is left out. */
export function prepareSecretScan(prints: readonly SecretFingerprint[]): SecretScan {
  const byLength = new Map<number, Map<number, string[]>>();
  for (const print of prints) {
    if (!isSecretFingerprint(print)) continue;
    const group = byLength.get(print.length) ?? new Map<number, string[]>();
    byLength.set(print.length, group);
    group.set(print.rolling, [...(group.get(print.rolling) ?? []), print.sha256]);
  }
  return {
    groups: [...byLength].map(([length, byRolling]) => ({ length, byRolling, lead1: power(BASE_1, length - 1, MODULUS_1), lead2: power(BASE_2, length - 1, MODULUS_2) })),
  };
}

/** Whether `text` holds a secret of `group`: every window of its length, rolled, confirmed by SHA-256. */
function textHolds(text: string, group: LengthGroup): boolean {
  const { length } = group;
  if (text.length < length) return false;
  let { first, second } = windowHash(text, 0, length);
  for (let start = 0; ; start += 1) {
    const candidates = group.byRolling.get(combine(first, second));
    if (candidates !== undefined && candidates.includes(sha256Of(text.slice(start, start + length)))) return true;
    const next = start + length;
    if (next >= text.length) return false;
    const leaving = text.charCodeAt(start);
    const entering = text.charCodeAt(next);
    first = (((first - ((leaving * group.lead1) % MODULUS_1) + MODULUS_1) % MODULUS_1) * BASE_1 + entering) % MODULUS_1;
    second = (((second - ((leaving * group.lead2) % MODULUS_2) + MODULUS_2) % MODULUS_2) * BASE_2 + entering) % MODULUS_2;
  }
}

/** Whether any string of `value` (plain JSON data), map keys included, holds one of the secrets of `scan`. */
export function holdsSecret(value: unknown, scan: SecretScan): boolean {
  if (scan.groups.length === 0) return false;
  if (typeof value === 'string') return scan.groups.some((group) => textHolds(value, group));
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => holdsSecret(item, scan));
  return Object.entries(value).some(([key, item]) => holdsSecret(key, scan) || holdsSecret(item, scan));
}
