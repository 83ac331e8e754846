/**
 * A failure as the model sees it next turn: one `SYSTEM_ERROR` line of JSON
 * in OUTPUT with the stable code, the message, the line and the offending
 * ACTIONS line, so the model can repair exactly what failed.
 */
import type { TurnFailure } from './turn-record.ts';

/** The SYSTEM_ERROR line (no trailing newline). */
export function systemErrorLine(failure: TurnFailure): string {
  const detail = {
    code: failure.code,
    message: failure.message,
    ...(failure.line === undefined || failure.line === 0 ? {} : { line: failure.line }),
    ...(failure.sourceLine === undefined ? {} : { source: failure.sourceLine }),
  };
  return `SYSTEM_ERROR ${JSON.stringify(detail)}`;
}

/** The 1-based `line` of `text`, trimmed, when it exists. */
export function sourceLineOf(text: string | undefined, line: number | undefined): string | undefined {
  if (text === undefined || line === undefined || line < 1) return undefined;
  const found = text.split(/\r?\n/)[line - 1];
  return found === undefined ? undefined : found.trim();
}
