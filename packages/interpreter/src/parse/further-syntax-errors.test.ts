/**
 * Every syntax error of a script, not only the first: the lines after the
 * first error are matched one by one. What must hold: the first error is
 * the one the whole script's match gives; each further error is one of its
 * own line, reported in the words and at the column it gets when it is the
 * only one; and no line is reported that is wrong only because of another
 * (the rest of a multi-line literal, a string or statement meant to go on).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neuroScriptProgram } from '../../bench/programs.ts';
import { conformanceInputs } from '../../test/support/conformance-inputs.ts';
import { program } from '../../test/support/program-arbitraries.ts';
import grammar from '../grammar/neuroscript.ohm-bundle.js';
import { MAX_NESTING_DEPTH } from '../ast/index.ts';
import { MAX_SYNTAX_ERRORS } from './further-syntax-errors.ts';
import { type LogicalLine, logicalLines } from './logical-lines.ts';
import { matchFast } from './match-fast.ts';
import { openBlocks } from './open-blocks.ts';
import { parse } from './parse.ts';
import { preprocess } from './preprocess.ts';

/** Multiplies the fast-check runs below, for a long search (`FURTHER_ERRORS_RUNS=20 pnpm exec vitest run src/parse/further-syntax-errors.test.ts --testTimeout=600000`). */
const RUNS = Math.max(1, Number(process.env.FURTHER_ERRORS_RUNS ?? 1) || 1);

const command = (...lines: string[]): string => `command\n${lines.map((line) => `  ${line}\n`).join('')}endcommand\n`;

/** The SCRIPT_SYNTAX diagnostics of `source` as `line:column message`. */
function syntaxErrors(source: string): string[] {
  const result = parse(source);
  if (result.ok) return [];
  return result.diagnostics.filter((diagnostic) => diagnostic.code === 'SCRIPT_SYNTAX').map((diagnostic) => `${diagnostic.line}:${diagnostic.column} ${diagnostic.message}`);
}

const lineOf = (error: string): number => Number(error.slice(0, error.indexOf(':')));

