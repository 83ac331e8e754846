/**
 * A server's answer quoted in an error, cut to a bound. An SDK puts an error
 * response's whole body in its message: a proxy's 2.6 MB page made a 2.6 MB
 * message, saved with the turn, sent in events and printed on the terminal.
 * The cut never ends inside a run of characters without white space, where a
 * key may stand (the error is redacted after it is made, and the start of a
 * key cut in two is no longer a key any redactor knows).
 */

/** The most of an answer an error's message quotes. */
export const QUOTED_ANSWER_LIMIT = 2_000;

/** `text`, or its start up to `limit` before the word the limit falls in, saying how much more there was. */
export function cutAnswerText(text: string, limit: number = QUOTED_ANSWER_LIMIT): string {
  if (text.length <= limit) return text;
  let end = limit;
  const inWord = (index: number): boolean => index >= 0 && index < text.length && !/\s/.test(text.charAt(index));
  if (inWord(end)) while (inWord(end - 1)) end -= 1;
  // Not between the halves of a surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}… (${text.length - end} more characters of the answer)`;
}
