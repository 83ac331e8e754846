/**
 * The byte offset of the first byte that does not start a valid UTF-8
 * sequence (truncated sequences, overlong forms, surrogates and code points
 * past U+10FFFF are invalid, as for `TextDecoder` with `fatal: true`), or -1
 * when every byte is valid.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || index + length > bytes.length) return index;
    // The second byte's range rules out overlong forms, surrogates and values past U+10FFFF.
    const second = bytes[index + 1]!;
    const [low, high] = lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    if (second < low || second > high) return index;
    for (let offset = 2; offset < length; offset += 1) {
      if ((bytes[index + offset]! & 0xc0) !== 0x80) return index;
    }
    index += length;
  }
  return -1;
}