describe('further syntax errors', () => {
  it('reports two and three mistakes on separate lines, each with its own line, column and message', () => {
    const two = command('sett x = 1', 'emit x', 'y = 2', 'emit y');
    expect(syntaxErrors(two)).toEqual([
      "2:3 'sett' is not a keyword (a statement starts with one of set, call, emit, whisper, must, fail, if, while, for each, return, ask, promptuser, break, continue, on error, clear_error): did you mean 'set'?",
      "4:3 An assignment needs 'set': write 'set y = 2'.",
    ]);
    const three = command('set m = {"a": 1}', 'emit m.a', 'for each k in m', '  print(k)', 'endfor', 'if len(m) > 0:', '  emit "x"', 'endif');
    expect(syntaxErrors(three)).toEqual([
      '3:9 Map fields are read with brackets: write ["a"] instead of .a (m["a"], not m.a). Dot access only works on the left of \'set\'.',
      "5:5 'print' is not a NeuroScript statement: to print, write 'emit value'.",
      "7:16 No ':' after a condition: end the line after it, put the statements on the following lines, then close the block ('endif', 'endwhile', 'endfor').",
    ]);
    // Each diagnostic has the same shape as the first.
    const result = parse(three, { fileName: 'turn-2' });
    expect(result.ok).toBe(false);
    if (!result.ok) for (const diagnostic of result.diagnostics) expect(diagnostic).toMatchObject({ code: 'SCRIPT_SYNTAX', severity: 'error', kind: 'syntax', numericCode: 15, file: 'turn-2' });
  });

  it('keeps the first error exactly as it was, and stops at five in all', () => {
    const lines = Array.from({ length: 8 }, (_, index) => `value_${index} = ${index}`);
    const errors = syntaxErrors(command(...lines));
    expect(errors).toHaveLength(MAX_SYNTAX_ERRORS);
    expect(errors.map(lineOf)).toEqual([2, 3, 4, 5, 6]);
    expect(errors[0]).toBe(syntaxErrors(command(lines[0] as string))[0]);
  });

  it('says of a later line what it says when that line is the only mistake, at the same column', () => {
    const mistakes = [
      'x = 1',
      'sett x = 1',
      'print(x)',
      'Set x = 1',
      'emit m.a',
      'emit len(m) == 1 2',
      'counts[w] += 1',
      'emit f"count: {n}"',
      '<<<LOOP:DONE>>> finished',
      'emit a && b',
      'must x, "message"',
      'emit x;',
      'call tool.str.ToUpper',
      'emitt x',
      'let y = 2',
      'elif x',
      'tool.str.ToUpper("a")',
      'emit "a" "b"',
      'set x == 1',
      'emit \u201Cquoted\u201D',
      'set a = [1, 2,]',
      'emit {"a": 1,}',
      'emit x.length',
      'if x == 1 then',
    ];
    for (const mistake of mistakes) {
      const alone = syntaxErrors(command('emit 1', 'emit 0', mistake, 'emit 2'));
      const after = syntaxErrors(command('sett a = 1', 'emit 0', mistake, 'emit 2'));
      expect([mistake, after.slice(1)]).toEqual([mistake, alone]);
    }
  });

  it('gives a later line the hint of the block it stands in, as when it is the only mistake, while the blocks are known', () => {
    const block = (mistake: string): string => `command\n  if x\n    emit 1\n    ${mistake}\n    emit 2\n  endif\nendcommand\n`;
    for (const mistake of ['end', 'end if', 'end  # the if', 'foo bar', '= 2', '5']) {
      const alone = syntaxErrors(block(mistake));
      const after = syntaxErrors(block(mistake).replace('command\n', 'command\n  set a = = 1\n'));
      // One line down: the mistake's line after the first error's.
      expect([mistake, after.slice(1)]).toEqual([mistake, alone.map((error) => error.replace(/^4:/, '5:'))]);
    }
    expect(syntaxErrors(command('set a = = 1', 'if x', '  emit 1', '  end', 'endif'))[1]).toBe("5:5 'end' is not a NeuroScript statement: close the 'if' block with 'endif'.");
    expect(syntaxErrors(command('set a = = 1', 'if x', '  emit 1', '  foo bar', 'endif'))[1]).toMatch(/but found 'foo'\. Or close the block with 'endif'\.$/);
    // In a block with no statement yet the grammar offers no closer, alone or after a mistake.
    expect(syntaxErrors(command('set a = = 1', 'while x', '  foo bar', 'endwhile'))[1]).toMatch(/but found 'foo'\.$/);
    // Not once the blocks are unknown (a mistake at a line's start may be a lost opener).
    expect(syntaxErrors(command('sett a = 1', 'if x', '  emit 1', '  end', 'endif'))[1]).toBe("5:5 'end' is not a NeuroScript statement: blocks close with their own keyword: endif, endwhile, endfor, endon, endfunc, endcommand.");
  });

  it("tells each 'end' of a script the closer of its own block, reading each as the closer its message asks for", () => {
    const lua = ['command', '  set n = 0', '  while n < 3', '    set n = n + 1', '    if n == 2', '      emit "two"', '    else', '      emit n', '    end', '  end', '  for each x in [1, 2]', '    emit x', '  end while', '  end', 'endcommand', ''].join('\n');
    expect(syntaxErrors(lua)).toEqual([
      "9:5 'end' is not a NeuroScript statement: close the 'if' block with 'endif'.",
      "10:3 'end' is not a NeuroScript statement: close the 'while' block with 'endwhile'.",
      "13:3 'end' is not a NeuroScript statement: close the 'for each' block with 'endfor'.",
      // `end while` where a `for each` is innermost: what it closes is not known, and the count stops.
      "14:3 'end' is not a NeuroScript statement: blocks close with their own keyword: endif, endwhile, endfor, endon, endfunc, endcommand.",
    ]);
    // The line after an `end` is never its rest (no statement starts with `end`): `print(x)` is said too.
    expect(syntaxErrors(command('if x', '  emit 1', 'end', 'print(x)')).map(lineOf)).toEqual([4, 5]);
    expect(syntaxErrors(command('set a = = 1', 'if x', '  emit 1', 'end', 'print(x)')).map(lineOf)).toEqual([2, 5, 6]);
    // An `end` right after a wrong line that wants nothing more is a closer of its own, not that line's rest.
    expect(syntaxErrors(command('if x', '  emit 1 2', 'end'))).toEqual([
      expect.stringMatching(/^3:12 Unexpected '2' after a complete expression/),
      "4:3 'end' is not a NeuroScript statement: close the 'if' block with 'endif'.",
    ]);
    // But an `end` taken for the rest of a wrong line before it may be a name there (`set x = a + end`), which a
    // line starting with a bracket may go on (`end (1)`, a call).
    expect(syntaxErrors(command('set a = = 1', 'if x', '  set x = a +', '  end', '  (1)', 'endif')).map(lineOf)).toEqual([2, 4]);
  });

  it("says no block problem after an 'end' read as a closer, which its writer may have meant otherwise", () => {
    // Read as the `if`'s closer, the `end` leaves the real `endif` closing nothing it should: not said.
    expect(syntaxErrors(command('if x', '  emit 1', '  end', '  emit 2', 'endif'))).toEqual(["4:5 'end' is not a NeuroScript statement: close the 'if' block with 'endif'."]);
    expect(syntaxErrors(command('set a = = 1', 'if x', '  emit 1', '  end', '  emit 2', 'endif')).map(lineOf)).toEqual([2, 5]);
    // Hints go on after it: the `foo` line stands in the `command` block once the `end` closes the `if`.
    expect(syntaxErrors(command('if x', '  emit 1', 'end', 'foo bar'))[1]).toMatch(/^5:3 .*but found 'foo'\. Or close the block with 'endcommand'\.$/);
  });

  it('says a closer that closes no open block, or a block of another kind, after an earlier mistake', () => {
    expect(syntaxErrors(command('set x = 1 +', 'emit "a"', 'endif', 'emit "b"'))).toEqual([
      "2:14 The line ends where a value is expected after '+'. Finish the expression on this line, or end the line with \\ to continue it on the next.",
      "4:3 'endif' cannot close this block: the innermost open block is 'command' (opened at line 1), which closes with 'endcommand'.",
    ]);
    expect(syntaxErrors(command('set x = = 1', 'while x', '  emit 1', 'endif')).slice(1)).toEqual([
      "5:3 'endif' cannot close this block: the innermost open block is 'while' (opened at line 3), which closes with 'endwhile'.",
    ]);
    // Each as it is when it is the only mistake.
    expect(syntaxErrors(command('emit "a"', 'endif'))).toEqual(["3:3 'endif' cannot close this block: the innermost open block is 'command' (opened at line 1), which closes with 'endcommand'."]);
    expect(syntaxErrors(`${command('set x = = 1')}endwhile\n`).slice(1)).toEqual(["4:1 'endwhile' closes no block: none is open here. Delete it, or move it into the block whose 'while' it was meant to end."]);
  });

  it('says a func or command line inside a block that closes after it, as the only mistake is said', () => {
    const nested = ['emit 1', 'func helper() means', '  emit 2', 'endfunc', 'emit 3'];
    const alone = syntaxErrors(command(...nested));
    expect(alone).toEqual(["3:3 'func' cannot start inside an open block: close the 'command' block with 'endcommand' first."]);
    expect(syntaxErrors(command('set x = = 1', ...nested)).slice(1)).toEqual(["4:3 'func' cannot start inside an open block: close the 'command' block with 'endcommand' first."]);
    // The `command` is never closed: a block left open, not said.
    expect(syntaxErrors('command\n  set x = = 1\n  emit 1\ncommand\n  emit 2\nendcommand\n')).toHaveLength(1);
    // Right after an opener, the grammar says the block is empty instead.
    expect(syntaxErrors(command('set x = = 1', 'if x', 'func helper() means', '  emit 2', 'endfunc', 'endif'))).toHaveLength(1);
  });

  it('says nothing after a nested func or command line until its outer block closes, but inside its own block', () => {
    // Closed as its message asks ('close the command block first'), the command leaves the `while` outside every block.
    const nested = ['set x = = 1', 'emit 1', 'func f() means', '  return 1', 'endfunc'];
    expect(syntaxErrors(command(...nested, 'while x', 'endwhile'))).toHaveLength(1);
    expect(syntaxErrors(command(...nested, 'emit 2', 'endif'))).toHaveLength(1);
    // A wrong one too (its own mistake said), and then nothing after the outer block's closer either.
    const wrong = ['set x = = 1', 'emit 1', 'func f(a) means', '  return 1', 'endfunc'];
    expect(syntaxErrors(command(...wrong, 'emit 2', 'endif'))).toHaveLength(2);
    expect(syntaxErrors(`${command(...wrong)}endif\n`)).toHaveLength(2);
    expect(syntaxErrors('command\n  set x = 1\n  emit 1\nendcommand\n  func f() means\n    return 1\n  endfunc\n  while x\n  endwhile\nendcommand\n')[0]).toMatch(/^8:3 Statements must sit inside a block/);
    // Inside it, a line is said as it is once the declaration is moved out, or the outer block closed before it.
    expect(syntaxErrors(command('set x = = 1', 'emit 1', 'func f() means', '  while x', '  endwhile', 'endfunc')).slice(1)).toEqual([
      "6:5 This block is empty: every block needs at least one statement before 'endwhile' (a comment alone does not count).",
    ]);
  });

  it('says nothing of the lines after a func or command line in a block with no statement yet', () => {
    // Helpers defined at the top of a command: the first is where the grammar wants a statement, a mistake not said
    // here; moved out, the second is then the first line of the command, and is no nested declaration either.
    const helpers = ['func total(needs items returns sum) means', '  set sum = 0', 'endfunc', 'func label(needs n returns s) means', '  set s = "n: " + n', 'endfunc', 'emit total([1, 2])'];
    const library = 'func greet(needs name) means\n  set line = = "hi " + name\n  emit line\nendfunc\n\n';
    expect(syntaxErrors(library + command(...helpers))).toHaveLength(1);
    // Nor of a closer after one: moved out, the 'if' holds nothing before its 'endwhile'.
    expect(syntaxErrors(command('set x = = 1', 'if x', 'func helper() means', '  emit 2', 'endfunc', 'endwhile'))).toHaveLength(1);
  });

  it('says nothing of closers when a mistake may be a lost opener or closer, or a block lacks its closer', () => {
    // A misspelt opener: its `endif` closes it.
    expect(syntaxErrors(command('set x = = 1', 'iff x > 1', '  emit 1', 'endif')).map(lineOf)).toEqual([2, 3]);
    // An opener with a mistake after its keyword still opens its block.
    expect(syntaxErrors(command('set x = = 1', 'if x == 1 then', '  emit 1', 'endif')).map(lineOf)).toEqual([2, 3]);
    // The `if` lacks its `endif`: a block never closed is not a further error.
    expect(syntaxErrors(command('set x = = 1', 'if x', '  emit 1'))).toHaveLength(1);
    // A mistake at a line's start (its keyword lost) leaves the count unknown.
    expect(syntaxErrors(command('set x = = 1', '= x', '  emit 1', 'endif')).map(lineOf)).not.toContain(5);
    // A metadata line's apostrophe opens no string that hides the block after it (the `endif` closes that `if`).
    expect(syntaxErrors(command(":: description: counts the user's words", 'if true', '  set x = = 1', 'endif'))).toHaveLength(1);
    expect(syntaxErrors(`:: title: the user's report\nfunc f(needs a) means\n  set x = = 1\n  return a\nendfunc\n`)).toHaveLength(1);
    // `else if` mended as its message says (`else`, then a nested `if … endif`) opens an `if`: the second `endif` closes it.
    const elseIf = command('if x > 1', '  emit "a"', 'else if x < 0', '  emit "b"', 'endif', 'endif');
    expect(syntaxErrors(elseIf)).toEqual(["4:8 There is no 'else if': write 'else', then on the next line a nested 'if … endif', and close the outer 'if' with its own 'endif'."]);
    expect(syntaxErrors(elseIf.replace('else if x < 0', 'else\n  if x < 0'))).toEqual([]);
    expect(syntaxErrors(command('set x = = 1', 'if x > 1', '  emit "a"', 'else: if x < 0', '  emit "b"', 'endif', 'endif'))).toHaveLength(2);
    // A `\` not at the end of its line joins the next line to it, which may be a line of its own: its `for` may open a block.
    expect(syntaxErrors(command('set x = = 1', 'emit\\ m', 'for each v in m', '  emit v', 'endfor')).map(lineOf)).toEqual([2, 3]);
    expect(syntaxErrors(command('set x = = 1', 'set p = C:\\data', 'for each v in m', '  emit v', 'endfor')).map(lineOf)).toEqual([2, 3]);
    // The first error's line too: the `endwhile` its `\ ` takes in may be its rest, or the stray closer (not the `endcommand`).
    expect(syntaxErrors(command('emit x \\ ', 'endwhile'))).toHaveLength(1);
    // A closer before any statement of its block, whatever it closes: "This block is empty", as the only mistake.
    const empty = (closer: string) => `This block is empty: every block needs at least one statement before '${closer}' (a comment alone does not count).`;
    expect(syntaxErrors(command('set x = = 1', 'while x', 'endfor', '  emit 1', 'endwhile')).slice(1)).toEqual([`4:3 ${empty('endfor')}`]);
    expect(syntaxErrors(command('while x', 'endfor', '  emit 1', 'endwhile'))).toEqual([`3:3 ${empty('endfor')}`]);
    expect(syntaxErrors(`func f() means:\n  endon\n  return 1\nendfunc\n`).slice(1)).toEqual([`2:3 ${empty('endon')}`]);
    expect(syntaxErrors(`func f() means\n  endon\n  return 1\nendfunc\n`)).toEqual([`2:3 ${empty('endon')}`]);
    expect(syntaxErrors(command('set x = = 1', 'if x', '  emit 1', 'else', 'endwhile')).slice(1)).toEqual([`6:3 ${empty('endwhile')}`]);
    expect(syntaxErrors(command('if x', '  emit 1', 'else', 'endwhile'))).toEqual([`5:3 ${empty('endwhile')}`]);
    expect(syntaxErrors(command('set x = = 1', 'if x', '  # a comment only', 'endif')).slice(1)).toEqual([`5:3 ${empty('endif')}`]);
    // A keyword alone on a wrong line may be a closer that lost its `end`: what it opens is not known.
    expect(syntaxErrors(command('set x = = 1', 'if x', '  emit 1', 'if', 'endif'))).toHaveLength(2);
    // A metadata line inside a block is a mistake the line alone does not show: the count stops there.
    expect(syntaxErrors(command('set x = = 1', 'while true', '  :: note: set i = i + 1', 'endwhile'))).toHaveLength(1);
    expect(syntaxErrors(`command\n  :: purpose: demo\n  set x = = 1\n  emit 1\nendif\nendcommand\n`).slice(1)).toEqual(["5:1 'endif' cannot close this block: the innermost open block is 'command' (opened at line 1), which closes with 'endcommand'."]);
    // Unless a block further out takes it: the inner block is left open (a `for` then `endcommand`), not said.
    expect(syntaxErrors(command('set x = = 1', 'for each v in m', 'emit 1', 'endfor', 'for'))).toHaveLength(2);
    // An opener with a statement on its line may hold its whole block (its `endif` goes after `emit "big"` once mended).
    expect(syntaxErrors(command('set x = = 1', 'if x > 1: emit "big"', 'emit "ok"', 'endwhile')).map(lineOf)).toEqual([2, 3]);
    expect(syntaxErrors(command('if x > 1 then return 1', 'emit "ok"', 'endwhile'))).toHaveLength(1);
    // One with nothing of the kind after its mistake still opens its block.
    expect(syntaxErrors(command('set x = = 1', 'for i in xs:', '  emit i', 'endfor', 'endwhile')).slice(2)).toEqual(["6:3 'endwhile' cannot close this block: the innermost open block is 'command' (opened at line 1), which closes with 'endcommand'."]);
    // A keyword used as a name opens nothing the writer meant: the `endif` may close the `while`'s place.
    expect(syntaxErrors(command('set x = = 1', 'while x', '  command = "ls"', '  emit 1', 'endif')).map(lineOf)).toEqual([2, 4]);
    expect(syntaxErrors(command('for = 1', 'emit 1', 'endif')).map(lineOf)).toEqual([2]);
    // Nor updated, nor read as a value: the 'if' is the innermost block at the 'endwhile', not a 'command'.
    for (const use of ['command += " -l"', 'command .= " -l"', 'command.append(" -l")', 'command["args"] = " -l"', 'command(" -l")']) {
      const errors = syntaxErrors(command('set x = = 1', 'set command = "ls"', 'if verbose', '  emit 0', `  ${use}`, '  emit 1', 'endwhile'));
      expect([use, errors.filter((error) => error.includes("'endwhile'"))]).toEqual([use, []]);
    }
    // After a first error at a closer, the block problem is said once.
    expect(syntaxErrors(`${command('emit 1', 'endif', 'emit 2')}endcommand\n`)).toHaveLength(1);
  });

  it("says nothing after an 'else' that is not the first of its innermost 'if'", () => {
    // In a `while`, at a command's top, or a second one: the grammar refuses it there (said once the first mistake is
    // mended), and its mend may change the blocks (the `while` meant as an `if`, or the `else` deleted).
    for (const lines of [
      ['while x', '  emit 1', 'else', 'endwhile'],
      ['while x', '  emit 1', 'else', '  emit 2', 'endif'],
      ['emit 1', 'else', 'endcommand'],
      ['if x', '  emit 1', 'else', '  emit 2', 'else', 'endif'],
    ]) {
      expect([lines, syntaxErrors(command('set x = = 1', ...lines)).slice(1)]).toEqual([lines, []]);
      expect(syntaxErrors(command(...lines))[0]).toMatch(/'else' is only valid inside an 'if … endif' block/);
    }
    // An `if`'s `else` before the first mistake counts too.
    expect(syntaxErrors(command('if x', '  emit 1', 'else', '  set x = = 1', 'else', 'endif'))).toHaveLength(1);
    // The first `else` of an `if` is a line like any other: the closer after it is said.
    expect(syntaxErrors(command('set x = = 1', 'if x', '  emit 1', 'else', 'endwhile')).slice(1)).toEqual(["6:3 This block is empty: every block needs at least one statement before 'endwhile' (a comment alone does not count)."]);
  });

  it("says an 'else' right after its 'if' as the grammar says it: the first branch is empty", () => {
    const empty = "This block is empty: every block needs at least one statement before 'else' (a comment alone does not count).";
    expect(syntaxErrors(command('if x', '  # nothing yet', 'else', '  emit 1', 'endif'))).toEqual([`4:3 ${empty}`]);
    expect(syntaxErrors(command('set x = = 1', 'if x', '  # nothing yet', 'else', '  emit 1', 'endif')).slice(1)).toEqual([`5:3 ${empty}`]);
    expect(syntaxErrors(command('if x == 1 then', 'else', '  emit 1', 'endif')).slice(1)).toEqual([`3:3 ${empty}`]);
    // A second `else` (its first right after the `if`, or not) is no empty branch: the grammar says where an `else` goes.
    expect(syntaxErrors(command('if x', '  emit 1', 'else', 'else', '  emit 1', 'endif'))[0]).toMatch(/^5:3 'else' is only valid inside an 'if … endif' block/);
    expect(syntaxErrors(command('while x', 'else', '  emit 1', 'endwhile'))[0]).toMatch(/^3:3 'else' is only valid inside an 'if … endif' block/);
  });

  it('says nothing after a wrong line that may be several lines run together', () => {
    // Split as its message asks, `emit 1 endcommand` closes the command: the `endif` then closes no block, not the command.
    expect(syntaxErrors('command\n  emit 1 endcommand\nendif\n')).toHaveLength(1);
    expect(syntaxErrors('command\n  emit 1\nendcommand\nendif\n')).toEqual(["4:1 'endif' closes no block: none is open here. Delete it, or move it into the block whose 'if' it was meant to end."]);
    expect(syntaxErrors(command('set x = = 1', 'if x', '  emit 1 endif', 'emit 2', 'endwhile')).map(lineOf)).toEqual([2, 4]);
    // An `else` holding its statement is no empty branch: split, the `endif` on its line closes the `if`.
    expect(syntaxErrors(command('set x = = 1', 'if x', '  emit 1', 'else emit 2 endif', 'endif')).map(lineOf)).toEqual([2, 5]);
    expect(syntaxErrors(command('set x = = 1', 'if x', '  emit 1', 'else: emit 2', 'endif')).map(lineOf)).toEqual([2, 5]);
    expect(syntaxErrors(command('if x', '  emit 1', 'else: emit 2', 'endif'))).toHaveLength(1);
    // Nor one an opener's `\` joined to it: split, the block holds it.
    expect(syntaxErrors(command('set x = = 1', 'if x > 1 \\', '  x = 1', 'endif'))).toHaveLength(2);
    expect(syntaxErrors('command \\\n  seet x = 1\nendcommand\n')).toHaveLength(1);
    // A mistake with no such word after it keeps its line's role.
    expect(syntaxErrors(command('set x = = 1', 'if x', '  emit 1 2', 'endwhile')).map(lineOf)).toEqual([2, 4, 5]);
    // Nor one with an `end` after its mistake: put on a line of its own, as its message asks, the `end` closes the
    // `if` (its own message says so), and the `foo` line stands in the `command` block, not the `if`.
    const foo = "Statements must start with a keyword (set, call, emit, whisper, must, fail, if, while, for each, return, ask, promptuser, break, continue, on error, clear_error), but found 'foo'.";
    expect(syntaxErrors(command('set x = = 1', 'if x', '  emit 1 end', 'foo bar'))[2]).toBe(`5:3 ${foo}`);
    expect(syntaxErrors(command('if x', '  emit 1 \\', 'end', 'foo bar'))[1]).toBe(`5:3 ${foo}`);
    expect(syntaxErrors(command('if x', '  emit 1', 'end', 'foo bar'))[1]).toBe(`5:3 ${foo} Or close the block with 'endcommand'.`);
  });

  it('reads the word after a continuation a line starts with, or nothing after it', () => {
    // `\` then `if x`: the grammar reads the `\` as space, so the `if` opens a block and the `endif` closes it.
    expect(syntaxErrors(command('\\', 'if x', '  emit 1', '  set x = = 1', 'endif', 'emit 2'))).toHaveLength(1);
    expect(syntaxErrors('func means\n  return\nendfunc\n\\\nfunc g() means\n  # nothing yet\nendfunc\n')).toHaveLength(1);
    expect(syntaxErrors('func g() means\n  return\nendfunc\n\\\nfunc g() means\n  # nothing yet\nendfunc\n')[0]).toMatch(/^7:1 This block is empty/);
  });

  it('says nothing after a statement outside every block, whose command line may be lost', () => {
    // Not "'endcommand' closes no block … Delete it": once the first mistake is mended, the grammar says the `emit`
    // must sit inside a block, and the mend it asks for (the lost `command` line) makes that `endcommand` right.
    const lost = 'func f() means\n  set x = = 1\n  return 1\nendfunc\n  emit 1\n  emit 2\nendcommand\n';
    expect(syntaxErrors(lost)).toHaveLength(1);
    expect(syntaxErrors(lost.replace('= = 1', '= 1'))).toEqual(["5:3 Statements must sit inside a block: put them between 'command' and 'endcommand' (or inside 'func name() means … endfunc')."]);
    expect(syntaxErrors(`${command('set x = = 1')}if x\n  emit 1\nendif\nendwhile\n`)).toHaveLength(1);
    expect(syntaxErrors(`${command('set x = = 1')}on error do\n  emit 1\nendon\nendwhile\n`)).toHaveLength(1);
    // The first mistake's line too: `on error do` at the top goes wrong after `on`, and may have lost its `command` line.
    expect(syntaxErrors('on error do\n  emit 1\nendon\nendcommand\n')).toEqual(["1:4 Expected 'event' but found 'error'."]);
    // A declaration there is a line like any other.
    expect(syntaxErrors(`${command('set x = = 1')}on event "e" do\n  emit 1\nendon\nendwhile\n`).slice(1)).toEqual(["7:1 'endwhile' closes no block: none is open here. Delete it, or move it into the block whose 'while' it was meant to end."]);
  });

  it("reads a line of 'end' and a long run of space in time linear in its length", () => {
    // Such a line is told apart by a pattern; with two runs of space side by side in it, 60,000 spaces took 5-12 s,
    // so these 200,000 would outlast the test's timeout many times over. No timing is asserted: the timeout guards.
    const long = `end${' '.repeat(200_000)}!`;
    expect(syntaxErrors(command('emit 1', long)).map(lineOf)).toEqual([3]);
    expect(syntaxErrors(command('set a = = 1', 'emit 1', long)).map(lineOf)).toEqual([2, 4]);
  });

  it('names a bracket opened on an earlier line of a multi-line line by its line in the script', () => {
    const errors = syntaxErrors(command('sett a = 1', 'emit 1', 'set x = [1,', '  2', '  3]'));
    expect(errors.slice(1)).toEqual(["6:5 Expected ',' or the closing ']' of the '[' opened at line 4, column 11, but found '3'."]);
  });

  it('never reports a line of a multi-line literal, or a line inside a string, on its own', () => {
    const literal = command('sett a = 1', 'set m = {', '  "name": "Ada",', '  "tags": [', '    "x"', '  ]', '}', 'set s = ```', 'Dear user:', '  x = 1', '```', 'emit m');
    expect(syntaxErrors(literal).map(lineOf)).toEqual([2]);
    // A mistake inside a multi-line literal is reported once, where the line goes wrong.
    expect(syntaxErrors(command('sett a = 1', 'set m = {', '  "a": 1', '  "b": 2', '}')).map(lineOf)).toEqual([2, 5]);
  });

  it('adds nothing to a block that is never closed', () => {
    const errors = syntaxErrors('command\n  for each x in xs\n    emit x\n  if x\n    emit 1\n');
    expect(errors).toEqual([
      "6:1 The script ends before 'endif': the 'if' block opened at line 4, the 'for each' block opened at line 2 and the 'command' block opened at line 1 are never closed. Add 'endif', then 'endfor', then 'endcommand', each on its own line.",
    ]);
  });

  it('adds nothing when a mistake makes the lines after it look wrong', () => {
    const cases = [
      // A string meant to span lines, with its text on the next ones.
      command('emit "Dear user,', 'thanks for writing', 'x = 1"'),
      command('sett a = 1', 'emit "Dear user,', 'thanks for writing"'),
      command('sett a = 1', 'emit """Dear user,', 'thanks for writing"""'),
      command('sett a = 1', 'emit `Dear user,', 'thanks for writing`'),
      // A string whose opening quote is missing.
      command('sett a = 1', 'emit Dear user,', 'thanks for writing"'),
      // A map whose '{' is missing: its entries, then a '}' nothing opened.
      command('sett a = 1', 'set m =', '  "a": 1,', '  "b": 2', '}'),
      // A bracket never closed: everything after it may be its inside.
      command('sett a = 1', 'set x = f(1,', 'y = 2'),
      // A statement meant to go on without its '\\'.
      command('set total = a +', '  b', 'emit total'),
      // A markdown fence around the whole script.
      `\`\`\`neuroscript\n${command('x = 1', 'y = 2')}\`\`\`\n`,
    ];
    for (const source of cases) {
      const result = parse(source);
      expect([source, result.ok ? 0 : result.diagnostics.length]).toEqual([source, 1]);
    }
    // Wrong lines whose rest, on the lines after them, is not reported: a call whose brackets are both lost, and
    // a line that lost its ` + \` as well as having a mistake of its own.
    expect(syntaxErrors(command('sett a = 1', 'call tool.str.Replace', '  "hello world",', '  "world",', '  "there"', 'emit a')).map(lineOf)).toEqual([2, 3]);
    expect(syntaxErrors(command('sett a = 1', 'set x = = 1', '  2 + \\', '  3', 'emit x')).map(lineOf)).toEqual([2, 3]);
  });

  it('reports a line after a wrong one that cannot be its rest, and a line that goes on from a right one', () => {
    expect(syntaxErrors(command('set total = a +', '  b', 'y = 2')).map(lineOf)).toEqual([2, 4]);
    // 'set total = a' is right as it stands: '+ b' is where the script goes wrong, as it is when it is the only mistake.
    expect(syntaxErrors(command('sett a = 1', 'set total = a', '  + b')).map(lineOf)).toEqual([2, 4]);
    // Right after a wrong line, a line that reads as part of an expression may be its rest (a lost `\` or bracket).
    expect(syntaxErrors(command('sett a = 1', 'print(a)', 'emit 0', 'print(a)')).map(lineOf)).toEqual([2, 5]);
    // 'if a and' is wrong by itself; 'b or c', meant as its rest, is not reported.
    expect(syntaxErrors(command('sett a = 1', 'if a and', '  b or c', '  emit 1', 'endif')).map(lineOf)).toEqual([2, 3]);
    expect(syntaxErrors(command('sett a = 1', 'y = 2')).map(lineOf)).toEqual([2, 3]);
  });
});

