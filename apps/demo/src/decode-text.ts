import { CliError } from './cli-error.ts';
import { firstInvalidUtf8 } from './input/first-invalid-utf8.ts';

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes an input's bytes as UTF-8, strictly, the same way in every command:
 * invalid UTF-8 is `CLI_INPUT_ENCODING` naming the file, the byte offset and
 * the line and column (never silently replaced by U+FFFD), and a byte-order
 * mark is kept, so a file and the same bytes on standard input give the same
 * result.
 */
export function decodeUtf8Input(bytes: Uint8Array, file: string): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const before = bytes.subarray(0, Math.max(0, offset));
    const lineStart = before.lastIndexOf(0x0a) + 1;
    const line = 1 + before.reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 0);
    // The bytes before the offset are valid, so the line so far decodes; columns count code points.
    const column = 1 + [...strictDecoder.decode(before.subarray(lineStart))].length;
    throw new CliError('CLI_INPUT_ENCODING', `not valid UTF-8: invalid byte 0x${bytes[offset]?.toString(16).padStart(2, '0')} at byte offset ${offset} (line ${line}, column ${column})`, { file, line, column });
  }
}
