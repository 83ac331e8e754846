/**
 * Decoding of string literal contents (reference §1.2 "Strings"). Both
 * quote kinds decode the same escapes (a deviation: Go decodes `'…'` not at
 * all and rejects some lexer-accepted escapes in `"…"`; see
 * docs/deviations.md).
 */

/** A malformed escape inside a quoted string; `offset` is relative to the content. */
export interface BadEscape {
  readonly offset: number;
  readonly text: string;
  /** `surrogate`: a `\uHHHH` in D800–DFFF, half of a UTF-16 pair, which is no character (Go's strconv.Unquote refuses it too). */
  readonly reason?: 'surrogate';
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
    const hex = next === 'x' ? /^[0-9a-fA-F]{2}/.exec(content.slice(slash + 2, slash + 4)) : next === 'u' ? /^[0-9a-fA-F]{4}/.exec(content.slice(slash + 2, slash + 6)) : null;
    if (hex) {
      const code = Number.parseInt(hex[0], 16);
      if (next === 'u' && code >= 0xd800 && code <= 0xdfff) onBadEscape({ offset: slash, text: `\\u${hex[0]}`, reason: 'surrogate' });
      out += String.fromCharCode(code);
      index = slash + 2 + hex[0].length;
      continue;
    }
    const octal = /^[0-3]?[0-7][0-7]/.exec(content.slice(slash + 1, slash + 4));
    if (octal) {
      out += String.fromCharCode(Number.parseInt(octal[0], 8));
      index = slash + 1 + octal[0].length;
      continue;
    }
    onBadEscape({ offset: slash, text: `\\${next}` });
    out += next;
    index = slash + 2;
  }
  return out;
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
