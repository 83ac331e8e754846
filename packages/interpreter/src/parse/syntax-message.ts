/**
 * Turns an Ohm match failure into one message a model can act on. These
 * messages go back to the model on the next turn, so each common mistake gets
 * its own wording: a missing `set` or `call`, `m.a` field reads, upper-case
 * keywords, `else if`, `=` for `==`, trailing commas, unclosed strings and
 * blocks, empty blocks, reserved words as names. Anything else falls back to
 * "expected …, found …".
 */
import type { MatchResult } from 'ohm-js';
import { BLOCK_OF_CLOSER, closerProblem, declarationProblem, describeOpenBlocks, emptyBlockProblem, openBlocks } from './open-blocks.ts';
import { functionEquivalent } from '../check/function-equivalents.ts';
import { compoundAssignmentProblem, fStringProblem, keywordArgumentProblem, markerProblem } from './syntax-habits.ts';
import { numberFormProblem } from './number-form.ts';

/** A syntax error: where, and what to do about it. */
export interface SyntaxErrorDescription {
  readonly offset: number;
  readonly message: string;
  /** The closer the grammar would have taken where it stopped (`endif`: the innermost block, which holds a statement, may close there). */
  readonly closer?: string;
}

interface Failure {
  type: string;
  getText(): string;
}

interface FailedMatch {
  getRightmostFailurePosition(): number;
  getRightmostFailures(): Failure[];
}

const STATEMENT_KEYWORDS = 'set, call, emit, whisper, must, fail, if, while, for each, return, ask, promptuser, break, continue, on error, clear_error';

/** The reserved words (reference §1.2): none of them can name a variable. */
export const RESERVED: ReadonlySet<string> = new Set(
  'acos and as asin ask atan break call clear clear_error command continue cos do each else emit endcommand endfor endfunc endif endon endwhile error eval event fail false for func fuzzy if in into last len ln log means must mustbe named needs nil no not on optional or promptuser return returns set sin some tan timedate tool true typeof while whisper with'.split(
    ' ',
  ),
);

/** Each closer and the block it closes, as a message names it (one table with the scan of open blocks). */
const CLOSERS = BLOCK_OF_CLOSER;

const FOREIGN_WORDS: Record<string, string> = {
  let: "to assign, write 'set name = value'",
  var: "to assign, write 'set name = value'",
  const: "to assign, write 'set name = value'",
  print: "to print, write 'emit value'",
  echo: "to print, write 'emit value'",
  log: "to print, write 'emit value'",
  elif: "write 'else', then a nested 'if … endif' on the next line",
  elseif: "write 'else', then a nested 'if … endif' on the next line",
  def: "functions are defined at the top level of a library script with 'func name(needs a) means … endfunc'",
  function: "functions are defined at the top level of a library script with 'func name(needs a) means … endfunc'",
  end: "blocks close with their own keyword: endif, endwhile, endfor, endon, endfunc, endcommand",
  foreach: "loops are written 'for each item in list … endfor'",
  try: "errors are handled with 'on error do … endon'",
};

function describeFound(text: string, offset: number): string {
  if (offset >= text.length) return 'the end of the script';
  if (text[offset] === '\n') return 'the end of the line';
  const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(offset, offset + 80));
  if (word) return `'${word[0]}'`;
  const character = String.fromCodePoint(text.codePointAt(offset) as number);
  // Invisible, control and separator characters are named by code point ('U+2028'), not printed raw.
  if (character !== ' ' && /^[\p{C}\p{Z}]$/u.test(character)) return `the invisible character U+${(character.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${character}'`;
}

function lineBounds(text: string, offset: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const newline = text.indexOf('\n', offset);
  return { start, end: newline === -1 ? text.length : newline };
}