// ---- properties ----

const benchPrograms = [0.5, 2, 8].map((kilobytes) => neuroScriptProgram(kilobytes * 1024));
// As `parse` sees them: CRLF line ends turned into LF, so offsets and lines agree.
const validCorpus = [...conformanceInputs(), ...benchPrograms].map((source) => preprocess(source).text).filter((source) => parse(source).ok);

/** Lines a model writes by mistake: each is wrong on its own, starts and ends as a line of its own does. */
const MISTAKES = [
  'x = 1',
  'sett y = 2',
  'print(x)',
  'Set z = 3',
  'emit 1 2',
  'emit m.a',
  'emitt x',
  'counts[w] += 1',
  'else if y',
  'emit f"n: {n}"',
  '<<<LOOP:DONE>>> done',
  'emit x;',
  'must x, "m"',
  'foreach x in xs',
  'elif x',
  'emit a && b',
  'let y = 2',
  'end',
  'endiff',
  'emit "a" "b"',
];

/** The mistakes above that read as part of an expression (an `end` reads as a name, but after a line that wants nothing more it is a closer of its own). */
const EXPRESSION_MISTAKES: ReadonlySet<string> = new Set(['print(x)', 'endiff']);

/** The start offset of each physical line of `text`. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}

/** Whether `error` (as `syntaxErrors` gives it) is about a line's place in the blocks, from the block count (`misplaced-block-line.ts`). */
const isBlockReport = (error: string): boolean => / cannot close this block: | closes no block: | cannot start inside an open block: /.test(error);

