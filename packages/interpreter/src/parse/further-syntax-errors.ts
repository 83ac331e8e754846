/**
 * The syntax errors of a script after its first. The match of the whole
 * script stops at the first error; NeuroScript is line-oriented, so each
 * later logical line (`logical-lines.ts`) is matched alone against the
 * grammar's `Line` rule, which takes any line a valid script can hold — a
 * statement, a block's first line or closer, a declaration's first line,
 * metadata, a comment, nothing — whatever block it stands in. A line it
 * refuses is a syntax error of its own, reported in the words the first
 * error would get (`describeSyntaxError`). Never a false one:
 * - nothing when the script's lines cannot be told apart (a bracket or
 *   string that never closes, a closing bracket nothing opened, a quote
 *   with no end on its line: see `logicalLines`);
 * - only lines after the first error's, which stays first;
 * - not a line that may be the rest of the wrong line before it, as when a
 *   `\` or an opening bracket is missing between them: that line goes wrong
 *   at its very end (the grammar wanted more there) or ends where more must
 *   follow (an operator, a comma, a keyword such as `and` or `in`), or this
 *   one starts with what only a line's rest starts with (an operator, a
 *   comma, a closing bracket, `and`, `in`, …) or reads as part of an
 *   expression (`2 + 3`, `"a",`, `"key": 1,`, `f(x)`). A line after a right
 *   one is reported whatever it holds: it is where the script goes wrong.
 * A line right on its own but not where it stands (an `endif` with no `if`
 * open, a `func` inside a block) is found by counting the open blocks
 * (`misplaced-block-line.ts`).
 */
import type { MatchResult } from 'ohm-js';
import { MAX_NESTING_DEPTH } from '../ast/index.ts';
import grammar from '../grammar/neuroscript.ohm-bundle.js';
import type { LineIndex } from './line-index.ts';
import { logicalLines, type LogicalLine } from './logical-lines.ts';
import { matchFast, matchFastOutcome } from './match-fast.ts';
import { matchWithNestingLimit } from './match-with-nesting-limit.ts';
import { isEndLine, misplacedBlockLine, type LaterLines } from './misplaced-block-line.ts';
import { describeSyntaxError, RESERVED, type SyntaxErrorDescription } from './syntax-message.ts';

/** At most this many syntax errors are reported for one script, the first included. */
export const MAX_SYNTAX_ERRORS = 5;

/** The nesting limit the whole script is matched with. */
const LIMIT = MAX_NESTING_DEPTH + 1;

/** Reserved words that can end a complete line (a value, a statement of one word, a block's first line or closer). */
const ENDS_LINE: ReadonlySet<string> = new Set(['true', 'false', 'nil', 'last', 'break', 'continue', 'clear_error', 'fail', 'return', 'else', 'command', 'means', 'do', 'endif', 'endwhile', 'endfor', 'endon', 'endfunc', 'endcommand']);

/** Reserved words that go on with a line rather than start one. */
const GOES_ON: ReadonlySet<string> = new Set(['and', 'or', 'in', 'into', 'with', 'as', 'named', 'do', 'means', 'needs', 'optional', 'returns', 'each', 'error', 'event']);

/** Characters a complete line can end with, besides a name's or a number's: a closing bracket, a quote, a `;` (other languages' statement end). */
const CLOSING_CHARACTERS: ReadonlySet<string> = new Set([')', ']', '}', '"', "'", '`', '\u201D', '\u2019', '\u00BB', ';']);

