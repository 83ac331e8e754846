import { CliError } from './cli-error.ts';
import { firstInvalidUtf8 } from './input/first-invalid-utf8.ts';

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Where UTF-8 first goes wrong in `bytes`: the offending byte, its offset, and its line and column (in code points). */
export interface InvalidUtf8 {
  readonly offset: number;
  readonly byte: number;
  readonly line: number;
  readonly column: number;
  /** `not valid UTF-8: invalid byte 0x… at byte offset N (line L, column C)`. */
  readonly message: string;
}

/** The first invalid UTF-8 in `bytes`, or undefined when they are all valid. */
export function findInvalidUtf8(bytes: Uint8Array): InvalidUtf8 | undefined {
  const offset = firstInvalidUtf8(bytes);
  if (offset < 0) return undefined;
  const before = bytes.subarray(0, offset);
  const lineStart = before.lastIndexOf(0x0a) + 1;
  const line = 1 + before.reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 0);
  // The bytes before the offset are valid, so the line so far decodes; columns count code points.
  const column = 1 + [...strictDecoder.decode(before.subarray(lineStart))].length;
  const byte = bytes[offset] ?? 0;
  return { offset, byte, line, column, message: `not valid UTF-8: invalid byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${offset} (line ${line}, column ${column})` };
}

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
    const invalid = findInvalidUtf8(bytes);
    throw new CliError('CLI_INPUT_ENCODING', invalid?.message ?? 'not valid UTF-8', { file, ...(invalid === undefined ? {} : { line: invalid.line, column: invalid.column }) });
  }
}
