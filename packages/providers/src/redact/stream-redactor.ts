import type { Redactor } from './create-redactor.ts';

/** Scrubs secrets from streamed text even when one is split across deltas. */
export interface StreamRedactor {
  /** Takes the next delta; returns the text that is now safe to deliver (may be empty). */
  push(delta: string): string;
  /** Returns the text held back, scrubbed; call once the stream has ended. */
  flush(): string;
}

/**
 * Holds back only an end of the stream that could be the start of a secret
 * the next delta completes; everything before it is scrubbed and released at
 * once. Ordinary text is therefore never delayed.
 */
export function createStreamRedactor(redactor: Redactor): StreamRedactor {
  let pending = '';
  return {
    push(delta) {
      const scrubbed = redactor.secretsOnly(pending + delta);
      let cut = scrubbed.length - redactor.partialSecretLength(scrubbed);
      // Never split a surrogate pair between two deliveries.
      if (cut > 0 && /[\uD800-\uDBFF]/.test(scrubbed.charAt(cut - 1))) cut -= 1;
      pending = scrubbed.slice(cut);
      return scrubbed.slice(0, cut);
    },
    flush() {
      const rest = redactor.secretsOnly(pending);
      pending = '';
      return rest;
    },
  };
}