/** What a line of its own can start with: a name's or a keyword's first letter, a value (a mistake of that line), the loop's `<<<` marker. */
const STARTS_LINE = /^(?:[A-Za-z0-9_"'`\u201C\u201D\u2018\u2019\u00AB\u00BB]|<<<)/;

const WORD_CHARACTER = /[A-Za-z0-9_]/;

/** The word (letters, digits, `_`) of `text` that ends at `last`. */
function wordEndingAt(text: string, last: number): string {
  let start = last;
  while (start > 0 && WORD_CHARACTER.test(text[start - 1] as string)) start -= 1;
  return text.slice(start, last + 1);
}

/** Whether `line` ends where the grammar needs more: an operator, a comma, `=`, a keyword such as `and` or `in`. */
function endsUnfinished(text: string, line: LogicalLine): boolean {
  const character = text[line.last] as string;
  if (CLOSING_CHARACTERS.has(character)) return false;
  if (!WORD_CHARACTER.test(character)) return true;
  const word = wordEndingAt(text, line.last);
  return RESERVED.has(word) && !ENDS_LINE.has(word);
}

/** Whether `line` starts as the rest of a line does: an operator, a comma, a bracket, `and`, `in`, … */
function startsAsRest(text: string, line: LogicalLine): boolean {
  const head = text.slice(line.first, line.first + 16);
  if (!STARTS_LINE.test(head)) return true;
  return GOES_ON.has(/^[A-Za-z_][A-Za-z0-9_]*/.exec(head)?.[0] ?? '');
}

/**
 * Whether `line` could be part of an expression written over several lines
 * (`2 + 3`, `"a",`, `"key": value,`, `f(x)`): the line before may have lost
 * the `\` or the opening bracket that joined them. It is one when it reads
 * as the items of a list or the entries of a map, a comma at its end taken off.
 */
function couldBePartOfExpression(text: string, line: LogicalLine): boolean {
  const inside = text.slice(line.first, text[line.last] === ',' ? line.last : line.last + 1);
  // A matcher that gives up says nothing: assume it could.
  return matchFastOutcome(`[${inside}]`, 'Interpolation', LIMIT) !== 'no match' || matchFastOutcome(`{${inside}}`, 'Interpolation', LIMIT) !== 'no match';
}

/** Ohm's verdict on a line the generated matcher refused: why it is wrong, and the offset in it where the grammar stopped. */
interface LineFailure {
  readonly description: SyntaxErrorDescription;
  readonly at: number;
  /** The failed match the description was read from: told again with a block's closer, it is not matched again (Ohm keeps its failures). */
  readonly told: MatchResult;
}

/**
 * Ohm's verdict on `lineText` (line `firstLine` of the script) once the
 * generated matcher did not match it: it fits after all (the generated
 * matcher gave up), it nests too deeply, or why it is no line — from
 * `StatementLine` (what a statement in a block expects) when that fails as
 * far along as `Line`, else from `Line` (a closer, `func` or `command` line
 * that goes wrong further on).
 */
function judgeLine(lineText: string, firstLine: number): 'fits' | 'too deep' | LineFailure {
  const judged = matchWithNestingLimit(lineText, 'Line', LIMIT, (line): 'fits' | LineFailure => {
    if (!line.failed()) return 'fits';
    const at = line.getRightmostFailurePosition();
    // Under the same nesting guard: the statement's match goes no deeper than the line's.
    const statement = grammar.match(lineText, 'StatementLine');
    const told = statement.failed() && statement.getRightmostFailurePosition() === at ? statement : line;
    return { at, description: describeSyntaxError(lineText, told, firstLine), told };
  });
  return judged.tooDeepAt === undefined ? judged.value : 'too deep';
}

/** The last line with something on it before the one being matched: whether it was wrong, and whether its mistake may be that it goes on. */
interface Previous {
  readonly line: LogicalLine;
  readonly wrong: boolean;
  /** The grammar stopped at its very end, wanting more. */
  readonly wantsMore: boolean;
  /**
   * A wrong `end` line said as a mistake of its own (`isEndLine`): complete as
   * it stands, since no statement starts with `end`, so the line after it is
   * never its rest. (One taken for the rest of the line before may be a name
   * there, `set x = a + end`, which a `(1)` after it goes on.)
   */
  readonly complete?: boolean;
}

/**
 * The syntax errors of `text` after the first, which is at `firstOffset`: at
 * most {@link MAX_SYNTAX_ERRORS} − 1, in line order, offsets into `text`.
 * `ignore(offset)` drops an error the caller reports otherwise (a refused
 * character).
 */
export function furtherSyntaxErrors(text: string, firstError: SyntaxErrorDescription, positions: LineIndex, ignore: (offset: number) => boolean = () => false): SyntaxErrorDescription[] {
  const lines = logicalLines(text);
  if (lines === undefined) return [];
  const firstOffset = firstError.offset;
  const firstIndex = lines.findIndex((line) => line.start <= firstOffset && firstOffset <= line.end);
  if (firstIndex === -1) return [];
  const { found: alone, wrong, judgedBefore, told } = wrongLines(text, lines, firstIndex, firstOffset, positions, ignore);
  // A line the line-by-line match takes for right but not where it stands, said in line order unless reported already.
  const closers = new Map<LogicalLine, string>();
  const misplaced = misplacedBlockLine(text, lines, { index: firstIndex, offset: firstOffset, closer: firstError.closer }, { wrong, judgedBefore }, positions, closers);
  const found = closers.size === 0 ? alone : alone.map((error) => withBlockHint(text, lines, error, closers, told, positions));
  if (misplaced === undefined || ignore(misplaced.offset) || found.some((error) => lineOf(lines, error.offset) === lineOf(lines, misplaced.offset))) return found;
  return [...found, misplaced].sort((a, b) => a.offset - b.offset).slice(0, MAX_SYNTAX_ERRORS - 1);
}

/** Messages whose words depend on the block the line stands in: told again with its closer (`describeSyntaxError`'s `blockCloser`). */
const BLOCK_HINTED = /^(?:'end' is not a NeuroScript statement|Statements must start with a keyword)/;

/**
 * `error`, of a line matched alone, told again as the first error would be
 * told when the count of open blocks knows the block its line stands in
 * (`closers`): "'end' is not a NeuroScript statement: close the 'if' block
 * with 'endif'.", not the list of every closer.
 */
function withBlockHint(text: string, lines: readonly LogicalLine[], error: SyntaxErrorDescription, closers: ReadonlyMap<LogicalLine, string>, told: ReadonlyMap<LogicalLine, MatchResult>, positions: LineIndex): SyntaxErrorDescription {
  const line = lines[lineOf(lines, error.offset)];
  const closer = line === undefined ? undefined : closers.get(line);
  const match = line === undefined ? undefined : told.get(line);
  if (line === undefined || closer === undefined || match === undefined || !BLOCK_HINTED.test(error.message)) return error;
  const description = describeSyntaxError(`${text.slice(line.start, line.end)}\n`, match, positions.position(line.start).line, closer);
  return { offset: line.start + description.offset, message: description.message };
}

/** The index of the logical line of `lines` that holds `offset`. */
function lineOf(lines: readonly LogicalLine[], offset: number): number {
  return lines.findIndex((line) => line.start <= offset && offset <= line.end);
}

/** The errors of the lines after the first error's, and what the count of open blocks needs to know of those lines (`misplacedBlockLine`). */
interface WrongLines extends LaterLines {
  readonly found: SyntaxErrorDescription[];
  /** The failed match of each line in `found`, to tell it again with its block's closer (`withBlockHint`). */
  readonly told: ReadonlyMap<LogicalLine, MatchResult>;
}

/** The lines after the first error's that the grammar refuses, matched one by one (this module's comment). */
function wrongLines(text: string, lines: readonly LogicalLine[], firstIndex: number, firstOffset: number, positions: LineIndex, ignore: (offset: number) => boolean): WrongLines {
  const rest = lines.slice(firstIndex + 1);
  const last = rest.at(-1);
  const wrong = new Map<LogicalLine, number | undefined>();
  // Usually nothing after the first error is wrong: one match of all the lines after it says so.
  if (last === undefined || matchFast(`${text.slice((rest[0] as LogicalLine).start, last.end)}\n`, 'Lines', LIMIT) !== undefined) return { found: [], wrong, judgedBefore: text.length + 1, told: new Map() };
  const found: SyntaxErrorDescription[] = [];
  const told = new Map<LogicalLine, MatchResult>();
  const firstLine = lines[firstIndex] as LogicalLine;
  let previous: Previous = { line: firstLine, wrong: true, wantsMore: firstOffset > firstLine.last, complete: firstOffset === firstLine.first && isEndLine(text, firstLine) };
  for (const line of rest) {
    if (line.first === -1) continue;
    // Matched with its newline, as in the script: a failure at its end is at "the end of the line".
    const lineText = `${text.slice(line.start, line.end)}\n`;
    const fast = matchFastOutcome(lineText, 'Line', LIMIT);
    if (typeof fast !== 'string') {
      previous = { line, wrong: false, wantsMore: false };
      continue;
    }
    const mayBeItsRest =
      previous.wrong &&
      previous.complete !== true &&
      (previous.line.last === -1 ||
        previous.wantsMore ||
        endsUnfinished(text, previous.line) ||
        // An `end` line reads as a name (`[end]`), but after a line that wants nothing more it is a closer of its own.
        (!isEndLine(text, line) && (startsAsRest(text, line) || couldBePartOfExpression(text, line))));
    // Ohm is asked only about a line that may be reported, or one the generated matcher gave up on.
    const verdict = mayBeItsRest && fast === 'no match' ? 'refused' : judgeLine(lineText, positions.position(line.start).line);
    if (verdict === 'fits') {
      previous = { line, wrong: false, wantsMore: false };
      continue;
    }
    // A line taken for the rest of the one before was not asked about; whether it ends unfinished is read from its text.
    const reported = typeof verdict !== 'string' && !mayBeItsRest && !ignore(line.start + verdict.description.offset);
    previous = { line, wrong: true, wantsMore: verdict === 'too deep' || (typeof verdict !== 'string' && line.start + verdict.at > line.last), complete: reported && isEndLine(text, line) };
    // Where the grammar stopped in it, when the line is a mistake of its own (not the rest of another, nor unjudged).
    wrong.set(line, reported ? line.start + verdict.at : undefined);
    if (!reported) continue;
    found.push({ offset: line.start + verdict.description.offset, message: verdict.description.message });
    told.set(line, verdict.told);
    if (found.length >= MAX_SYNTAX_ERRORS - 1) return { found, wrong, judgedBefore: line.end + 1, told };
  }
  return { found, wrong, judgedBefore: text.length + 1, told };
}
