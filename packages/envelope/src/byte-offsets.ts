/**
 * Maps string indices of envelope text to UTF-8 byte offsets, for the size
 * limits. Queries must come in increasing order, so each costs only the text
 * since the previous one.
 */
import { utf8Length } from './utf8.ts';

/** Byte offsets of the starts of marker lines (queried in increasing order). */
export interface ByteOffsets {
  /** The UTF-8 byte offset of string index `index`, which starts a marker line. */
  markerLineStart(index: number): number;
  /** The UTF-8 length of the whole text. */
  total(): number;
}

/** For text given as a string: counts the UTF-8 bytes of each gap once. */
export function stringByteOffsets(text: string): ByteOffsets {
  let lastIndex = 0;
  let lastOffset = 0;
  const advance = (index: number) => {
    lastOffset += utf8Length(text.slice(lastIndex, index));
    lastIndex = index;
    return lastOffset;
  };
  return { markerLineStart: advance, total: () => advance(text.length) };
}

const MARKER_PREFIX = '<<<NSENV:V4:';
const MARKER_PREFIX_BYTES = Buffer.from(MARKER_PREFIX);

/**
 * For text decoded from bytes: the k-th `<<<NSENV:V4:` in the string is the
 * k-th in the bytes (it is ASCII, and UTF-8 never puts ASCII bytes inside a
 * multibyte character), so a marker line's byte offset is found by counting
 * occurrences — no byte counting of the content at all.
 */
export function decodedByteOffsets(text: string, bytes: Uint8Array): ByteOffsets {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let stringAt = -1;
  let byteAt = -1;
  return {
    markerLineStart(index: number): number {
      const prefixAt = text.indexOf(MARKER_PREFIX, index);
      while (stringAt < prefixAt) {
        stringAt = text.indexOf(MARKER_PREFIX, stringAt + 1);
        byteAt = buffer.indexOf(MARKER_PREFIX_BYTES, byteAt + 1);
      }
      return byteAt - utf8Length(text.slice(index, prefixAt));
    },
    total: () => bytes.byteLength,
  };
}
