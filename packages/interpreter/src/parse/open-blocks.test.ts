import { describe, expect, it } from 'vitest';
import { describeOpenBlocks, openBlocks } from './open-blocks.ts';

const at = (text: string): string[] => openBlocks(text, text.length).map(({ keyword, line }) => `${keyword}@${line}`);

describe('openBlocks', () => {
  it('finds every block still open, outermost first, with the line it opened at', () => {
    expect(at('command\n  for each w in ws\n    if w\n      emit w\n    endif\n  while x\n    on error do\n      emit 1')).toEqual(['command@1', 'for each@2', 'while@6', 'on … do@7']);
    expect(at('func f() means\n  return 1\nendfunc\ncommand\n  emit 1\nendcommand\n')).toEqual([]);
  });

  it('ignores block words in strings, comments, continued lines and brackets', () => {
    const text = 'command\n  emit "if" # while\n  set t = ```\nif x\nwhile y\n```\n  set u = [[for each of them]]\n  emit 1 + \\\nif\n  set xs = [1,\n    if]\n  -- endcommand\n  emit 2';
    expect(at(text)).toEqual(['command@1']);
  });

  it('reads a metadata line as text to its end: an apostrophe or a bracket in it hides no opener after it', () => {
    expect(at("command\n  :: description: counts the user's words\n  if x\n    emit 1")).toEqual(['command@1', 'if@3']);
    expect(at(':: title: a report (draft\nfunc f() means\n  return 1')).toEqual(['func@2']);
  });

  it('reads the word after a continuation a statement starts with, and its line', () => {
    expect(at('command\n  \\\n  if x\n    emit 1\n')).toEqual(['command@1', 'if@3']);
  });

  it("marks an 'if' whose 'else' came", () => {
    expect(openBlocks('command\n  if x\n    emit 1\n  else\n    while y\n      emit 2', 60).map(({ keyword, hasElse }) => `${keyword}${hasElse === true ? '+else' : ''}`)).toEqual(['command', 'if+else', 'while']);
    expect(openBlocks('command\n  if x\n    emit 1', 30).at(-1)?.hasElse).toBeUndefined();
  });

  it('stops before the statement at the end offset, which a message is about', () => {
    const text = 'command\n  while x\n    emit 1\n  endif\n';
    expect(openBlocks(text, text.indexOf('endif')).map(({ closer }) => closer)).toEqual(['endcommand', 'endwhile']);
  });

  it('names the blocks innermost first', () => {
    expect(describeOpenBlocks(openBlocks('command\n  if x\n    emit 1', 30))).toBe("the 'if' block opened at line 2 and the 'command' block opened at line 1");
  });
});
