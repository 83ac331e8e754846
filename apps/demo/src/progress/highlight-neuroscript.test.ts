import fc from 'fast-check';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { highlightNeuroScript, tokenizeNeuroScript } from './highlight-neuroscript.ts';
import { terminalColors } from './terminal-colors.ts';
import { terminalSafe } from './terminal-safe.ts';

const colour = terminalColors(true);
const plain = terminalColors(false);

// Pieces of NeuroScript (and near-misses: unterminated strings, half a tool name), so random texts look like programs.
const piece = fc.oneof(
  fc.constantFrom('command', 'endcommand', 'set', 'emit', 'whisper', 'if', 'endif', 'for each', 'in', 'true', 'nil', ' ', '\n', '\t', '=', '+', '-', '--', '#', '//', '::', '(', ')', '[', '[[', ']]', '{{x}}', '{', '"', "'", '```', "'''", '\\', 'tool.', 'tool.str.Split', '3.14', '1e9', '42abc', 'userdata["subject"]'),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
);
const program = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));
const noControls = (text: string) => text === terminalSafe(text);

describe('highlightNeuroScript', () => {
  it('gives back the input when the colour is stripped (any text without control characters)', () => {
    fc.assert(
      fc.property(program.filter(noControls), (source) => {
        expect(stripVTControlCharacters(highlightNeuroScript(source, colour))).toBe(source);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws, and tokens always cover the input exactly (any text at all)', () => {
    fc.assert(
      fc.property(fc.oneof(program, fc.string({ unit: 'binary' })), (source) => {
        expect(tokenizeNeuroScript(source).map((token) => token.text).join('')).toBe(source);
        expect(highlightNeuroScript(source, plain)).toBe(source);
        const safe = terminalSafe(source);
        expect(stripVTControlCharacters(highlightNeuroScript(safe, colour))).toBe(safe);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps colour codes within a line, so lines can be numbered', () => {
    fc.assert(
      fc.property(program.filter(noControls), (source) => {
        for (const line of highlightNeuroScript(source, colour).split('\n')) {
          const opens = line.match(/\u001b\[(?:1|2|3[0-8]|9[0-7])m/g)?.length ?? 0;
          const closes = line.match(/\u001b\[(?:22|39)m/g)?.length ?? 0;
          expect(closes).toBe(opens);
        }
      }),
    );
  });

  it('tells keywords, tool names, strings, numbers and comments apart', () => {
    const kinds = tokenizeNeuroScript('command\n  set n = tool.str.Split("a b", " ") # why\n  emit 42 + len(n) -- note\nendcommand')
      .filter((token) => token.kind !== 'text')
      .map((token) => `${token.kind}:${token.text}`);
    expect(kinds).toEqual([
      'keyword:command', 'keyword:set', 'tool:tool.str.Split', 'string:"a b"', 'string:" "', 'comment:# why',
      'keyword:emit', 'number:42', 'comment:-- note', 'keyword:endcommand',
    ]);
  });

  it('colours an unterminated string to the end of its line, and a multi-line string line by line', () => {
    expect(tokenizeNeuroScript('emit "open\nemit 1').map((token) => token.kind)).toEqual(['keyword', 'text', 'string', 'text', 'keyword', 'text', 'number']);
    const lines = highlightNeuroScript('set s = ```one\ntwo```', colour).split('\n');
    expect(lines[1]).toBe(colour.green('two```'));
  });
});
