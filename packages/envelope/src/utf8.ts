/**
 * UTF-8 helpers. Limits are counted in UTF-8 bytes (seed 003 §3.4), and byte
 * input must be valid UTF-8.
 */

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The number of UTF-8 bytes of a string. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Decodes UTF-8 strictly; returns `undefined` when the bytes are not valid UTF-8. */
export function tryDecodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The offset of the first byte that does not start a valid UTF-8 sequence
 * (overlong forms, surrogates and code points past U+10FFFF are invalid), or
 * -1 when all bytes are valid.
 */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    let length: number;
    let min: number;
    if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [length, min] = [3, 0x800];
    else if (lead >= 0xf0 && lead <= 0xf4) [length, min] = [4, 0x10000];
    else return index;
    if (index + length > bytes.length) return index;
    let codePoint = lead & (0xff >> (length + 1));
    for (let offset = 1; offset < length; offset += 1) {
      const next = bytes[index + offset]!;
      if ((next & 0xc0) !== 0x80) return index;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return index;
    index += length;
  }
  return -1;
}
