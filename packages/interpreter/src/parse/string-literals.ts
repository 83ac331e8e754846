/**
 * Decoding of string literal contents (reference §1.2 "Strings"). Both
 * quote kinds decode the same escapes (a deviation: Go decodes `'…'` not at
 * all and rejects some lexer-accepted escapes in `"…"`; see
 * docs/deviations.md). `\xHH` and octal `\OOO` escapes are bytes, as in Go:
 * a run of them is decoded as UTF-8 (`"caf\xc3\xa9"` is `café`), and a run
 * that is no UTF-8 is refused, since a JavaScript string cannot hold the
 * bytes Go's string would.
 */

/** A malformed escape inside a quoted string; `offset` is relative to the content. */
export interface BadEscape {
  readonly offset: number;
  readonly text: string;
  /**
   * `surrogate`: a `\uHHHH` in D800–DFFF, half of a UTF-16 pair, which is no character (Go's strconv.Unquote refuses it too).
   * `bytes`: a run of `\xHH` / octal byte escapes that is no UTF-8 text (`\xe9` alone); `text` is the whole run.
   * `digits`: a `\u` or `\x` without its four or two hex digits (`\u00`), or an octal escape with one digit (`\0`: it takes two or three).
   */
  readonly reason?: 'surrogate' | 'bytes' | 'digits';
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  '~': '~',
  '`': '`',
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  v: '\v',
  '\n': '',
};

/** Decodes the escapes in the text between the quotes of a `"…"` or `'…'` literal. */
export function decodeEscapes(content: string, onBadEscape: (bad: BadEscape) => void): string {
  if (!content.includes('\\')) return content;
  let out = '';
  let index = 0;
  while (index < content.length) {
    const slash = content.indexOf('\\', index);
    if (slash === -1) {
      out += content.slice(index);
      break;
    }
    out += content.slice(index, slash);
    const next = content[slash + 1] ?? '';
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      index = slash + 2;
      continue;
    }
    const unicode = next === 'u' ? /^[0-9a-fA-F]{4}/.exec(content.slice(slash + 2, slash + 6)) : null;
    if (unicode) {
      const code = Number.parseInt(unicode[0], 16);
      if (code >= 0xd800 && code <= 0xdfff) onBadEscape({ offset: slash, text: `\\u${unicode[0]}`, reason: 'surrogate' });
      out += String.fromCharCode(code);
      index = slash + 6;
      continue;
    }
    const bytes = byteRun(content, slash);
    if (bytes !== undefined) {
      const text = decodeUtf8(bytes.values);
      if (text === undefined) onBadEscape({ offset: slash, text: content.slice(slash, bytes.end), reason: 'bytes' });
      out += text ?? bytesAsCodePoints(bytes.values);
      index = bytes.end;
      continue;
    }
    // A lone octal digit is an octal escape cut short (byteRun takes two or three digits), not an unknown escape.
    onBadEscape({ offset: slash, text: `\\${next}`, ...(next === 'u' || next === 'x' || /^[0-7]$/.test(next) ? { reason: 'digits' as const } : {}) });
    out += next;
    index = slash + 2;
  }
  return out;
}

/**
 * What the `text` of a `digits` escape lacks, for its message: `\u` four hex
 * digits, `\x` two, an octal escape (`\0`) two or three octal digits.
 */
export function digitsNeeded(text: string): string {
  if (text === '\\u') return 'four hex digits (\\u00e9 is é)';
  if (text === '\\x') return 'two hex digits (\\x41 is A)';
  return 'two or three octal digits (\\101 is A; \\000 or \\x00 is the NUL character)';
}

/** One `\xHH` or octal `\OOO` escape at `at`: its byte and where it ends, or undefined. */
function byteEscape(content: string, at: number): { readonly value: number; readonly end: number } | undefined {
  if (content[at] !== '\\') return undefined;
  const hex = content[at + 1] === 'x' ? /^[0-9a-fA-F]{2}/.exec(content.slice(at + 2, at + 4)) : null;
  if (hex) return { value: Number.parseInt(hex[0], 16), end: at + 4 };
  const octal = /^[0-3]?[0-7][0-7]/.exec(content.slice(at + 1, at + 4));
  return octal ? { value: Number.parseInt(octal[0], 8), end: at + 1 + octal[0].length } : undefined;
}

/** The run of byte escapes starting at `at` (one or more), or undefined when none starts there. */
function byteRun(content: string, at: number): { readonly values: number[]; readonly end: number } | undefined {
  const values: number[] = [];
  let end = at;
  for (let escape = byteEscape(content, end); escape !== undefined; escape = byteEscape(content, end)) {
    values.push(escape.value);
    end = escape.end;
  }
  return values.length === 0 ? undefined : { values, end };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Each byte as the code point of its value (no spread: a run may hold more bytes than a call takes arguments). */
function bytesAsCodePoints(values: readonly number[]): string {
  let text = '';
  for (const value of values) text += String.fromCharCode(value);
  return text;
}

/** The bytes as UTF-8 text, or undefined when they are not UTF-8. ASCII bytes, the common case, need no decoder. */
function decodeUtf8(values: readonly number[]): string | undefined {
  if (values.every((value) => value < 0x80)) return bytesAsCodePoints(values);
  try {
    return UTF8.decode(Uint8Array.from(values));
  } catch {
    return undefined;
  }
}

/** A piece of an interpolating string before holes are parsed. */
export type RawStringPart =
  | { readonly kind: 'text'; readonly value: string; readonly offset: number }
  | { readonly kind: 'hole'; readonly text: string; readonly offset: number };

/** The `{{@symbol}}` placeholders (reference §1.2 "Interpolation"). */
const SYMBOLS: Record<string, string> = {
  nl: '\n',
  cr: '\r',
  tab: '\t',
  bt: '`',
  tbt: '```',
  sq: "'",
  dq: '"',
  tsq: "'''",
  tdq: '"""',
};

/**
 * Splits the content of a ```` ``` ```` or `[[…]]` string into text and
 * `{{…}}` holes. Symbols become text; `{{}}` is dropped; an unknown `@x`
 * and an unterminated `{{` stay literal. `offset`s are relative to `content`;
 * a hole's `text` is trimmed and its offset points at its first character.
 */
export function splitInterpolation(content: string): RawStringPart[] {
  const parts: RawStringPart[] = [];
  let text = '';
  let textOffset = 0;
  let index = 0;
  const pushText = (value: string, at: number): void => {
    if (text === '') textOffset = at;
    text += value;
  };
  while (index < content.length) {
    const open = content.indexOf('{{', index);
    const close = open === -1 ? -1 : content.indexOf('}}', open + 2);
    if (open === -1 || close === -1) {
      pushText(content.slice(index), index);
      break;
    }
    pushText(content.slice(index, open), index);
    const raw = content.slice(open + 2, close);
    const inside = raw.trim();
    const insideOffset = open + 2 + (raw.length - raw.trimStart().length);
    index = close + 2;
    if (inside === '') continue;
    if (inside.startsWith('@')) {
      const symbol = SYMBOLS[inside.slice(1)];
      pushText(symbol ?? `{{${inside}}}`, open);
      continue;
    }
    if (text !== '') parts.push({ kind: 'text', value: text, offset: textOffset });
    text = '';
    parts.push({ kind: 'hole', text: inside, offset: insideOffset });
  }
  if (text !== '') parts.push({ kind: 'text', value: text, offset: textOffset });
  return parts;
}
