import { describe, expect, it } from 'vitest';
import { logicalLines } from './logical-lines.ts';

/** The text of each logical line, or undefined. */
function split(text: string): string[] | undefined {
  return logicalLines(text)?.map((line) => text.slice(line.start, line.end));
}

describe('logicalLines', () => {
  it('splits at every newline outside brackets, strings and continuations', () => {
    expect(split('command\n  emit 1\n\n  # c\nendcommand\n')).toEqual(['command', '  emit 1', '', '  # c', 'endcommand']);
    // The last line may end without a newline.
    expect(split('command\nendcommand')).toEqual(['command', 'endcommand']);
    expect(split('')).toEqual([]);
  });

  it('joins the lines of a bracket, a multi-line string and a continuation', () => {
    expect(split('set m = {\n  "a": [1,\n    2],\n}\nemit m\n')).toEqual(['set m = {\n  "a": [1,\n    2],\n}', 'emit m']);
    expect(split('emit ```one\ntwo```\nemit \'\'\'a\nb\'\'\'\nemit 1\n')).toEqual(['emit ```one\ntwo```', "emit '''a\nb'''", 'emit 1']);
    expect(split('set x = 1 + \\\n  2\nemit x\n')).toEqual(['set x = 1 + \\\n  2', 'emit x']);
    expect(split('emit "a\\\nb"\nemit 2\n')).toEqual(['emit "a\\\nb"', 'emit 2']);
  });

  it('reads no bracket or quote inside a comment, a metadata line or a string', () => {
    expect(split("# don't (\nemit 1 -- it's [\nemit 2 // {\n:: note: don't [\nemit \"(\" + '[' + ```{```\n")).toEqual([
      "# don't (",
      "emit 1 -- it's [",
      'emit 2 // {',
      ":: note: don't [",
      'emit "(" + \'[\' + ```{```',
    ]);
  });

  it('reads a [[ both as a list and as a string until one reading is left', () => {
    expect(split("emit [[it's]]\nemit 1\n")).toEqual(["emit [[it's]]", 'emit 1']);
    expect(split('set g = [[1, [2]], 3]\nemit g\n')).toEqual(['set g = [[1, [2]], 3]', 'emit g']);
    expect(split('emit [[a {{b}} c]]\nemit 1\n')).toEqual(['emit [[a {{b}} c]]', 'emit 1']);
    // Inside a bracket that spans lines, once both readings agree again.
    expect(split('set x = [\n  [[1]],\n  2]\nemit x\n')).toEqual(['set x = [\n  [[1]],\n  2]', 'emit x']);
  });

  it('gives up when a [[ is still read both ways at the end of its line, or the reading left goes on', () => {
    expect(split('emit [[one\ntwo]]\nemit 1\n')).toBeUndefined();
    expect(split('set g = [[1, 2],\n  [3]]\nemit g\n')).toBeUndefined();
    // The list reading ends at the quote; the string reading left goes on to the next line.
    expect(split("emit [[don't\nstop]]\n")).toBeUndefined();
  });

  it('gives up when a bracket or string is never closed, or a closer has no opener', () => {
    for (const text of [
      'set x = [1,\n2\nemit x\n',
      'emit ```never\nclosed\n',
      "emit '''never\n",
      'emit [[x\n',
      'set m = \n  "a": 1\n}\n',
      'emit f(1]\n',
      'emit "unclosed\nemit 2\n',
      "emit 'it\n",
      'emit `template\nliteral`\n',
      'emit \u201Ccurly\nquote\u201D\n',
      'emit """doc\nstring"""\n',
    ]) {
      expect(split(text), text).toBeUndefined();
    }
  });

  it('lets a backtick or a typographic quote pair on its line', () => {
    expect(split('emit `x`\nemit \u201Cy\u201D + \u2018z\u2019\nemit 1\n')).toEqual(['emit `x`', 'emit \u201Cy\u201D + \u2018z\u2019', 'emit 1']);
  });

  it('treats a \\ followed by more than a newline as a continuation, and leaves out a last line that ends with one', () => {
    expect(split('emit 1 + \\ \nemit 2\nemit 3\n')).toEqual(['emit 1 + \\ \nemit 2', 'emit 3']);
    expect(split('emit 1\nemit 2 \\')).toEqual(['emit 1']);
  });

  it("marks each line's first and last characters outside comments and white space", () => {
    const text = '  emit x + 1  # c\n\n  # only\n:: k: v\n  set y = [\n 1]\n';
    const lines = logicalLines(text) ?? [];
    expect(lines.map((line) => (line.first === -1 ? null : [text[line.first], text[line.last]]))).toEqual([['e', '1'], null, null, null, ['s', ']']]);
  });
});
