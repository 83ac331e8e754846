/**
 * The logical lines of a script: its physical lines, joined where the
 * grammar reads on across a newline — inside an open bracket, inside a
 * ```…```, '''…''' or [[…]] string, after a `\` escape in a "…" or '…'
 * string, and after a `\` outside strings (a continuation). The further
 * syntax errors of a script that does not match are found by matching each
 * logical line alone (`further-syntax-errors.ts`), so the split must never
 * cut through what the grammar reads as one: a line of a multi-line literal
 * matched alone would look wrong.
 *
 * The scan follows the grammar's tokens: comments (`#`, `--`, `//`, and a
 * `::` metadata line) run to the end of the line; strings end where the
 * grammar ends them. A `[[` starts a list of lists or a raw string depending
 * on what follows, so the scan follows both readings until one is left; a
 * reading ends where the grammar could not go on (a closing bracket that does
 * not close the innermost open one, a one-line string at a newline). When
 * the lines cannot be told apart with certainty the answer is `undefined`
 * (and no further errors are reported):
 * - no reading gets through: a bracket or string that never closes, a
 *   closing bracket nothing opened (its opener may be missing lines before,
 *   making the lines between look wrong), a quote with no end on its line (a
 *   string meant to span lines, or one whose opening quote is missing), a
 *   backtick or typographic quote without its pair on its line (other
 *   languages' strings, which may span lines);
 * - a `[[` is still read both ways at the end of its line, or the reading
 *   left after the other ended on that line goes on to the next one;
 * - more than {@link MAX_READINGS} readings at once.
 */

/** One logical line: offsets into the scanned text. */
export interface LogicalLine {
  /** Its first character (the start of a physical line). */
  readonly start: number;
  /** The newline that ends it, or the text's length. */
  readonly end: number;
  /** Its first character outside comments and white space; -1 when it has none (blank, comment or metadata only). */
  readonly first: number;
  /** Its last character outside comments and white space; -1 when it has none. */
  readonly last: number;
}

/** Readings followed at once (each `[[` can double them) before the scan gives up. */
const MAX_READINGS = 16;

/** What a reading is inside of. */
const Mode = {
  Code: 0,
  Comment: 1,
  DoubleQuoted: 2,
  SingleQuoted: 3,
  TripleBacktick: 4,
  TripleSingle: 5,
  DoubleBracket: 6,
  /** After a backtick or typographic quote: no NeuroScript, but it must close on its line, or the lines after may be its text. */
  Foreign: 7,
} as const;
type Mode = (typeof Mode)[keyof typeof Mode];

const NEWLINE = 10;
const SPACE = 32;
const TAB = 9;
const OPENER_OF: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };
/** Each foreign quote and the characters that close it. */
const FOREIGN_QUOTES: Readonly<Record<string, string>> = {
  '`': '`',
  '\u201C': '\u201C\u201D',
  '\u201D': '\u201C\u201D',
  '\u2018': '\u2018\u2019',
  '\u2019': '\u2018\u2019',
  '\u00AB': '\u00BB',
  '\u00BB': '\u00AB',
};

/** 1 for an ASCII character that changes nothing outside strings but the line's first and last characters: not a newline, quote, bracket, backslash, or one that may start a comment. */
const PLAIN = new Uint8Array(128);
for (let code = 0; code < 128; code += 1) PLAIN[code] = '\n#-/:\\"\'`([{)]}'.includes(String.fromCharCode(code)) ? 0 : 1;

/** One way of reading the text so far. */
interface Reading {
  mode: Mode;
  /** The open brackets, innermost last. */
  stack: string;
  /** Characters still to pass over (the rest of a token already read). */
  skip: number;
  /** A `\` outside strings on this line: its newline goes on to the next line. */
  soft: boolean;
  /** Only spaces and tabs since the start of the logical line (where `::` starts a metadata line). */
  lineStart: boolean;
  /** Whether the newline just read ends the logical line. */
  ended: boolean;
  /** For `Mode.Foreign`: the characters that close it. */
  closers: string;
  first: number;
  last: number;
}

/** A reading's state, without where its line's characters are: two readings with one key read on alike. */
function keyOf(reading: Reading): string {
  return `${reading.mode}|${reading.skip}|${reading.soft ? 1 : 0}|${reading.lineStart ? 1 : 0}|${reading.ended ? 1 : 0}|${reading.closers}|${reading.stack}`;
}

