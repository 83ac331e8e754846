/**
 * A small NeuroScript highlighter for the terminal: a single left-to-right
 * scan that splits the text into keywords, tool names, strings, numbers,
 * comments and everything else. It is deliberately not the parser: it must
 * colour any text at all — a half-streamed program, a program that fails to
 * parse, arbitrary bytes — and never throw. Every character of the input is in
 * exactly one token, so removing the colour gives back the input.
 */
import type { TerminalColors } from './terminal-colors.ts';

/** What a token is, for choosing its colour. */
export type NeuroScriptTokenKind = 'keyword' | 'literal' | 'tool' | 'string' | 'number' | 'comment' | 'metadata' | 'placeholder' | 'text';

/** A run of the source text; concatenating every token's `text` gives the source back. */
export interface NeuroScriptToken {
  readonly kind: NeuroScriptTokenKind;
  readonly text: string;
}

// The reserved words of the grammar (packages/interpreter/src/grammar/neuroscript.ohm), minus the literals.
const KEYWORDS = new Set([
  'and', 'as', 'ask', 'break', 'call', 'clear', 'clear_error', 'command', 'continue', 'do', 'each', 'else', 'emit',
  'endcommand', 'endfor', 'endfunc', 'endif', 'endon', 'endwhile', 'error', 'eval', 'event', 'fail', 'for', 'func',
  'fuzzy', 'if', 'in', 'into', 'last', 'means', 'must', 'mustbe', 'named', 'needs', 'no', 'not', 'on', 'optional',
  'or', 'promptuser', 'return', 'returns', 'set', 'some', 'timedate', 'typeof', 'whisper', 'while', 'with',
]);
const LITERALS = new Set(['true', 'false', 'nil']);

// Tried in order at each position; each is sticky (`y`) so it matches only there.
const RULES: readonly (readonly [NeuroScriptTokenKind, RegExp])[] = [
  ['metadata', /::[^\n]*/y],
  ['comment', /(?:#|--|\/\/)[^\n]*/y],
  // Unterminated strings run to the end of the text (a half-streamed program is still coloured sensibly).
  ['string', /```[\s\S]*?(?:```|$(?![\s\S]))|'''[\s\S]*?(?:'''|$(?![\s\S]))|\[\[[\s\S]*?(?:\]\]|$(?![\s\S]))/y],
  ['string', /"(?:[^"\\\n]|\\[\s\S])*(?:"|(?=\n)|$)|'(?:[^'\\\n]|\\[\s\S])*(?:'|(?=\n)|$)/y],
  ['placeholder', /\{\{[A-Za-z_][A-Za-z0-9_]*\}\}/y],
  ['tool', /tool(?:\.[A-Za-z_][A-Za-z0-9_]*)+/y],
  ['number', /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![A-Za-z_])/y],
];
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
// Anything else: up to the next character that could start a token.
const OTHER = /[^A-Za-z_0-9"'`[:#/\-{]+|[\s\S]/y;

/** Splits `source` into tokens. Total: never throws, and the tokens' texts concatenate to `source`. */
export function tokenizeNeuroScript(source: string): NeuroScriptToken[] {
  const tokens: NeuroScriptToken[] = [];
  const push = (kind: NeuroScriptTokenKind, text: string) => {
    const last = tokens.at(-1);
    // Adjacent plain text merges, so the output has fewer colour codes.
    if (last !== undefined && last.kind === kind && kind === 'text') tokens[tokens.length - 1] = { kind, text: last.text + text };
    else tokens.push({ kind, text });
  };
  let position = 0;
  scan: while (position < source.length) {
    for (const [kind, pattern] of RULES) {
      pattern.lastIndex = position;
      const match = pattern.exec(source);
      if (match !== null && match[0].length > 0) {
        push(kind, match[0]);
        position += match[0].length;
        continue scan;
      }
    }
    WORD.lastIndex = position;
    const word = WORD.exec(source);
    if (word !== null) {
      const text = word[0];
      push(KEYWORDS.has(text) ? 'keyword' : LITERALS.has(text) ? 'literal' : 'text', text);
      position += text.length;
      continue;
    }
    OTHER.lastIndex = position;
    // OTHER always matches at least one character ([\s\S]).
    const other = (OTHER.exec(source) as RegExpExecArray)[0];
    push('text', other);
    position += other.length;
  }
  return tokens;
}

/** The colour of each kind (identity for plain text). */
function painter(colors: TerminalColors): Record<NeuroScriptTokenKind, (text: string) => string> {
  return {
    keyword: (text) => colors.bold(colors.magenta(text)),
    literal: colors.yellow,
    tool: colors.cyan,
    string: colors.green,
    number: colors.yellow,
    comment: (text) => colors.dim(colors.gray(text)),
    metadata: colors.gray,
    placeholder: colors.blue,
    text: (text) => text,
  };
}

/**
 * Colours a program for the terminal. Colour codes never span a newline
 * (a multi-line string is coloured line by line), so the result can be split
 * into lines and numbered. With colour off this returns `source` unchanged.
 */
export function highlightNeuroScript(source: string, colors: TerminalColors): string {
  const paint = painter(colors);
  let out = '';
  for (const token of tokenizeNeuroScript(source)) {
    const colour = paint[token.kind];
    out += token.text
      .split('\n')
      .map((piece) => (piece === '' ? '' : colour(piece)))
      .join('\n');
  }
  return out;
}
