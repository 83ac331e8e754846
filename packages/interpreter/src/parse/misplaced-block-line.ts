/**
 * Block structure after a script's first syntax error: a closer that closes
 * no open block, or a block of another kind (`endif` where only a `while`
 * and the `command` are open), or that comes right after its block's opener
 * or `else` (the block is empty), as does an `else` right after its `if`;
 * and a `func` or `command` line inside a
 * block that is closed after it (a nested declaration, not a block left
 * open). The match of the whole script stops at its first error, and each
 * later line is then matched alone (`further-syntax-errors.ts`), where
 * `endif` is a line like any other: without this, such a line was found only
 * once every error before it was mended, a turn later. The first such line
 * is said, in the words the first error would give it. The same count tells
 * each later wrong line the block it stands in, for the hints its message
 * gives as the only mistake (`close the 'if' block with 'endif'`); an `end`
 * written for a closer is read as the closer its message asks for.
 *
 * The open blocks are counted by the first word of each logical line, as
 * `openBlocks` counts them, and only while the role of every line is
 * certain. A wrong line's role is certain when the grammar went wrong after
 * its first word, a word a line may start with (`if x == 1 then` opens an
 * `if`, whatever its mistake). Nothing more is said after a line that may be
 * something else: an opener or a closer that lost its word (`iff x > 1`, a
 * `command` line overwritten, a keyword alone such as `if`, which may be an
 * `endif` that lost its `end`), a keyword used as a name (`command = "ls"`,
 * `command += " -l"`), an `else` that goes on with an opener (`else if x`),
 * a wrong line that may be several lines run together (`emit 1 endif`, `emit 1 end`, an
 * opener or `else` that may hold its whole block: `if x: emit 1`), a wrong line of
 * several physical lines that the grammar stopped in before its last (the
 * lines after may be lines of their own), a line that starts with a `\`
 * continuation (the word after it is not read), or a metadata line, an `else` or
 * a statement where the grammar refuses one (a metadata line inside a block
 * past its head, an `else` not the first of its innermost `if`, a statement
 * outside every block, whose `command` line may be lost). Nothing either after
 * a first error at a closer (a block problem said already), of a closer that
 * some block further out would take (`endcommand` while an `if` is open: the
 * `endif` is missing, and a block left open is not a further error), after a
 * `func` or `command` line right after an opener (the grammar wants a
 * statement; moved out, the declaration leaves the lines after it in an
 * empty block again), or past the lines the line-by-line match judged.
 */
import type { LineIndex } from './line-index.ts';
import type { LogicalLine } from './logical-lines.ts';
import { BLOCK_OF_CLOSER, blockOpenedBy, closerProblem, declarationProblem, emptyBlockProblem, openBlocks, type OpenBlock } from './open-blocks.ts';
import type { SyntaxErrorDescription } from './syntax-message.ts';

/** The words a line of a script the grammar accepts can start with: statements, declarations, `else` and the closers (the first words of the grammar's `Line`, a test keeps them so). */
export const LINE_START_WORDS: ReadonlySet<string> = new Set([
  'set', 'emit', 'call', 'if', 'for', 'whisper', 'return', 'while', 'must', 'fail', 'on', 'break', 'continue', 'clear_error', 'clear', 'ask', 'promptuser',
  'func', 'command', 'else',
  ...Object.keys(BLOCK_OF_CLOSER),
]);

/** The closers of the blocks whose head may hold metadata lines. */
const DECLARATION_CLOSERS: ReadonlySet<string> = new Set(['endcommand', 'endfunc']);

/** The word (letters, digits, `_`) `text` has at `offset`, if one starts there. */
function wordAt(text: string, offset: number): string | undefined {
  return /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(offset, offset + 32))?.[0];
}

/** What the line-by-line match learnt of the lines after the first error's. */
export interface LaterLines {
  /**
   * The lines it found wrong: each with the offset into the text where the
   * grammar stopped in it when the line is a mistake of its own, undefined
   * when it may be the rest of the line before or was left unjudged.
   */
  readonly wrong: ReadonlyMap<LogicalLine, number | undefined>;
  /** Lines that start at or after this offset were not judged (the error count was reached before them). */
  readonly judgedBefore: number;
}

/**
 * Whether wrong `line`, which starts with `else`, goes on with a block's
 * opener (`else if x > 1`, `else: while …`): the mend its message asks for
 * (`else`, then a nested `if … endif`) opens a block there, so a second
 * `endif` after it may be right, and the count is not certain.
 */
