/**
 * One shell word, quoted for sh, bash and zsh when it needs it. Its own file, importing nothing, because the
 * entry point's Node version check (`cli.ts`) uses it before anything else may load.
 */

// Words made only of these need no quotes in sh, bash or zsh.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One shell word: as it is when plain, else in single quotes (a `'` written `'\''`). */
export function shellQuote(word: string): string {
  return word !== '' && PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
