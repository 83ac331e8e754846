/**
 * A failure as the model sees it next turn (docs/protocol.md §3): a
 * `SYSTEM_ERROR` line in OUTPUT with the stable code, where, and the message,
 * then the offending ACTIONS line after `> `, so the model can repair exactly
 * what failed.
 */
import type { TurnFailure } from './turn-record.ts';

/** The SYSTEM_ERROR text: one line, plus the offending line when known (no trailing newline). */
export function systemErrorLine(failure: TurnFailure): string {
  const where = failure.line === undefined || failure.line < 1 ? '' : ` at line ${failure.line}${failure.column === undefined || failure.column < 1 ? '' : `, column ${failure.column}`}`;
  // One line each, whatever the message holds, so the text cannot pose as more OUTPUT lines.
  // An envelope error's message starts with its own "line N: ": said once, by `where`.
  const located = where === '' ? failure.message : failure.message.replace(new RegExp(`^line ${failure.line}: `), '');
  const message = located.replace(/\s*\r?\n\s*/g, ' ');
  const source = failure.sourceLine === undefined || failure.sourceLine === '' ? '' : `\n> ${failure.sourceLine.replace(/\r?\n/g, ' ')}`;
  return `SYSTEM_ERROR ${failure.code}${where}: ${message}${source}`;
}

/** The 1-based `line` of `text`, trimmed, when it exists. */
export function sourceLineOf(text: string | undefined, line: number | undefined): string | undefined {
  if (text === undefined || line === undefined || line < 1) return undefined;
  const found = text.split(/\r?\n/)[line - 1];
  return found === undefined ? undefined : found.trim();
}