/**
 * Reads the character at `index` in `reading` (changing it). Returns false when the reading ends there,
 * or a second reading when a `[[` starts there (the first goes on as a list, the second as a string).
 */
function step(reading: Reading, text: string, index: number, code: number): boolean | Reading {
  const character = text[index] as string;
  switch (reading.mode) {
    case Mode.Comment:
      if (code !== NEWLINE) return true;
      reading.mode = Mode.Code;
      return stepCode(reading, text, index, code, character);
    case Mode.DoubleQuoted:
    case Mode.SingleQuoted:
      // `\` escapes any character, a newline too; an unescaped newline leaves the string unclosed.
      if (code === NEWLINE) return false;
      if (character === '\\') reading.skip = 1;
      else if (character === (reading.mode === Mode.DoubleQuoted ? '"' : "'")) reading.mode = Mode.Code;
      return true;
    case Mode.TripleBacktick:
    case Mode.TripleSingle:
      if (text.startsWith(reading.mode === Mode.TripleBacktick ? '```' : "'''", index)) {
        reading.mode = Mode.Code;
        reading.skip = 2;
      }
      return true;
    case Mode.DoubleBracket:
      if (text.startsWith(']]', index)) {
        reading.mode = Mode.Code;
        reading.skip = 1;
      }
      return true;
    case Mode.Foreign:
      if (code === NEWLINE) return false;
      if (reading.closers.includes(character)) reading.mode = Mode.Code;
      return true;
    default:
      return stepCode(reading, text, index, code, character);
  }
}

function stepCode(reading: Reading, text: string, index: number, code: number, character: string): boolean | Reading {
  if (code === SPACE || code === TAB) return true;
  if (code === NEWLINE) {
    reading.ended = !reading.soft && reading.stack === '';
    reading.soft = false;
    reading.lineStart = reading.ended;
    return true;
  }
  const atLineStart = reading.lineStart;
  reading.lineStart = false;
  const next = text[index + 1];
  // `--` and `//` always start a comment outside strings: the space skipping before every operand takes them first.
  if (character === '#' || (character === '-' && next === '-') || (character === '/' && next === '/') || (character === ':' && next === ':' && atLineStart)) {
    reading.mode = Mode.Comment;
    return true;
  }
  switch (character) {
    case '\\':
      // A continuation when a newline follows; otherwise an error, on a line most likely meant to go on.
      reading.soft = true;
      return true;
    case '"':
      reading.mode = Mode.DoubleQuoted;
      return true;
    case "'":
      if (text.startsWith("''", index + 1)) {
        reading.mode = Mode.TripleSingle;
        reading.skip = 2;
      } else {
        reading.mode = Mode.SingleQuoted;
      }
      return true;
    case '(':
    case '{':
      reading.stack += character;
      return true;
    case '[': {
      // `[[`: a list of lists (this reading, which reads the second `[` next) or a raw string (the other).
      const string = next === '[' ? { ...reading, mode: Mode.DoubleBracket, skip: 1 } : undefined;
      reading.stack += '[';
      return string ?? true;
    }
    case ')':
    case ']':
    case '}':
      if (reading.stack.at(-1) !== OPENER_OF[character]) return false;
      reading.stack = reading.stack.slice(0, -1);
      return true;
    default:
      if (character === '`' && text.startsWith('``', index + 1)) {
        reading.mode = Mode.TripleBacktick;
        reading.skip = 2;
      } else if (Object.hasOwn(FOREIGN_QUOTES, character)) {
        reading.mode = Mode.Foreign;
        reading.closers = FOREIGN_QUOTES[character] as string;
      }
      return true;
  }
}

/** Notes the character at `index` as one of the line's own, unless the reading is in a comment. */
function mark(reading: Reading, index: number): void {
  if (reading.mode === Mode.Comment) return;
  if (reading.first === -1) reading.first = index;
  reading.last = index;
}

/**
 * Where the next character that can change `reading` is, from `index` on: the
 * scan's hot path. Plain code (noted as the line's own characters), the text
 * of a string up to what may end it, a comment up to its newline.
 */
