/**
 * The blocks (`command`, `func`, `if`, `while`, `for each`, `on … do`) still
 * open at a point of a script, for syntax messages that name where a block
 * that is never closed began, and what a closer there would do. A rough scan
 * by the first word of each statement line: it skips strings, comments,
 * metadata lines, bracketed lines and `\` continuations, which is enough to
 * find the line of an opener. The first error's messages use it only where
 * the grammar has already said a block is open, and check that the innermost
 * block it finds closes with the closer the grammar expects; the count of
 * closers after the first error (`misplaced-block-line.ts`) uses it only up to a
 * line whose role is certain, and says nothing once one is not.
 */

/** A block open at the scanned point. */
export interface OpenBlock {
  /** How the message names it: 'command', 'func', 'if', 'while', 'for each', 'on … do'. */
  readonly keyword: string;
  /** The word that closes it: 'endcommand', 'endfunc', 'endif', 'endwhile', 'endfor', 'endon'. */
  readonly closer: string;
  /** 1-based line of its opening statement. */
  readonly line: number;
  /** An `if` whose `else` came already: a second `else` in it is a mistake. */
  readonly hasElse?: boolean;
}

const OPENERS: Readonly<Record<string, { keyword: string; closer: string }>> = {
  command: { keyword: 'command', closer: 'endcommand' },
  func: { keyword: 'func', closer: 'endfunc' },
  if: { keyword: 'if', closer: 'endif' },
  while: { keyword: 'while', closer: 'endwhile' },
  for: { keyword: 'for each', closer: 'endfor' },
  on: { keyword: 'on … do', closer: 'endon' },
};

/** Each block's closer and how a message names the block it closes: `endfor` → 'for each'. */
export const BLOCK_OF_CLOSER: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(Object.values(OPENERS).map((opener) => [opener.closer, opener.keyword])));

const CLOSER_WORDS: ReadonlySet<string> = new Set(Object.keys(BLOCK_OF_CLOSER));

/** The blocks open at `end` (an offset into `text`), outermost first. */
export function openBlocks(text: string, end: number): OpenBlock[] {
  const stack: OpenBlock[] = [];
  let index = 0;
  let line = 1;
  let depth = 0;
  let atStatement = true;
  const skipTo = (target: number): void => {
    for (let at = index; at < target && at < end; at += 1) if (text[at] === '\n') line += 1;
    index = Math.min(target, end);
  };
  while (index < end) {
    if (atStatement) {
      atStatement = false;
      const head = text.slice(index, index + 64);
      if (/^[ \t]*::/.test(head)) {
        // A metadata line is text to its end, as a comment is: an apostrophe (`:: about: the user's words`) or a bracket in it opens no string or list.
        const newline = text.indexOf('\n', index);
        index = newline === -1 ? end : Math.min(newline, end);
        continue;
      }
      // Past any `\` continuation the statement starts with: the grammar reads it as space (`\`, then `if x` below).
      const found = /^((?:[ \t]|\\\n)*)([A-Za-z_][A-Za-z0-9_]*)/.exec(head);
      // Only a statement that starts before `end`: the word at `end` is the one a message is about.
      const word = found !== null && index + (found[1] as string).length < end ? found[2] : undefined;
      const wordLine = line + (found?.[1]?.split('\n').length ?? 1) - 1;
      if (word !== undefined && Object.hasOwn(OPENERS, word)) stack.push({ ...(OPENERS[word] as { keyword: string; closer: string }), line: wordLine });
      else if (word !== undefined && CLOSER_WORDS.has(word)) stack.pop();
      else if (word === 'else' && stack.at(-1)?.closer === 'endif') stack[stack.length - 1] = { ...(stack.at(-1) as OpenBlock), hasElse: true };
    }
    const character = text[index] as string;
    const three = text.slice(index, index + 3);
    if (character === '\n') {
      line += 1;
      index += 1;
      atStatement = depth === 0;
      continue;
    }
    if (character === '\\' && text[index + 1] === '\n') {
      // A continuation: the next line goes on with this statement.
      skipTo(index + 2);
      continue;
    }
    if (three === '```' || three === "'''") {
      const close = text.indexOf(three, index + 3);
      skipTo(close === -1 ? end : close + 3);
      continue;
    }
    if (character === '[' && text[index + 1] === '[') {
      const close = text.indexOf(']]', index + 2);
      if (close !== -1 && close + 2 <= end) {
        skipTo(close + 2);
        continue;
      }
    }
    if (character === '"' || character === "'") {
      let at = index + 1;
      while (at < end && text[at] !== character && text[at] !== '\n') at += text[at] === '\\' ? 2 : 1;
      skipTo(at + 1);
      continue;
    }
    if (character === '#' || three.startsWith('--') || three.startsWith('//')) {
      const newline = text.indexOf('\n', index);
      index = newline === -1 ? end : Math.min(newline, end);
      continue;
    }
    if (character === '(' || character === '[' || character === '{') depth += 1;
    else if ((character === ')' || character === ']' || character === '}') && depth > 0) depth -= 1;
    index += 1;
  }
  return stack;
}

/** The block `word` (first on a statement line) opens at `line`. */
export function blockOpenedBy(word: string, line: number): OpenBlock | undefined {
  const opener = Object.hasOwn(OPENERS, word) ? OPENERS[word] : undefined;
  return opener === undefined ? undefined : { ...opener, line };
}

/**
 * What is wrong with closer `word` where `innermost` is the innermost open
 * block (none: no block is open), or undefined when it closes that block.
 * `openedAt`: whether to say the line the block opened at.
 */
export function closerProblem(word: string, innermost: Pick<OpenBlock, 'keyword' | 'closer' | 'line'> | undefined, openedAt = true): string | undefined {
  if (innermost === undefined) {
    const block = BLOCK_OF_CLOSER[word] ?? word;
    // A top-level block's closer has no block around it to move into.
    const move = word === 'endcommand' || word === 'endfunc' || word === 'endon' ? '' : `, or move it into the block whose '${block}' it was meant to end`;
    return `'${word}' closes no block: none is open here. Delete it${move}.`;
  }
  if (innermost.closer === word) return undefined;
  return `'${word}' cannot close this block: the innermost open block is '${innermost.keyword}'${openedAt ? ` (opened at line ${innermost.line})` : ''}, which closes with '${innermost.closer}'.`;
}

/** What is wrong with closer `word` right after its block's opener (or `else`), where a statement must come first. */
export function emptyBlockProblem(word: string): string {
  return `This block is empty: every block needs at least one statement before '${word}' (a comment alone does not count).`;
}

/** What is wrong with a `func` or `command` line (`word`) inside the open block `innermost`. */
export function declarationProblem(word: string, innermost: Pick<OpenBlock, 'keyword' | 'closer'>): string {
  return `'${word}' cannot start inside an open block: close the '${innermost.keyword}' block with '${innermost.closer}' first.`;
}

/** "the 'for each' block opened at line 4 and the 'command' block opened at line 1", innermost first. */
export function describeOpenBlocks(blocks: readonly OpenBlock[]): string {
  const described = [...blocks].reverse().map((block) => `the '${block.keyword}' block opened at line ${block.line}`);
  return described.length <= 1 ? described.join('') : `${described.slice(0, -1).join(', ')} and ${described.at(-1)}`;
}
