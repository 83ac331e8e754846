/**
 * A failure as the model sees it next turn (docs/protocol.md §3): a
 * `SYSTEM_ERROR` line in OUTPUT with the stable code, where, and the message,
 * then the offending ACTIONS line after `> `, so the model can repair exactly
 * what failed.
 */
import { compareDiagnostics, type Diagnostic } from '@askloop/interpreter';
import type { TurnFailure, TurnRecord } from './turn-record.ts';

/**
 * At most this many of a failed check's errors go back to the model at once:
 * enough that a program with several mistakes is mended in one repair, few
 * enough that a program full of them does not fill OUTPUT.
 */
export const MAX_CHECK_ERRORS_FED_BACK = 5;

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

/** The error-severity diagnostics of a check, in source order (warnings never stop a program). */
export function checkErrors(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((diagnostic) => diagnostic.severity === 'error').sort(compareDiagnostics);
}

/** The failure one error of the check of `actions` stands for: a static error is never a run-time one. */
export function checkFailureOf(diagnostic: Diagnostic, actions: string): TurnFailure {
  const sourceLine = sourceLineOf(actions, diagnostic.line);
  return {
    code: diagnostic.code,
    // What is not syntax or permission is a check failure.
    kind: diagnostic.kind === 'syntax' || diagnostic.kind === 'permission' ? diagnostic.kind : 'check',
    message: diagnostic.message,
    line: diagnostic.line,
    column: diagnostic.column,
    ...(sourceLine === undefined ? {} : { sourceLine }),
    ...(diagnostic.grant === undefined ? {} : { grant: diagnostic.grant }),
  };
}

/**
 * The SYSTEM_ERROR text fed back for `record`'s failure (no trailing newline):
 * for a program its check refused, every error the check found, in source
 * order, each as its own SYSTEM_ERROR line with its offending line (at most
 * {@link MAX_CHECK_ERRORS_FED_BACK}, then how many more, in ASCII as the
 * rest of the host's words), so one repair can
 * mend them all; for any other failure, its one line.
 */
export function failureFeedback(failure: TurnFailure, record: Pick<TurnRecord, 'diagnostics' | 'actions'>): string {
  // Errors in the diagnostics mean the check refused the program: nothing ran, and `failure` is the first of them.
  const { actions } = record;
  const errors = actions === undefined ? [] : checkErrors(record.diagnostics);
  if (errors.length === 0 || actions === undefined) return systemErrorLine(failure);
  const shown = errors.slice(0, MAX_CHECK_ERRORS_FED_BACK).map((error) => systemErrorLine(checkFailureOf(error, actions)));
  const more = errors.length - shown.length;
  if (more > 0) shown.push(`... and ${more} more ${more === 1 ? 'error' : 'errors'}: the check lists ${more === 1 ? 'it' : 'them'} again once these are fixed.`);
  return shown.join('\n');
}