function passOver(reading: Reading, text: string, index: number): number {
  if (reading.skip > 0) return index;
  switch (reading.mode) {
    case Mode.Code: {
      let at = index;
      for (let code = text.charCodeAt(at); code < 128 && PLAIN[code] === 1; code = text.charCodeAt(at)) {
        if (code !== SPACE && code !== TAB) {
          reading.lineStart = false;
          if (reading.first === -1) reading.first = at;
          reading.last = at;
        }
        at += 1;
      }
      return at;
    }
    case Mode.DoubleQuoted:
    case Mode.SingleQuoted: {
      const quote = reading.mode === Mode.DoubleQuoted ? 34 : 39;
      let at = index;
      for (let code = text.charCodeAt(at); code !== quote && code !== 92 && code !== NEWLINE && at < text.length; code = text.charCodeAt(at)) at += 1;
      return at;
    }
    case Mode.TripleBacktick:
    case Mode.TripleSingle:
    case Mode.DoubleBracket: {
      // The newlines passed are inside the string: none ends a line.
      const at = text.indexOf(reading.mode === Mode.TripleBacktick ? '```' : reading.mode === Mode.TripleSingle ? "'''" : ']]', index);
      return at === -1 ? text.length : at;
    }
    case Mode.Comment: {
      const at = text.indexOf('\n', index);
      return at === -1 ? text.length : at;
    }
    default:
      return index;
  }
}

/** The logical lines of `text` in order, or undefined when they cannot be told apart with certainty (see above). */
export function logicalLines(text: string): LogicalLine[] | undefined {
  let readings: Reading[] = [{ mode: Mode.Code, stack: '', skip: 0, soft: false, lineStart: true, ended: false, closers: '', first: -1, last: -1 }];
  const lines: LogicalLine[] = [];
  let start = 0;
  /** A reading ended on this line while another went on: the one left must end the line. */
  let settledByEnding = false;
  for (let index = 0; index < text.length; index += 1) {
    // Read one way, most characters change nothing but where the reading is: passed over without a call.
    if (readings.length === 1) {
      index = passOver(readings[0] as Reading, text, index);
      if (index >= text.length) break;
    }
    const code = text.charCodeAt(index);
    const isNewline = code === NEWLINE;
    const blank = isNewline || code === SPACE || code === TAB;
    /** The readings after this character, once they differ from those before it. */
    let after: Reading[] | undefined;
    let endedHere = false;
    for (let which = 0; which < readings.length; which += 1) {
      const reading = readings[which] as Reading;
      let outcome: boolean | Reading = true;
      if (isNewline) reading.ended = false;
      // Outside strings `skip` never passes over a newline: no token holds one.
      if (reading.skip > 0) reading.skip -= 1;
      else outcome = step(reading, text, index, code);
      if (outcome === false) {
        after ??= readings.slice(0, which);
        endedHere = true;
        continue;
      }
      if (!blank) mark(reading, index);
      if (outcome === true) {
        after?.push(reading);
        continue;
      }
      if (!blank) mark(outcome, index);
      after ??= readings.slice(0, which);
      after.push(reading, outcome);
    }
    if (after !== undefined) {
      if (after.length === 0) return undefined;
      if (endedHere) settledByEnding = true;
      // Readings that have come to the same state go on as one: looked for when a reading starts or ends, and at a newline.
      readings = distinct(after);
      if (readings.length > MAX_READINGS) return undefined;
    }
    if (!isNewline) continue;
    readings = distinct(readings);
    if (readings.length > 1) return undefined;
    const reading = readings[0] as Reading;
    const ends = reading.mode === Mode.Code && reading.ended;
    if (settledByEnding && !ends) return undefined;
    settledByEnding = false;
    if (!ends) continue;
    lines.push({ start, end: index, first: reading.first, last: reading.last });
    reading.first = -1;
    reading.last = -1;
    start = index + 1;
  }
  // At the end of the text every string and bracket is closed, in the one reading left.
  const closed = readings.filter((reading) => (reading.mode === Mode.Code || reading.mode === Mode.Comment) && reading.stack === '' && reading.skip === 0);
  if (closed.length < readings.length) settledByEnding = true;
  const left = distinct(closed);
  if (left.length !== 1) return undefined;
  const last = left[0] as Reading;
  if (settledByEnding && last.soft) return undefined;
  // A last line that ends with a continuation goes on into nothing: it is left out.
  if (start < text.length && !last.soft) lines.push({ start, end: text.length, first: last.first, last: last.last });
  return lines;
}

/** The readings, each state once. */
function distinct(readings: Reading[]): Reading[] {
  if (readings.length < 2) return readings;
  const seen = new Map<string, Reading>();
  for (const reading of readings) {
    const key = keyOf(reading);
    if (!seen.has(key)) seen.set(key, reading);
  }
  return [...seen.values()];
}
