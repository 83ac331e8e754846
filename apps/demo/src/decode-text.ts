import { EnvelopeEncodingError } from '@askloop/envelope';

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes input bytes as UTF-8 the way the envelope codec does: invalid UTF-8
 * is an `ERR_ENV_ENCODING` error (never silently replaced) and a byte-order
 * mark is kept, so a file and the same bytes on standard input give the same
 * result.
 */
export function decodeUtf8Input(bytes: Uint8Array, what: string): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new EnvelopeEncodingError(`${what} is not valid UTF-8`);
  }
}