function quoteList(items: readonly string[]): string {
  const quoted = items.map((item) => (item.startsWith('a ') || item.startsWith('an ') || item === 'end of line' ? item : `'${item}'`));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

interface OpenBracket {
  readonly character: string;
  readonly offset: number;
}

const CLOSING: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/**
 * The brackets still open at `offset`, innermost last. A rough scan: it skips
 * quoted and raw strings and comments, which is enough to point at an
 * unclosed bracket.
 */
function openBrackets(text: string, offset: number): OpenBracket[] {
  const stack: OpenBracket[] = [];
  let index = 0;
  while (index < offset) {
    const character = text[index] as string;
    const three = text.slice(index, index + 3);
    if (three === '```' || three === "\'\'\'") {
      const end = text.indexOf(three, index + 3);
      index = end === -1 ? offset : end + 3;
      continue;
    }
    // A `[[…]]` closed before the failure is a whole value, a raw string or a list of lists: skipped, so a quote or
    // a comment marker in its text (`[[Don't forget]]`) does not swallow its `]]` and get it blamed.
    if (character === '[' && text[index + 1] === '[') {
      const end = text.indexOf(']]', index + 2);
      if (end !== -1 && end + 2 <= offset) {
        index = end + 2;
        continue;
      }
    }
    if (character === '"' || character === "'") {
      let end = index + 1;
      while (end < offset && text[end] !== character && text[end] !== '\n') end += text[end] === '\\' ? 2 : 1;
      index = end + 1;
      continue;
    }
    if (character === '#' || three.startsWith('--') || three.startsWith('//')) {
      const end = text.indexOf('\n', index);
      index = end === -1 ? offset : end;
      continue;
    }
    if (character in CLOSING) stack.push({ character, offset: index });
    else if (character === ')' || character === ']' || character === '}') stack.pop();
    index += 1;
  }
  return stack;
}

/**
 * The name `text` ends with (a letter or `_`, then letters, digits and `_`),
 * if any: what `/[A-Za-z_][A-Za-z0-9_]*$/` finds, in one scan back from the
 * end. That pattern tries every start in turn, each running to the end, so a
 * long word followed by anything cost the square of its length (a 32 KB
 * name then ` @` took 2.6 s to parse).
 */
export function trailingName(text: string): string | undefined {
  let start = text.length;
  while (start > 0 && /[A-Za-z0-9_]/.test(text[start - 1] as string)) start -= 1;
  while (start < text.length && /[0-9]/.test(text[start] as string)) start += 1;
  return start < text.length ? text.slice(start) : undefined;
}

/** "line 3, column 9": where `offset` is, when `text` starts at line `firstLine` of the script. */
function positionOf(text: string, offset: number, firstLine: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length + firstLine - 1;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/**
 * Describes why `match` failed on `text`. `firstLine`: the line of the script
 * `text` starts at, when it is one line of it matched alone (messages that
 * name another place say its line in the script). `blockCloser`: for such a
 * line, the closer of the block it stands in when that block holds a
 * statement already (known from the count of open blocks), which the whole
 * script's match would have offered there: its hints ("close the 'if' block
 * with 'endif'") are then the same.
 */
export function describeSyntaxError(text: string, match: MatchResult, firstLine = 1, blockCloser?: string): SyntaxErrorDescription {
  const failed = match as unknown as FailedMatch;
  const offset = failed.getRightmostFailurePosition();
  const expected = new Set(failed.getRightmostFailures().map((failure) => failure.getText()));
  if (blockCloser !== undefined && expected.has('set') && expected.has('emit')) expected.add(blockCloser);
  const closer = [...expected].find((item) => item in CLOSERS);
  return { offset: wordStartOfMidWordFailure(text, offset, expected) ?? offset, message: explain(text, offset, expected, firstLine), ...(closer === undefined ? {} : { closer }) };
}

/**
 * Where the word starts when the failure is inside one (`emit tool`, `settings = 1`): the matcher stopped after the
 * keyword it took the word's start for, but the message is about the whole word, so it points at its first letter.
 */
function wordStartOfMidWordFailure(text: string, offset: number, expected: Set<string>): number | undefined {
  const { start, end } = lineBounds(text, offset);
  const before = text.slice(start, offset);
  const rest = text.slice(offset, end);
  const head = trailingName(before);
  if (head === undefined || !/^[A-Za-z0-9_]/.test(rest) || midWordProblem(before, rest, expected) === undefined) return undefined;
  return offset - head.length;
}

function expectsValueOrSeparator(expected: Set<string>): boolean {
  return expected.has('a number') || expected.has(',');
}

/** A line that assigns without `set`: `x = 1`, `m["k"] = v`, `a, b = list`. */
const ASSIGNMENT_WITHOUT_SET = /^[A-Za-z_][A-Za-z0-9_]*(\s*(\[[^\]]*\]|\.[A-Za-z_][A-Za-z0-9_]*))*\s*(,\s*[A-Za-z_][A-Za-z0-9_.[\]"']*\s*)*=(?!=)/;

/** The keywords that start a statement: a word that begins with one of them is most likely that keyword misspelt. */
const STATEMENT_STARTS: ReadonlySet<string> = new Set(['set', 'call', 'emit', 'whisper', 'must', 'fail', 'if', 'while', 'for', 'return', 'ask', 'promptuser', 'break', 'continue', 'on', 'clear_error']);

/**
 * A failure inside a word (`emitt`, `foreach`, `= call tool…`): the matcher
 * took the word's start for a keyword or a built-in and then stopped, and its
 * expected set holds grammar internals ('not an identPart', 'os'). Says what
 * the whole word is instead, or undefined when the failure is not inside one.
 */
function midWordProblem(before: string, rest: string, expected: Set<string>): string | undefined {
  const head = trailingName(before);
  const tail = /^[A-Za-z0-9_]+/.exec(rest)?.[0];
  if (head === undefined || tail === undefined) {
    // `call emit "x"`: 'call' takes a function or tool call, not a statement.
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)?.[0];
    if (word !== undefined && /(^|\s)call\s+$/.test(before) && RESERVED.has(word)) {
      return `'call' takes a function or tool call (call tool.group.Name(…)); '${word}' is a statement of its own: write it without 'call'.`;
    }
    return undefined;
  }
  const word = head + tail;
  const start = before.slice(0, before.length - head.length);
  const lineStart = /^\s*$/.test(start);
  if (word === 'call' && !lineStart) {
    return "'call' starts a statement of its own and has no value: where a value is expected, write the call itself (tool.group.Name(…)) without 'call'; to keep a result, 'set result = tool.group.Name(…)'.";
  }
  if (lineStart) {
    // A name that merely starts with a keyword (`settings = 1`, `format("x")`): the line's own mistake, said as for any name.
    const line = (head + rest).trim();
    if (ASSIGNMENT_WITHOUT_SET.test(line)) return `An assignment needs 'set': write 'set ${line.replace(/\s+/g, ' ')}'.`;
    const compound = compoundAssignmentProblem(line, false);
    if (compound !== undefined) return compound;
    if (/^[A-Za-z_][A-Za-z0-9_]*\s*\(/.test(line)) return `A call on its own needs 'call': write 'call ${line}'. To keep the result, write 'set result = ${line}'.`;
    if (word in FOREIGN_WORDS) return `'${word}' is not a NeuroScript statement: ${FOREIGN_WORDS[word]}.`;
  }
  if (expected.has('not an identPart') && RESERVED.has(head)) {
    return `'${word}' is not a keyword${lineStart && STATEMENT_STARTS.has(head) ? ` (a statement starts with one of ${STATEMENT_KEYWORDS})` : ''}: did you mean '${head}'?`;
  }
  if (RESERVED.has(word)) return `'${word}' is a reserved keyword and cannot be used here as a name or value.`;
  return undefined;
}

/**
 * `text.upper()`, `xs.append(x)`: `rest` starts with a method call on the
 * value before it, which brackets would not mend. The message names what
 * NeuroScript has instead, or undefined when `rest` is no method call.
 */
function methodCallProblem(rest: string): string | undefined {
  const method = /^\.\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(/.exec(rest)?.[1];
  if (method === undefined) return undefined;
  const instead = functionEquivalent(method);
  return `There are no methods: .${method}(…) cannot be called on a value${instead === undefined ? '; call a tool with the value as an argument (tool.group.Name(value, …))' : `; ${instead}`}.`;
}

function explain(text: string, offset: number, expected: Set<string>, firstLine: number): string {
  const { start, end } = lineBounds(text, offset);
  const before = text.slice(start, offset);
  const rest = text.slice(offset, end);
  const restTrimmed = rest.trim();
  const found = describeFound(text, offset);
  const firstWord = /^[A-Za-z_][A-Za-z0-9_]*/.exec(restTrimmed)?.[0] ?? '';
  const atEnd = offset >= text.length;

  const expectsStatement = expected.has('set') && expected.has('emit');
  const expectsValue = expected.has('a number') && expected.has('a string');
  const expectsTopLevel = expected.has('command') && expected.has('func');
  const closer = [...expected].find((item) => item in CLOSERS);

  if (offset === 0 && rest.startsWith('```')) {
    return 'Remove the markdown fence (```): write the NeuroScript itself, starting with \'command\'.';
  }
  for (const delimiter of ['```', "'''", '[[']) {
    const closer = delimiter === '[[' ? ']]' : delimiter;
    if (rest.startsWith(delimiter) && !text.includes(closer, offset + delimiter.length)) {
      return `The ${delimiter} string starting here is never closed: end it with ${closer}.`;
    }
  }
  const open = openBrackets(text, offset).at(-1);
  if (open && text.lastIndexOf('\n', offset - 1) >= open.offset && !(firstWord in CLOSERS && expectsValueOrSeparator(expected))) {
    const close = CLOSING[open.character] as string;
    return `Expected ',' or the closing '${close}' of the '${open.character}' opened at ${positionOf(text, open.offset, firstLine)}, but found ${found}.`;
  }
  // A closer on the bracket's own line where a name or a value was expected (`func f(needs a, endif)`,
  // `f(1, endif)`) is a keyword used as one, said below: adding the bracket would not fix it.
  const nameOnOpenLine = open !== undefined && text.lastIndexOf('\n', offset - 1) < open.offset && expected.has('a name');
  if (open && firstWord in CLOSERS && !nameOnOpenLine) {
    const close = CLOSING[open.character] as string;
    return `The '${open.character}' opened at ${positionOf(text, open.offset, firstLine)} is not closed: add '${close}'.`;
  }

  // Typographic quotes, as a word processor or a chat interface writes them, are not string delimiters.
  const curly = /^[\u2018\u2019\u201C\u201D\u00AB\u00BB]/.exec(rest)?.[0];
  if (curly !== undefined) {
    return `'${curly}' is a typographic quote: strings use straight quotes, "text" or 'text'.`;
  }
  const midWord = midWordProblem(before, rest, expected);
  if (midWord !== undefined) return midWord;
  const numberForm = numberFormProblem(before, rest);
  if (numberForm !== undefined) return numberForm;
  const fString = fStringProblem(before, rest);
  if (fString !== undefined) return fString;
  if (open?.character === '(' && open.offset >= start) {
    const keyword = keywordArgumentProblem(text.slice(start, end), open.offset - start, offset - start, RESERVED);
    if (keyword !== undefined) return keyword;
  }

  // Python's triple-quoted string reads as the empty string "" followed by another string.
  if (rest.startsWith('"') && /""$/.test(before)) {
    return "There are no \"\"\"…\"\"\" strings: write text over several lines as ```…``` (its {{holes}} are filled) or '''…''' (raw).";
  }
  if (rest.startsWith('"') || rest.startsWith("'")) {
    const quote = rest[0] as string;
    if (!rest.slice(1).includes(quote)) {
      return `The string starting here is not closed on this line: add the closing ${quote}. For text over several lines use a \`\`\`…\`\`\` string, or end the line with \\ to continue it.`;
    }
  }

  if (expectsStatement || expectsTopLevel) {
    const marker = markerProblem(rest, expectsStatement ? 'statement' : /^[ \t]*command\b/m.test(text.slice(0, offset)) ? 'after-command' : 'top');
    if (marker !== undefined) return marker;
    if (atEnd && closer) {
      return unclosedAtEnd(text, offset, closer) ?? `The script ends before the '${CLOSERS[closer]}' block is closed: add '${closer}' on its own line.`;
    }
    if (firstWord in CLOSERS) {
      if (closer && closer !== firstWord) {
        const innermost = openBlocks(text, offset).at(-1);
        // The line it opened at only when the scan agrees with the grammar on which block that is.
        const agrees = innermost?.closer === closer;
        return closerProblem(firstWord, { keyword: CLOSERS[closer] as string, closer, line: innermost?.line ?? 0 }, agrees) as string;
      }
      // Between top-level blocks, where the grammar expects neither a statement nor a closer: nothing is open.
      if (!closer && !expectsStatement && expectsTopLevel) return closerProblem(firstWord, undefined) as string;
      if (!closer || expectsStatement) {
        return emptyBlockProblem(firstWord);
      }
    }
    // Where a statement must come first in an `if` with no `else` yet: its first branch is empty.
    if (firstWord === 'else' && expectsStatement && !closer && isFirstElse(text, offset)) return emptyBlockProblem('else');
    if (restTrimmed.startsWith('::')) {
      return "A metadata line (:: key: value) goes before the first statement: at the start of the file, or right after the 'command' or 'func … means' line. Move it up, or make it a comment with #.";
    }
    if (firstWord === 'else') {
      return "'else' is only valid inside an 'if … endif' block, on its own line between the two branches.";
    }
    if (firstWord === 'end' && closer) {
      return `'end' is not a NeuroScript statement: close the '${CLOSERS[closer]}' block with '${closer}'.`;
    }
    if (firstWord in FOREIGN_WORDS) {
      return `'${firstWord}' is not a NeuroScript statement: ${FOREIGN_WORDS[firstWord]}.`;
    }
    if ((firstWord === 'func' || firstWord === 'command') && closer) return declarationProblem(firstWord, { keyword: CLOSERS[closer] as string, closer });
    const compound = RESERVED.has(firstWord) ? undefined : compoundAssignmentProblem(restTrimmed, false);
    if (compound !== undefined) return compound;
    if (ASSIGNMENT_WITHOUT_SET.test(restTrimmed) && !RESERVED.has(firstWord)) {
      return `An assignment needs 'set': write 'set ${restTrimmed.replace(/\s+/g, ' ')}'.`;
    }
    if (/^tool\s*\./.test(restTrimmed) || (/^[A-Za-z_][A-Za-z0-9_]*\s*\(/.test(restTrimmed) && !RESERVED.has(firstWord))) {
      return `A call on its own needs 'call': write 'call ${restTrimmed}'. To keep the result, write 'set result = ${restTrimmed}'.`;
    }
    const statementMethod = RESERVED.has(firstWord) ? undefined : methodCallProblem(restTrimmed.slice(/^[A-Za-z_][A-Za-z0-9_]*(\s*\[[^\]\n]*\])*/.exec(restTrimmed)?.[0].length ?? 0));
    if (statementMethod !== undefined) return statementMethod;
    if (firstWord && RESERVED.has(firstWord.toLowerCase()) && !RESERVED.has(firstWord)) {
      return `Keywords are lower case: write '${firstWord.toLowerCase()}', not '${firstWord}'.`;
    }
    if (expectsTopLevel && !expectsStatement) {
      if (firstWord && ['set', 'emit', 'call', 'whisper', 'if', 'while', 'for', 'must', 'fail', 'return'].includes(firstWord)) {
        return `Statements must sit inside a block: put them between 'command' and 'endcommand' (or inside 'func name() means … endfunc').`;
      }
      return `Expected 'command', 'func' or 'on event' at the top level, but found ${found}. A command script is 'command' … 'endcommand'; a library script holds 'func … endfunc' definitions.`;
    }
    return `Statements must start with a keyword (${STATEMENT_KEYWORDS}), but found ${found}.${closer ? ` Or close the block with '${closer}'.` : ''}`;
  }

  if (rest.startsWith('\\')) {
    return 'A line continuation is a \\ as the very last character of a line: remove what follows it (spaces or comments), or join the lines.';
  }

  if (expectsValue) {
    if (/,\s*$/.test(before) && (rest.trim() === '' || atEnd)) {
      return 'Remove the trailing comma at the end of this line, or put the next value after it on the same line.';
    }
    if (/^[\])}]/.test(rest) && /,\s*$/.test(text.slice(Math.max(0, offset - 200), offset).replace(/\s*\n\s*/g, ' '))) {
      return `Remove the trailing comma before '${rest[0]}': a list, map or argument list cannot end with a comma.`;
    }
    if (rest.trim() === '' || atEnd) {
      // The last token: a whole word ('emit', 'and'), else the operator it ends with ('+', '==', ',').
      const tail = before.trimEnd();
      const last = trailingName(tail) ?? /[^\sA-Za-z0-9_]{1,2}$/.exec(tail)?.[0] ?? '';
      return `The line ends where a value is expected${last ? ` after '${last}'` : ''}. Finish the expression on this line, or end the line with \\ to continue it on the next.`;
    }
    if (firstWord && RESERVED.has(firstWord)) {
      return `'${firstWord}' is a reserved keyword and cannot be used as a value or name here; expected a value (a number, string, list, map, variable or call).`;
    }
    const marker = markerProblem(rest, 'value', before);
    if (marker !== undefined) return marker;
    const habit = foreignOperator(before, rest);
    if (habit !== undefined) return habit;
    return `Expected a value (a number, string, list [..], map {..}, variable or call) but found ${found}.`;
  }

  if (expected.size === 1 && expected.has('a name')) {
    if (firstWord && RESERVED.has(firstWord)) {
      return `'${firstWord}' is a reserved keyword and cannot be used as a name; pick another name (for example '${firstWord}_value').`;
    }
    return `Expected a name (letters, digits and _, not starting with a digit) but found ${found}.`;
  }

  if (expected.has('end of line')) {
    // The last statement is complete but the script ends on it: the blocks around it are never closed.
    const unclosed = atEnd ? unclosedAtEnd(text, offset) : undefined;
    if (unclosed !== undefined) return unclosed;
    if (/^\.\s*[A-Za-z_]/.test(rest) && /[A-Za-z0-9_\])]$/.test(before)) {
      const field = /^\.\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(rest)?.[1] ?? 'a';
      // `.length` and its kin of other languages: a length is the built-in len().
      if (['length', 'len', 'size', 'count'].includes(field)) return `There are no properties: write len(x) for the length of a string, list or map (not x.${field}).`;
      const method = methodCallProblem(rest);
      if (method !== undefined) return method;
      return `Map fields are read with brackets: write ["${field}"] instead of .${field} (m["${field}"], not m.${field}). Dot access only works on the left of 'set'.`;
    }
    if (/^=(?!=)/.test(rest) && /^\s*(if|while|must|emit|return)\b/.test(before)) {
      return "Use '==' to compare; a single '=' only appears in 'set name = value'.";
    }
    if (firstWord === 'if' && /\belse\s*$/.test(before)) {
      return "There is no 'else if': write 'else', then on the next line a nested 'if … endif', and close the outer 'if' with its own 'endif'.";
    }
    if (/^\{/.test(rest) && /^\s*(if|while|for)\b/.test(before)) {
      return "Blocks do not use braces: write the condition, the statements on the following lines, then 'endif', 'endwhile' or 'endfor'.";
    }
    if (/^:/.test(rest) && /^\s*(if|while|for|else)\b/.test(before)) {
      return "No ':' after a condition: end the line after it, put the statements on the following lines, then close the block ('endif', 'endwhile', 'endfor').";
    }
    if (/^;/.test(rest)) {
      return "Remove the ';': a statement ends at the end of its line.";
    }
    if (/^\(/.test(rest)) {
      return `Only names, built-ins and tool.group.Name can be called; found '(' after an expression.`;
    }
    if (/^[,]/.test(rest) && /^\s*must\b/.test(before)) {
      return "'must' takes a condition only, no message: to fail with a message write 'if not (condition)', then 'fail \"message\"' on the next line, then 'endif'.";
    }
    if (/^[,]/.test(rest)) {
      return "Unexpected ',': this statement takes a single value here. To build a list write [a, b].";
    }
    if (/^\?/.test(rest)) {
      return "There is no '? :' operator: choose the value with 'if condition' … 'else' … 'endif', setting the variable in each branch.";
    }
    if (/^(then|do)\b/.test(rest) && /^\s*(if|while|for)\b/.test(before)) {
      return `Remove '${/^(then|do)/.exec(rest)?.[1]}': the condition ends the line, and the block's statements follow on the next lines.`;
    }
    return `Unexpected ${found.replace(/^the /, '')} after a complete expression: each statement ends at the end of its line (join values with an operator such as +, or put the next statement on its own line).`;
  }

  if (expected.has('=') && /^([-+*/%]=|\+\+)/.test(rest)) {
    const compound = compoundAssignmentProblem(`${before.replace(/^\s*set\s*/, '')}${rest}`, true);
    if (compound !== undefined) return compound;
  }
  if (expected.has('=') && rest.startsWith('==')) {
    return "Assignment is a single '=': write 'set name = value' ('==' compares, in a condition).";
  }
  if (expected.has('=')) {
    return `Expected '=' in 'set name = value' but found ${found}.`;
  }
  if (/^\s*call\s*$/.test(before) && (rest.trim() === '' || atEnd)) {
    return "'call' needs what to call: write 'call tool.group.Name(…)' or 'call name(…)' with its arguments.";
  }
  if (/^\s*whisper\b/.test(before) && expected.has(',') && (rest.trim() === '' || atEnd)) {
    return `'whisper' takes a target and a text: write 'whisper self, ${before.replace(/^\s*whisper\s*/, '').trim() || '"note"'}' (each whisper becomes a line of the next turn's SCRATCHPAD).`;
  }
  if (expected.has('(') && /^\s*call\b/.test(before)) {
    const method = methodCallProblem(rest);
    if (method !== undefined) return method;
    return `A call needs parentheses: write '${before.replace(/^\s*call\s*/, '').trim()}()' with its arguments inside.`;
  }
  if (expected.has('needs') && expected.has(')') && /^\s*func\b[^(]*\(\s*$/.test(before) && /^[A-Za-z_]/.test(rest)) {
    const name = /^\s*func\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(before)?.[1] ?? 'name';
    const parameters = /^([^)\n]*)\)/.exec(rest)?.[1]?.trim() ?? firstWord;
    return `Parameters are listed after 'needs' (and 'optional', 'returns'): write 'func ${name}(needs ${parameters}) means'.`;
  }
  if (expected.has('do')) return `Expected 'do' here: handlers are written 'on error do' and 'on event name do'; found ${found}.`;
  if (expected.has('means')) return `Expected 'means' after the function signature: 'func name(needs a, b) means'; found ${found}.`;
  if (expected.has('each')) return "Loops are written 'for each item in collection'.";
  if (expected.has('in')) return `Expected 'in' in 'for each item in collection'; found ${found}.`;
  if (expected.has('into')) return `Expected 'into' in 'promptuser "question" into answer'; found ${found}.`;

  // Single letters are the first characters of keywords the grammar tried (its case-insensitive built-ins): noise here.
  const items = [...expected].filter((item) => item !== 'a comment' && !/^[A-Za-z]$/.test(item));
  return `Expected ${quoteList(items.slice(0, 8))}${items.length > 8 ? ' (or more)' : ''} but found ${found}.`;
}

/** Whether an `else` at `offset` would be the first of the innermost open block, an `if` (by the scan of open blocks). */
function isFirstElse(text: string, offset: number): boolean {
  const innermost = openBlocks(text, offset).at(-1);
  return innermost?.closer === 'endif' && innermost.hasElse !== true;
}

/**
 * "The script ends before 'endfor': …" naming every block still open at the
 * end, innermost first, and the closers to add in order; undefined when the
 * scan finds none, or when its innermost block is not the one the grammar
 * expects to close (`expectedCloser`), so a wrong scan never gives a wrong fix.
 */
function unclosedAtEnd(text: string, offset: number, expectedCloser?: string): string | undefined {
  const blocks = openBlocks(text, offset);
  const innermost = blocks.at(-1);
  if (innermost === undefined || (expectedCloser !== undefined && innermost.closer !== expectedCloser)) return undefined;
  const closers = [...blocks].reverse().map((block) => `'${block.closer}'`);
  const add = closers.length === 1 ? `Add ${closers[0]} on its own line` : `Add ${closers.join(', then ')}, each on its own line`;
  return `The script ends before '${innermost.closer}': ${describeOpenBlocks(blocks)} ${blocks.length === 1 ? 'is' : 'are'} never closed. ${add}.`;
}

/**
 * A message for an operator of another language where a value was expected
 * (`&&`, `||`, `===`, `!x`, a backtick string), or undefined. The grammar
 * reads the first `&`, `|` or `==` as an operator of its own and stops at the
 * second character, so `before` ends with the first half.
 */
function foreignOperator(before: string, rest: string): string | undefined {
  if (rest.startsWith('&') && before.endsWith('&')) return "Use 'and' instead of '&&' (and 'or' instead of '||'; 'not' instead of '!').";
  if (rest.startsWith('|') && before.endsWith('|')) return "Use 'or' instead of '||' (and 'and' instead of '&&'; 'not' instead of '!').";
  if (rest.startsWith('=') && /[=!]=$/.test(before)) return `Use '${before.endsWith('!=') ? '!=' : '=='}': there is no '${before.endsWith('!=') ? '!==' : '==='}' (comparisons already compare values).`;
  if (/^!(?!=)/.test(rest)) return "Use 'not' instead of '!': write 'not x'.";
  if (/^`(?!``)/.test(rest)) return 'Strings are written in double or single quotes ("text"); a backtick only opens a ```…``` block (raw text with {{name}} interpolation).';
  return undefined;
}