/**
 * Whether an edit before the 0-based physical `line` changed which blocks are open there (by the same first-word
 * count): a closer there may then close no block, or the wrong one, and a `func` stand inside one, on a line no edit
 * touched.
 */
function blocksChangedBefore(original: string, edited: string, line: number): boolean {
  const open = (text: string) => openBlocks(text, lineStarts(text)[line] ?? text.length).map((block) => block.closer).join(' ');
  return open(original) !== open(edited);
}

/** The 0-based physical line of each one-line logical line of `text` (blank and comment lines included). */
function oneLineLines(text: string): number[] {
  const starts = lineStarts(text);
  const lines = logicalLines(text) ?? [];
  return lines.filter((line) => !text.slice(line.start, line.end).includes('\n')).map((line) => starts.indexOf(line.start));
}

describe('further syntax errors: properties', () => {
  it('a valid script: every logical line matches the grammar alone', () => {
    const check = (source: string): void => {
      const lines = logicalLines(source);
      if (lines === undefined) return;
      for (const line of lines) {
        const text = `${source.slice(line.start, line.end)}\n`;
        expect([text, grammar.match(text, 'Line').succeeded()]).toEqual([text, true]);
        expect([text, matchFast(text, 'Line', MAX_NESTING_DEPTH + 1) !== undefined]).toEqual([text, true]);
      }
    };
    expect(validCorpus.length).toBeGreaterThan(80);
    // Nearly every valid test program can be split (a multi-line `[[` cannot).
    expect(validCorpus.filter((source) => logicalLines(source) !== undefined).length).toBeGreaterThan(validCorpus.length * 0.9);
    for (const source of validCorpus) check(source);
    fc.assert(
      fc.property(program, (source) => {
        if (parse(source).ok) check(source);
      }),
      { numRuns: 300 * RUNS },
    );
  });

  it('a valid script with some lines replaced by mistakes: one error per mistake, at its line, up to five', () => {
    const scripts = fc.oneof(fc.constantFrom(...validCorpus.filter((source) => source.length < 4000 && logicalLines(source) !== undefined)), program.filter((source) => parse(source).ok && logicalLines(source) !== undefined));
    fc.assert(
      fc.property(scripts, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...MISTAKES)), { minLength: 1, maxLength: 7 }), (source, replacements) => {
        const candidates = oneLineLines(source);
        fc.pre(candidates.length > 0);
        const physical = source.split('\n');
        const replaced = new Map<number, string>();
        for (const [pick, mistake] of replacements) replaced.set(candidates[pick % candidates.length] as number, mistake);
        for (const [line, mistake] of replaced) physical[line] = `${/^\s*/.exec(physical[line] as string)?.[0] ?? ''}${mistake}`;
        const mistaken = physical.join('\n');
        // A mistake that reads as part of an expression, right after another mistake, may be that one's rest: not reported.
        const lines = logicalLines(mistaken) ?? [];
        const starts = lineStarts(mistaken);
        const previousLine = (line: number): number | undefined => {
          const before = lines.filter((logical) => logical.first !== -1 && logical.end < (starts[line] as number)).at(-1);
          return before === undefined ? undefined : starts.indexOf(before.start);
        };
        // But not the rest of an `end` said as a mistake of its own, which is complete as it stands (no statement starts
        // with `end`); one taken for the rest of the line before may be a name there.
        const said = new Set<number>();
        for (const [index, line] of [...replaced.keys()].sort((a, b) => a - b).entries()) {
          const previous = previousLine(line) ?? -1;
          if (index === 0 || !EXPRESSION_MISTAKES.has(replaced.get(line) as string) || !replaced.has(previous) || (replaced.get(previous) === 'end' && said.has(previous))) said.add(line);
        }
        const expected = [...said].slice(0, MAX_SYNTAX_ERRORS).map((line) => line + 1);
        // A closer left without its opener, because a mistake replaced the opener, is said too: allowed, not required.
        const errors = syntaxErrors(mistaken);
        const required = errors.filter((error) => !(isBlockReport(error) && !replaced.has(lineOf(error) - 1) && blocksChangedBefore(source, mistaken, lineOf(error) - 1))).map(lineOf);
        expect([mistaken, required]).toEqual([mistaken, errors.length < MAX_SYNTAX_ERRORS ? expected : expected.slice(0, required.length)]);
      }),
      { numRuns: 400 * RUNS },
    );
  });

  it('a stray closer after a mistake in a statement is said as the first error would say it', () => {
    const scripts = validCorpus.filter((source) => source.length < 4000 && logicalLines(source) !== undefined);
    const closers = ['endif', 'endwhile', 'endfor', 'endon', 'endfunc', 'endcommand'];
    const STATEMENT = /^\s*(set|emit|call|whisper|must|fail|return|ask|promptuser)\b/;
    let said = 0;
    fc.assert(
      fc.property(fc.constantFrom(...scripts), fc.nat(), fc.nat(), fc.constantFrom(...closers), (source, pickMistake, pickCloser, closer) => {
        const physical = source.split('\n');
        const statements = oneLineLines(source).filter((line) => STATEMENT.test(physical[line] as string));
        fc.pre(statements.length > 0);
        const mistakeLine = statements[pickMistake % statements.length] as number;
        // A mistake after the statement's keyword: the line is that statement, whatever else is wrong in it.
        physical[mistakeLine] = `${/^\s*/.exec(physical[mistakeLine] as string)?.[0] ?? ''}set x = = 1`;
        const mistaken = physical.join('\n');
        const starts = lineStarts(mistaken);
        // Where a line of its own can go after the mistake: before a logical line, where no block the closer closes is open.
        const places = (logicalLines(mistaken) ?? [])
          .map((line) => starts.indexOf(line.start))
          .filter((line) => line > mistakeLine && !openBlocks(mistaken, starts[line] as number).some((block) => block.closer === closer));
        fc.pre(places.length > 0);
        const at = places[pickCloser % places.length] as number;
        const withCloser = [...physical.slice(0, at), `  ${closer}`, ...physical.slice(at)].join('\n');
        const errors = syntaxErrors(withCloser);
        expect(errors[0]).toMatch(new RegExp(`^${mistakeLine + 1}:`));
        const stray = errors.find((error) => lineOf(error) === at + 1);
        // Unless the five errors are used up by lines before it.
        if (stray === undefined && errors.length === MAX_SYNTAX_ERRORS) return;
        // What the closer gets as the only mistake (before any statement of its block, that the block is empty).
        const original = source.split('\n');
        const alone = syntaxErrors([...original.slice(0, at), `  ${closer}`, ...original.slice(at)].join('\n'))[0];
        expect([withCloser, stray]).toEqual([withCloser, alone]);
        expect(stray).toMatch(new RegExp(`^${at + 1}:3 ('${closer}' (cannot close this block: the innermost open block is '[a-z .…]+' \\(opened at line \\d+\\), which closes with 'end[a-z]+'|closes no block: none is open here)\\.|This block is empty: every block needs at least one statement before '${closer}')`));
        said += 1;
      }),
      { numRuns: 300 * RUNS },
    );
    expect(said).toBeGreaterThan(100 * RUNS);
  });

  it('a func nested in a block after a mistake in a statement is said as it is when it is the only mistake, or not at all', () => {
    const scripts = validCorpus.filter((source) => source.length < 4000 && logicalLines(source) !== undefined);
    const STATEMENT = /^\s*(set|emit|call|whisper|must|fail|return|ask|promptuser)\b/;
    const FUNC = ['func nested_helper() means', '  emit 1', 'endfunc'];
    const insert = (lines: readonly string[], at: number, block: readonly string[]): string[] => [...lines.slice(0, at), ...block, ...lines.slice(at)];
    let said = 0;
    fc.assert(
      fc.property(fc.constantFrom(...scripts), fc.nat(), fc.nat(), fc.constantFrom('none', 'anywhere', 'first in its block'), fc.nat(), (source, pickMistake, pickPlace, earlierKind, pickEarlier) => {
        const physical = source.split('\n');
        const starts = lineStarts(source);
        const places = (logicalLines(source) ?? []).map((line) => starts.indexOf(line.start)).filter((line) => line > 0);
        fc.pre(places.length > 0);
        const place = places[pickPlace % places.length] as number;
        // Sometimes a second func before it, anywhere or right after the opener of its block: once mended (moved
        // out), it is not there.
        const before = places.filter((line) => line <= place);
        const opener = openBlocks(source, starts[place] as number).at(-1);
        const first = opener === undefined ? undefined : before.find((line) => line >= opener.line);
        const earlier = earlierKind === 'none' || before.length === 0 ? undefined : earlierKind === 'anywhere' ? (before[pickEarlier % before.length] as number) : first;
        const at = earlier === undefined ? place : place + FUNC.length;
        const withFunc = earlier === undefined ? insert(physical, place, FUNC) : insert(insert(physical, place, FUNC), earlier, FUNC);
        const inEarlier = (index: number): boolean => earlier !== undefined && index >= earlier && index < earlier + FUNC.length;
        const oneLine = oneLineLines(withFunc.join('\n'));
        const statements = withFunc.map((line, index) => (index < at && !inEarlier(index) && STATEMENT.test(line) && oneLine.includes(index) ? index : -1)).filter((index) => index >= 0);
        fc.pre(statements.length > 0);
        const mistakeLine = statements[pickMistake % statements.length] as number;
        const mistaken = [...withFunc];
        mistaken[mistakeLine] = `${/^\s*/.exec(mistaken[mistakeLine] as string)?.[0] ?? ''}set x = = 1`;
        const errors = syntaxErrors(mistaken.join('\n'));
        // Each func line said is said as the grammar says it once every mistake before it is mended: the statement's,
        // and for the later func the earlier one's (moved out, its lines left blank).
        for (const [line, mended] of [
          [earlier, withFunc],
          [at, withFunc.map((text, index) => (inEarlier(index) ? '' : text))],
        ] as const) {
          const nested = line === undefined ? undefined : errors.slice(1).find((error) => lineOf(error) === line + 1);
          if (nested === undefined) continue;
          expect([mistaken.join('\n'), nested]).toEqual([mistaken.join('\n'), syntaxErrors(mended.join('\n'))[0]]);
          said += 1;
        }
      }),
      { numRuns: 400 * RUNS },
    );
    expect(said).toBeGreaterThan(20 * RUNS);
  });

  it('random typos: each further error is on an edited line, or after a right edited line it may hang on, and a block report is what the mended script says', () => {
    // Edits inside lines (no newline added or removed), so line numbers stay put.
    const insertions = [' ', '(', ')', '[', ']', '{', '}', '"', "'", ',', ':', '.', '=', '+', '-', '*', '#', '\\', '`', 'a', '1', 'e', 'set ', 'endif', 'if ', 'else', '{{', '}}', '```', '[[', ']]', '::', 'not ', 'tool.', '**', '\u201C', 'é'];
    const edit = fc.oneof(
      fc.tuple(fc.constant('insert' as const), fc.nat(), fc.constantFrom(...insertions)),
      fc.tuple(fc.constant('delete' as const), fc.nat(), fc.integer({ min: 1, max: 4 })),
      fc.tuple(fc.constant('duplicate' as const), fc.nat(), fc.integer({ min: 1, max: 12 })),
      // A line lost: made a comment, its indentation kept (a block's only statement, an opener, a closer).
      fc.tuple(fc.constant('wipe' as const), fc.nat(), fc.constant(0)),
    );
    const apply = (source: string, edits: readonly (readonly [string, number, number | string])[]): string => {
      const lines = source.split('\n');
      for (const [kind, at, what] of edits) {
        const index = at % lines.length;
        const line = lines[index] as string;
        const column = Math.floor(at / lines.length) % (line.length + 1);
        if (kind === 'insert') lines[index] = line.slice(0, column) + (what as string) + line.slice(column);
        else if (kind === 'delete') lines[index] = line.slice(0, column) + line.slice(column + (what as number));
        else if (kind === 'duplicate') lines[index] = line.slice(0, column) + line.slice(column, column + (what as number)) + line.slice(column);
        else lines[index] = `${/^\s*/.exec(line)?.[0] ?? ''}# lost`;
      }
      return lines.join('\n');
    };
    let further = 0;
    let exact = 0;
    fc.assert(
      fc.property(fc.constantFrom(...validCorpus.filter((source) => source.length < 3000)), fc.array(edit, { minLength: 2, maxLength: 6 }), (source, edits) => {
        const edited = apply(source, edits);
        const result = parse(edited);
        if (result.ok) return;
        const errors = result.diagnostics.filter((diagnostic) => diagnostic.code === 'SCRIPT_SYNTAX');
        if (errors.length < 2) return;
        const lines = logicalLines(edited) ?? [];
        const starts = lineStarts(edited);
        const original = source.split('\n');
        const changed = edited.split('\n');
        /** The 0-based physical lines a logical line spans. */
        const span = (line: LogicalLine): [number, number] => {
          const first = starts.indexOf(line.start);
          return [first, first + edited.slice(line.start, line.end).split('\n').length - 1];
        };
        const holding = (error: { line: number; column: number }): LogicalLine => {
          const offset = (starts[error.line - 1] as number) + error.column - 1;
          const own = lines.find((line) => line.start <= offset && offset <= line.end);
          if (own === undefined) throw new Error(`no logical line holds ${error.line}:${error.column}`);
          return own;
        };
        const touched = ([first, last]: [number, number]): boolean => changed.some((line, at) => at >= first && at <= last && line !== original[at]);
        const firstErrorLine = holding(errors[0] as { line: number; column: number });
        const oneLineBoth = new Set(oneLineLines(edited).filter((line) => oneLineLines(source).includes(line)));
        const rightAlone = (at: number): boolean => matchFast(`${changed[at]}\n`, 'Line', MAX_NESTING_DEPTH + 1) !== undefined;
        const firstWord = (text: string): string | undefined => /^\s*([A-Za-z_]\w*)/.exec(text)?.[1];
        /**
         * What a block report at 0-based `line` must be, when every edit up to it is to a line of its own: the first
         * error of the script with each edited line before it that is wrong alone put back (mended), the right ones
         * kept (a `#` before an `if`, a line made `else`). Undefined when an edit joins or splits lines there, or
         * gives a wrong line another first word (`if false` made `set i f false`), whose role the count takes from it.
         */
        const mendedFirst = (line: number): string | undefined => {
          const unsure = (text: string, at: number): boolean => !oneLineBoth.has(at) || (!rightAlone(at) && firstWord(text) !== firstWord(original[at] as string));
          if (changed.some((text, at) => at <= line && text !== original[at] && unsure(text, at))) return undefined;
          const mended = changed.map((text, at) => (at < line && text !== original[at] && !rightAlone(at) ? (original[at] as string) : text)).join('\n');
          const first = syntaxErrors(mended)[0] ?? '';
          // A nested declaration before it, whose own block holds the report: said there whichever way it is mended.
          const nested = / cannot start inside an open block: /.test(first) ? lineOf(first) : undefined;
          return nested !== undefined && nested - 1 < line && openBlocks(mended, lineStarts(mended)[line] as number).some((block) => block.line === nested) ? 'nested' : first;
        };
        for (const error of errors.slice(1)) {
          further += 1;
          const own = holding(error);
          // The line with something on it before this error's line, and whether it is wrong on its own.
          const previous = lines.filter((line) => line.first !== -1 && line.end < own.start).at(-1) as LogicalLine;
          const previousWrong = previous === firstErrorLine || matchFast(`${edited.slice(previous.start, previous.end)}\n`, 'Line', MAX_NESTING_DEPTH + 1) === undefined;
          // A mistake on its own line, or on a right line before it that it may hang on (a lost `\` or bracket).
          // Or a closer whose blocks an edit before it changed (a `#` before an `if`), or one that finds its block empty
          // after an edit inside that block (its one statement made a metadata line).
          const said = `${error.line}:${error.column} ${error.message}`;
          // A block report: exactly the first error once every mistake before it is mended.
          const mended = isBlockReport(said) || said.includes('This block is empty') ? mendedFirst(error.line - 1) : undefined;
          if (mended !== undefined) {
            exact += 1;
            if (mended !== 'nested') expect([edited, said]).toEqual([edited, mended]);
            continue;
          }
          const innermost = openBlocks(edited, starts[error.line - 1] as number).at(-1);
          const blockEdited = innermost !== undefined && touched([innermost.line - 1, error.line - 2]);
          const caused = touched(span(own)) || (!previousWrong && touched(span(previous))) || (isBlockReport(said) && blocksChangedBefore(source, edited, error.line - 1)) || (said.includes('This block is empty') && blockEdited);
          expect([edited, error.line, caused]).toEqual([edited, error.line, true]);
        }
      }),
      { numRuns: 1500 * RUNS },
    );
    // The edits do make scripts with more than one error, and block reports checked exactly (a few in a short run).
    expect(further).toBeGreaterThan(20);
    if (RUNS >= 10) expect(exact).toBeGreaterThan(2 * RUNS);
  });

  it("closers written as other languages' 'end': each hint is the first error of the script mended up to it, and no block report follows an 'end'", () => {
    const CLOSER_LINE = /^(\s*)(endif|endwhile|endfor|endon|endfunc|endcommand)$/;
    const STATEMENT = /^(\s*)(set|emit|call|whisper|must|fail|return|ask|promptuser)\b/;
    const OPENER = { endif: 'if', endwhile: 'while', endfor: 'for', endon: 'on', endfunc: 'func', endcommand: 'command' } as Record<string, string>;
    const HINTED = /Or close the block with '|^\d+:\d+ 'end' is not a NeuroScript statement: close the '/;
    const NAMED = /close the '[^']+' block with '(\w+)'|Or close the block with '(\w+)'/;
    // Scripts with blocks inside blocks, where each `end` has its own closer to be told.
    const scripts = validCorpus.filter((source) => source.length < 4000 && logicalLines(source) !== undefined && source.split('\n').filter((line) => CLOSER_LINE.test(line)).length >= 2);
    let hinted = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...scripts),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('end', 'end', 'own', 'other', 'end;', 'end # the block', 'End', 'join')), { minLength: 1, maxLength: 6 }),
        fc.option(fc.tuple(fc.nat(), fc.constantFrom('set a = = 1', 'set a = = 1', 'emit 1 2', 'x = 1', 'foo bar')), { freq: 5 }),
        (source, ends, statementMistake) => {
          const original = source.split('\n');
          const one = oneLineLines(source);
          const closers = one.filter((line) => CLOSER_LINE.test(original[line] as string));
          fc.pre(closers.length > 0);
          const physical = [...original];
          /** The edited lines: an `end` (mended by the closer its message names) or another mistake (mended by putting the line back). */
          const edited = new Map<number, 'end' | 'other'>();
          for (const [pick, kind] of ends) {
            const at = closers[pick % closers.length] as number;
            const [, indent, closer] = CLOSER_LINE.exec(original[at] as string) as RegExpExecArray;
            const word = OPENER[closer as string] as string;
            // `emit 1 end`: the closer run into the statement before it, its line left blank.
            if (kind === 'join' && at > 0 && one.includes(at - 1) && STATEMENT.test(original[at - 1] as string) && !/#|--|\/\/|\\/.test(original[at - 1] as string) && !edited.has(at - 1)) {
              physical[at - 1] = `${original[at - 1]} end`;
              physical[at] = '';
              edited.set(at - 1, 'other').set(at, 'other');
              continue;
            }
            const text = { own: `end ${word}`, other: `end ${word === 'if' ? 'while' : 'if'}`, join: 'end' }[kind as string] ?? kind;
            physical[at] = `${indent}${text}`;
            edited.set(at, 'end');
          }
          if (statementMistake !== null) {
            const statements = one.filter((line) => STATEMENT.test(original[line] as string) && !edited.has(line));
            if (statements.length > 0) {
              const at = statements[statementMistake[0] % statements.length] as number;
              physical[at] = `${/^\s*/.exec(original[at] as string)?.[0] ?? ''}${statementMistake[1]}`;
              edited.set(at, 'other');
            }
          }
          const mistaken = physical.join('\n');
          const errors = syntaxErrors(mistaken);
          const said = new Map(errors.map((error) => [lineOf(error) - 1, error]));
          for (const error of errors.slice(1)) {
            const line = lineOf(error) - 1;
            // No block problem after an `end` read as the closer its message names, which its writer may have meant otherwise.
            if (isBlockReport(error) || error.includes('This block is empty')) expect([mistaken, error, [...edited].some(([at, kind]) => kind === 'end' && at < line)]).toEqual([mistaken, error, false]);
            if (!HINTED.test(error)) continue;
            // Every mistake before it mended as its message asks: an `end` by the closer it names, any other put back.
            const mended = physical.map((text, at) => {
              if (at >= line || !edited.has(at)) return text;
              const named = edited.get(at) === 'end' ? NAMED.exec(said.get(at) ?? '') : null;
              return named === null ? (original[at] as string) : `${/^\s*/.exec(text)?.[0] ?? ''}${named[1] ?? named[2]}`;
            });
            expect([mistaken, error]).toEqual([mistaken, syntaxErrors(mended.join('\n'))[0]]);
            hinted += 1;
          }
        },
      ),
      { numRuns: 300 * RUNS },
    );
    expect(hinted).toBeGreaterThan(60 * RUNS);
  });
});
