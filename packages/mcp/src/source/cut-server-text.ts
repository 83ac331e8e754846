/**
 * A server's error text cut to a bound. The host redacts the secrets it
 * knows (the model's key, the environment's) after the MCP layer hands an
 * error on, so a cut through the middle of a key would leave its start, which
 * no redactor recognises: the cut never ends inside a run of characters
 * without white space (a key, a token, a password holding `!` or `$`), and
 * says that it cut.
 */

/** A character a secret can hold: anything but white space. */
const TOKEN_CHARACTER = /\S/;

/** What a cut text ends with. */
export const CUT_MARK = '…';

/**
 * `text` when it is at most `limit` characters; else its start, ending before the word the limit falls in, and
 * `mark` (`…` by default; catalogue text passes `...`, since it keeps to one byte a character).
 */
export function cutServerText(text: string, limit: number, mark: string = CUT_MARK): string {
  if (text.length <= limit) return text;
  let end = limit;
  // Inside a run without white space: the whole run goes (a run longer than the limit goes whole too).
  if (TOKEN_CHARACTER.test(text.charAt(end))) while (end > 0 && TOKEN_CHARACTER.test(text.charAt(end - 1))) end -= 1;
  // Not between the halves of a surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + mark;
}
