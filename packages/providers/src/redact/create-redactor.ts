import { credentialSpans, scrubCredentialPatterns, type Span } from './credential-patterns.ts';
import { SplitSecretLanes, type SecretLane } from './split-secrets.ts';

/** Replaces secrets in text and in JSON-like values. */
export interface Redactor {
  /** Scrubs configured secrets and credential-looking patterns from a string. */
  text(value: string): string;
  /**
   * Deep-copies a JSON-like value, scrubbing every string and every
   * credential-named field, and a configured secret or a credential pattern
   * split across the items of a list (`SplitSecretLanes`).
   */
  value<T>(value: T): T;
  /**
   * Scrubs only the configured secrets, not the credential-looking patterns:
   * for model text (a program may legitimately say `api_key = …`).
   */
  secretsOnly(value: string): string;
  /**
   * Length of the longest end of `value` that is the start of a secret (0 when
   * none): what a stream must hold back until the next delta shows whether
   * the secret follows.
   */
  partialSecretLength(value: string): number;
}

/** What replaces a secret. */
export const REDACTED = '[REDACTED]';

/** Secrets shorter than this are not scrubbed literally: they would mangle ordinary text. */
const MIN_SECRET_LENGTH = 4;

const SECRET_FIELD = /^(authorization|x-api-key|x-goog-api-key|api[-_]?key|apikey|access[-_]?token)$/i;

/**
 * Every text a redactor made for `secrets` replaces as configured secrets,
 * longest first (so a secret containing another is replaced whole): each
 * secret and its trimmed form, each as written and URL-encoded, leaving out
 * those under 4 characters. For a host that must find them without a
 * redactor (the sandbox worker's fingerprints of them).
 */
export function secretForms(secrets: readonly (string | undefined | null)[]): string[] {
  const literals = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string') continue;
    // A key read from a file often ends in a line break or a space; HTTP sends it trimmed, so a server that echoes
    // the key echoes the trimmed form: scrub both.
    for (const form of new Set([secret, secret.trim()])) {
      if (form.length < MIN_SECRET_LENGTH) continue;
      literals.add(form);
      // As it goes over the wire (UTF-8 has no lone surrogate: each becomes U+FFFD), so as a server echoes it.
      const sent = wellFormed(form);
      literals.add(sent);
      literals.add(encodeURIComponent(sent));
    }
  }
  return [...literals].sort((a, b) => b.length - a.length);
}

/** A lone surrogate (half of a UTF-16 pair without its other half). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` with each lone surrogate as U+FFFD, the form UTF-8 gives it on the wire (and `encodeURIComponent`, which
 * throws on a lone surrogate, can take: a key with one made every redactor for it throw).
 */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * Creates a redactor for the given secrets (API keys). Every error message,
 * raw payload and event leaving a model passes through one, because the Go
 * reference emitted the full request, key included, in its events (reference §3.12).
 */
export function createRedactor(secrets: readonly (string | undefined | null)[] = []): Redactor {
  const ordered = secretForms(secrets);

  const secretsOnly = (value: string): string => {
    let result = value;
    for (const literal of ordered) if (result.includes(literal)) result = result.split(literal).join(REDACTED);
    return result;
  };

  /** Where the configured secrets are in `value`: `[start, end)`, longest first where two overlap, sorted. */
  const secretSpans = (value: string): Span[] => {
    const spans: Span[] = [];
    for (const literal of ordered) {
      for (let at = value.indexOf(literal); at !== -1; at = value.indexOf(literal, at + 1)) {
        const end = at + literal.length;
        if (!spans.some(([from, to]) => at < to && from < end)) spans.push([at, end]);
      }
    }
    return spans.sort((a, b) => a[0] - b[0]);
  };

  const text = (value: string): string => scrubCredentialPatterns(secretsOnly(value), REDACTED);

  /** What `text` replaces in `value`, as ranges of it: for a text split across a list's items (`SplitSecretLanes`). */
  const redactedSpans = (value: string, matches?: Span[]): Span[] => credentialSpans(value, secretSpans(value), REDACTED, matches);

  /**
   * `lane` is where `value` sits among the strings of the list being copied
   * (`SplitSecretLanes`), or undefined outside a list; the outermost list of
   * two items or more starts the lanes (the patterns are looked for even
   * when no key is configured).
   */
  const walk = (value: unknown, seen: WeakMap<object, unknown>, lane: SecretLane | undefined): unknown => {
    if (typeof value === 'string') return text(value);
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return seen.get(value);
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      seen.set(value, copy);
      // A key or a token split across the items (a streamed reply's chunks) survives item by item: it is scrubbed in the joins.
      const lanes = lane === undefined && value.length > 1 ? new SplitSecretLanes() : undefined;
      const inner = lanes === undefined ? lane?.child('*') : undefined;
      for (const item of value) {
        const itemLane = lanes?.forItem(item) ?? inner;
        const scrubbed = walk(item, seen, itemLane);
        copy.push(scrubbed);
        if (itemLane !== undefined && typeof item === 'string') itemLane.add(copy as unknown as Record<number, unknown>, copy.length - 1, item);
      }
      lanes?.scrub(redactedSpans, REDACTED);
      return copy;
    }
    if (value instanceof Date) return new Date(value.getTime());
    const copy: Record<string, unknown> = {};
    seen.set(value, copy);
    for (const [key, field] of Object.entries(value)) {
      if (SECRET_FIELD.test(key) && field !== null && field !== undefined) {
        copy[key] = REDACTED;
        continue;
      }
      const fieldLane = lane?.child(key);
      const scrubbed = walk(field, seen, fieldLane);
      copy[key] = scrubbed;
      if (fieldLane !== undefined && typeof field === 'string') fieldLane.add(copy, key, field);
    }
    return copy;
  };

  const partialSecretLength = (value: string): number => {
    const longest = Math.min(value.length, (ordered[0]?.length ?? 1) - 1);
    for (let length = longest; length > 0; length--) {
      const end = value.slice(value.length - length);
      if (ordered.some((literal) => literal.startsWith(end))) return length;
    }
    return 0;
  };

  return { text, value: <T>(value: T): T => walk(value, new WeakMap(), undefined) as T, secretsOnly, partialSecretLength };
}