function elseOpens(text: string, line: LogicalLine): boolean {
  const next = /^else[ \t:]+([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(line.first, line.first + 64))?.[1];
  return next !== undefined && blockOpenedBy(next, 0) !== undefined;
}

/**
 * Whether the grammar stopped in `line` before a newline inside it: the
 * physical lines after that newline were not read as part of the statement,
 * and may be lines of their own (`emit\ m` or `set p = C:\data` is joined to
 * the next line by its `\`, which may be `for each v in m`).
 */
function stoppedBeforeItsLastLine(text: string, line: LogicalLine, stoppedAt: number): boolean {
  const newline = text.indexOf('\n', stoppedAt);
  return newline !== -1 && newline < line.end;
}

/** Whether `word`, first on a line, opens or closes a block, or starts an `if`'s other branch. */
function changesBlocks(word: string): boolean {
  return blockOpenedBy(word, 0) !== undefined || Object.hasOwn(BLOCK_OF_CLOSER, word) || word === 'else';
}

/**
 * Whether wrong `line` may be several lines run together, which its mend
 * splits: after where the grammar stopped in it (at `stoppedAt`) stands a
 * word a line starts with that opens or closes a block (`emit 1 endif`,
 * `set x = 1 if y`), or an `end` (`emit 1 end`: on a line of its own, as the
 * message asks, it is read as the closer its own message names), or, when
 * the line opens a block or is an `else`
 * (`opens`), any statement, which its block may hold on the line (`if x:
 * emit 1`, `else emit 2 endif`: the block is not empty, and may close on the
 * line or never), or anything on a physical line after its first, which a
 * `\` joined to it (`if x > 1 \`, then `  x = 1` on the next line). The
 * block a later closer finds innermost, or whether it is empty, is then not
 * known.
 */
function mayBeSeveralLines(text: string, line: LogicalLine, stoppedAt: number, opens: boolean): boolean {
  if (opens && text.lastIndexOf('\n', stoppedAt - 1) > line.first) return true;
  for (const [word] of text.slice(stoppedAt, line.end).matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) if (word === 'end' || (LINE_START_WORDS.has(word) && (opens || changesBlocks(word)))) return true;
  return false;
}

/**
 * Whether wrong `line` uses its first word, `word`, as a name: an assignment
 * after it (`command = "ls"`, `command += " -l"`, `for = 1`), or after
 * `command`, which nothing follows on its line, a field, an index or a call
 * (`command.append(x)`, `command["k"] = v`, `command("ls")`). The grammar
 * read a keyword and stopped after it, but the line opens nothing the way its
 * writer meant it.
 */
function usesWordAsName(text: string, line: LogicalLine, word: string): boolean {
  const after = text.slice(line.first + word.length, line.first + word.length + 16);
  return /^[ \t]*(?:[-+*/%&|^:]|\*\*|\/\/|<<|>>)?=(?!=)/.test(after) || (word === 'command' && /^[ \t]*[.[(]/.test(after));
}

/**
 * Whether wrong `line` holds its first word, `word`, and nothing else (`if`
 * alone): a keyword that lost what follows it, or a closer that lost its
 * `end` (`endif` → `if`), so what it opens is not known.
 */
function isBareKeyword(line: LogicalLine, word: string): boolean {
  return line.last === line.first + word.length - 1;
}

/** Whether `line`, which starts with `word`, is a declaration, the only line the grammar takes outside every block: `func`, `command`, `on event`. */
function isDeclaration(text: string, line: LogicalLine, word: string): boolean {
  return word === 'func' || word === 'command' || (word === 'on' && /^on[ \t]+event(?![A-Za-z0-9_])/.test(text.slice(line.first, line.first + 16)));
}

/** Whether the grammar went wrong on `line` past its first word, `word` (so the keyword was read as one). */
function wentWrongAfter(line: LogicalLine, word: string, stoppedAt: number): boolean {
  return stoppedAt >= line.first + word.length;
}

/**
 * Whether wrong `line`, which starts with `word` and in which the grammar
 * stopped at `stoppedAt` (undefined: not judged, or maybe the rest of the
 * line before), may be something else than its first word says: the
 * module's comment lists the cases. The first error's line and each later
 * wrong one are held to the same test.
 */
function roleUncertain(text: string, line: LogicalLine, word: string, stoppedAt: number | undefined): boolean {
  if (Object.hasOwn(BLOCK_OF_CLOSER, word) || stoppedAt === undefined || !wentWrongAfter(line, word, stoppedAt)) return true;
  if (stoppedBeforeItsLastLine(text, line, stoppedAt) || usesWordAsName(text, line, word) || isBareKeyword(line, word)) return true;
  if (word === 'else' && elseOpens(text, line)) return true;
  return mayBeSeveralLines(text, line, stoppedAt, blockOpenedBy(word, 0) !== undefined || word === 'else');
}

/**
 * Whether `line` is an `end` standing for the closer of `innermost`, the
 * block it stands in: `end` alone, or `end` and the word that opened that
 * block (`end if`, `end while`), as other languages close blocks; a comment
 * or a `;` may follow. Its message says to write the block's closer there.
 */
function isEndOf(text: string, line: LogicalLine, innermost: OpenBlock): boolean {
  const found = END_LINE.exec(text.slice(line.first, line.last + 1));
  return found !== null && (found[1] === undefined || blockOpenedBy(found[1], 0)?.closer === innermost.closer);
}

/**
 * A line that closes a block as other languages do: `end`, or `end` and a word (`end if`); a comment or a `;` may
 * follow. No two runs of space can meet (the `;` between them is in the group that holds the first): the match stays
 * linear on a line of `end` and a long run of space that fails at its end.
 */
const END_LINE = /^end(?:[ \t]+([a-z]+))?(?:[ \t]*;)?[ \t]*(?:(?:#|--|\/\/).*)?$/;

/**
 * Whether logical `line` is such an `end` line (`END_LINE`). No statement
 * starts with `end`, so such a line is a closer of its own: the line after
 * one is not its rest, and one after a wrong line that wants nothing more is
 * not that line's rest (`further-syntax-errors.ts`).
 */
export function isEndLine(text: string, line: LogicalLine): boolean {
  return line.first !== -1 && END_LINE.test(text.slice(line.first, line.last + 1));
}

/** The first error's line, and the closer the grammar would have taken where it went wrong (`SyntaxErrorDescription.closer`). */
export interface FirstError {
  readonly index: number;
  readonly offset: number;
  readonly closer: string | undefined;
}

/**
 * The first line of `lines` after the first error's whose place in the
 * blocks is wrong (the module's comment): its offset and message, in the
 * words the first error would get. Undefined when there is none, or when the
 * count of open blocks is not certain.
 *
 * Into `closers` goes, for each wrong line met while the count is certain
 * and the block it stands in holds a statement already, that block's closer:
 * its message may then give the hint the first error would give ("close the
 * 'if' block with 'endif'"). An `end` line said so (`end`, `end if`) counts as
 * that closer, its message's mend, so that each of a script's `end`s is told
 * its own closer; no block problem is said after one, since its writer may
 * have meant something else.
 */
export function misplacedBlockLine(text: string, lines: readonly LogicalLine[], first: FirstError, later: LaterLines, positions: LineIndex, closers: Map<LogicalLine, string>): SyntaxErrorDescription | undefined {
  const firstLine = lines[first.index] as LogicalLine;
  const firstWord = firstLine.first === -1 ? undefined : wordAt(text, firstLine.first);
  if (firstWord === undefined) return undefined;
  // An `end` the grammar stopped at, where it would have taken the innermost block's closer: its message asks for
  // that closer, which the count reads there. No block problem is said after it (`readEnd`).
  const firstIsEnd = firstWord === 'end' && first.offset === firstLine.first && first.closer !== undefined;
  const firstOpens = blockOpenedBy(firstWord, 0) !== undefined;
  // The first error's line included, but for an `end`: an opener there (`if x == 1 then`) opens its block all the same.
  const open = openBlocks(text, firstIsEnd ? firstLine.first : firstLine.end);
  let readEnd = false;
  if (firstIsEnd) {
    const innermost = open.at(-1);
    if (innermost?.closer !== first.closer || !isEndOf(text, firstLine, innermost)) return undefined;
    open.pop();
    readEnd = true;
  } else {
    // A first error at a closer is a block problem said already (`roleUncertain` holds every closer uncertain).
    if (!LINE_START_WORDS.has(firstWord) || roleUncertain(text, firstLine, firstWord, first.offset)) return undefined;
    // Outside every block (its own opener aside), as the lines after it: only a declaration stands there.
    if (open.length === (firstOpens ? 1 : 0) && !isDeclaration(text, firstLine, firstWord)) return undefined;
  }
  // Whether the innermost block has no statement yet: a closer there is "This block is empty" as the only mistake.
  let empty = firstOpens || firstWord === 'else';
  // A `func` or `command` line inside an open block, said once that block closes after it with its own closer: it
  // is nested, not a block left open (which is not said). Nothing is said then of a wrong one, whose line has a mistake
  // said already. Until then a line after the declaration's own block is not said: were the outer block left open
  // (closed before the declaration, as the grammar's message asks), that line would stand outside every block.
  let nested: { readonly problem: SyntaxErrorDescription | undefined; readonly depth: number; readonly block: OpenBlock } | undefined;
  const sayable = (): boolean => nested === undefined || open[nested.depth] === nested.block;
  /** A block problem found, or none: none after an `end` read as a closer, which may not be one. */
  const say = (problem: SyntaxErrorDescription | undefined): SyntaxErrorDescription | undefined => (readEnd ? undefined : problem);
  for (const line of lines.slice(first.index + 1)) {
    if (line.start >= later.judgedBefore) return undefined;
    const word = line.first === -1 ? undefined : wordAt(text, line.first);
    const isWrong = later.wrong.has(line);
    const around = open.at(-1);
    // A wrong line said on its own (not maybe the rest of the line before), in a block that holds a statement.
    if (isWrong && later.wrong.get(line) !== undefined && around !== undefined && !empty && nested === undefined) {
      closers.set(line, around.closer);
      if (word === 'end' && isEndOf(text, line, around)) {
        open.pop();
        readEnd = true;
        continue;
      }
    }
    if (word === undefined) {
      // A right line with something before its first word is led by a `\` continuation: its role is not read here.
      if (isWrong || line.first !== -1) return undefined;
      // A metadata line is a line of its own only at the top or at the head of a `command` or `func` block: anywhere
      // else the grammar refuses it, which the line alone does not show, and the block it stands in is not known.
      if (/^[ \t]*::/.test(text.slice(line.start, line.start + 64)) && !(open.length === 0 || (empty && DECLARATION_CLOSERS.has((open.at(-1) as OpenBlock).closer)))) return undefined;
      continue;
    }
    if (!LINE_START_WORDS.has(word)) return undefined;
    const isCloser = Object.hasOwn(BLOCK_OF_CLOSER, word);
    // Outside every block the grammar takes only a declaration (or says a closer closes nothing): a statement there,
    // which the line alone does not show, may have lost its `command` line, and the blocks after it are not known.
    if (open.length === 0 && !isCloser && !isDeclaration(text, line, word)) return undefined;
    if (isWrong && roleUncertain(text, line, word, later.wrong.get(line))) return undefined;
    const opened = blockOpenedBy(word, positions.position(line.first).line);
    if (opened !== undefined) {
      if ((word === 'func' || word === 'command') && open.length > 0) {
        // In a block with no statement yet, the grammar wants a statement there, a mistake not said here: its mend
        // (the declaration moved out) leaves the lines after it in an empty block again, so nothing after it is certain.
        if (empty) return undefined;
        nested ??= { problem: isWrong ? undefined : { offset: line.first, message: declarationProblem(word, open.at(-1) as OpenBlock) }, depth: open.length, block: opened };
      }
      open.push(opened);
      empty = true;
      continue;
    }
    if (word === 'else') {
      // Only the first `else` of the innermost `if`: anywhere else the grammar refuses it, which the line alone does not
      // show, and whether its mend (deleted, or its block made an `if`) leaves the blocks as they were is not known.
      const innermost = open.at(-1);
      if (innermost?.closer !== 'endif' || innermost.hasElse === true) return undefined;
      // Right after its `if`: as the only mistake the grammar says the first branch is empty.
      if (empty) return sayable() ? say({ offset: line.first, message: emptyBlockProblem(word) }) : undefined;
      open[open.length - 1] = { ...innermost, hasElse: true };
      empty = true;
      continue;
    }
    if (!isCloser) {
      empty = false;
      continue;
    }
    // Right after its block's opener or `else`: as the only mistake the grammar says the block is empty. Unless a block
    // further out takes it (`for` then `endcommand`): the inner block is then left open, which is not said.
    if (empty && open.length > 0) {
      if (!sayable()) return undefined;
      const takenFurtherOut = open.at(-1)?.closer !== word && open.some((block) => block.closer === word);
      return takenFurtherOut ? undefined : say({ offset: line.first, message: emptyBlockProblem(word) });
    }
    const problem = closerProblem(word, open.at(-1));
    if (problem === undefined) {
      open.pop();
      empty = false;
      if (nested !== undefined && open.length < nested.depth) return say(nested.problem);
      continue;
    }
    // A block further out that this closer closes: the blocks inside it lack their closers, which is not said here.
    if (open.some((block) => block.closer === word) || !sayable()) return undefined;
    return say({ offset: line.first, message: problem });
  }
  return undefined;
}
