/**
 * Diagnostics: what `parse` and `check` report instead of throwing. Plain,
 * JSON-copyable values; `message` is written to be fed back to a model.
 */
import type { ErrorKind } from '../runtime/error-codes.ts';
import type { NeededGrant } from '../runtime/needed-grant.ts';
import type { DiagnosticCode } from './diagnostic-codes.ts';

/** One problem found in a script, with a stable code and a 1-based position. */
export interface Diagnostic {
  /** Stable `SCRIPT_…` code (see `SCRIPT_ERROR_CODES` and the package README for fixes). */
  readonly code: DiagnosticCode;
  /** `error`: nothing runs. `warning`: the program may still run (the run reports it, and fails only if the warned-of code is reached). */
  readonly severity: 'error' | 'warning';
  /** The code's kind (`errorKind(code)`). */
  readonly kind: ErrorKind;
  /** What is wrong and how to fix it, in words a model can act on. */
  readonly message: string;
  readonly line: number;
  readonly column: number;
  /** The file name given to `parse`, when there was one. */
  readonly file?: string;
  /** The Go reference's numeric error code, where it has one (reference §1.10). */
  readonly numericCode?: number;
  /**
   * The tool a check's `SCRIPT_TOOL_UNKNOWN`, `SCRIPT_TOOL_DENIED`, `SCRIPT_TOOL_ARGUMENT_TYPE` or
   * `SCRIPT_TOOL_ARGUMENT_COUNT` is about, as the program wrote it (`tool.fs.Read`), so that a host can act on it
   * (offer the plugin that adds it) without reading the message.
   */
  readonly tool?: string;
  /**
   * For a check's `SCRIPT_TOOL_DENIED` that a grant would lift: the grant to add (unquoted) and the host's code of the
   * denial (`POLICY_CAPABILITY_MISSING`, `HTTP_HOST_DENIED`), so that a host tells its operator what to add without
   * reading the message. Absent otherwise.
   */
  readonly grant?: NeededGrant;
}

/** Orders diagnostics by file, line, column, then code: the stable order `check` returns. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    (a.file ?? '').localeCompare(b.file ?? '') ||
    a.line - b.line ||
    a.column - b.column ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}
