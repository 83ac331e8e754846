/**
 * Source cleaning before matching (reference §1.1): strip a BOM, turn CRLF
 * and CR into LF, drop control characters other than tab and newline, reject
 * invisible direction/zero-width characters, and cap the size at 1 MiB.
 */

/** Largest accepted source, in UTF-16 code units after cleaning (reference: 1 MiB). */
export const MAX_SOURCE_LENGTH = 1024 * 1024;

/** A character the cleaner rejects, with its offset in the cleaned text. */
export interface RejectedCharacter {
  readonly offset: number;
  readonly codePoint: number;
}

/** The cleaned text and any rejected characters. */
export interface PreprocessResult {
  readonly text: string;
  readonly rejected: readonly RejectedCharacter[];
}

// The bidi isolates (U+2066–U+2069) with the embeddings and overrides: either reorders how a program reads on a
// screen (the "Trojan Source" characters), so what a person approves could differ from what runs.
const DISALLOWED = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
// Fast path: most sources hold none of the characters the cleaner touches.
const NEEDS_CLEANING = /[\u0000-\u0008\u000b-\u001f\u200b-\u200d\u2060\u202a-\u202e\u2066-\u2069\ufeff]/;

/** Cleans `source` as reference §1.1 describes. */
export function preprocess(source: string): PreprocessResult {
  let text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (!NEEDS_CLEANING.test(text)) return { text, rejected: [] };
  text = text.replace(/\r\n?/g, '\n');
  const rejected: RejectedCharacter[] = [];
  let out = '';
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 && code !== 0x09 && code !== 0x0a) continue;
    if (DISALLOWED.has(code)) rejected.push({ offset: out.length, codePoint: code });
    out += text[index];
  }
  return { text: out, rejected };
}
