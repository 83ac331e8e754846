/**
 * Run-time script errors. Inside the evaluator they travel as a thrown
 * `ScriptError` (cheaper than completion records on the hot path); at the run
 * boundary they become `ScriptErrorData`, plain JSON. Any other exception is an
 * interpreter bug and surfaces as `SCRIPT_INTERNAL`.
 */
import { errorKind, numericCodeOf, skipsHandlers, type ErrorKind, type ScriptErrorCode } from './error-codes.ts';
import type { NeededGrant } from './needed-grant.ts';

/** Where something happened: a 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** One call frame, innermost first: a function or `command` block and where it was. */
export interface ErrorFrame {
  /** Function name, or `command` for a command block. */
  readonly name: string;
  /** Where the failing statement (innermost) or the call (outer frames) is. */
  readonly line: number;
  readonly column: number;
}

/** A script error as plain data: what a run returns and what crosses the isolate boundary. */
export interface ScriptErrorData {
  /** Stable `SCRIPT_…` code (see `SCRIPT_ERROR_CODES`). */
  readonly code: ScriptErrorCode;
  /** What kind of failure it is (`errorKind(code)`): what a host maps to its own outcome. */
  readonly kind: ErrorKind;
  /** The Go reference's numeric code (reference §1.10), where one exists. */
  readonly numericCode?: number;
  readonly message: string;
  /** 1-based position of the failing node; 0 when it has none (e.g. a host failure). */
  readonly line: number;
  readonly column: number;
  /** Call frames, innermost first. */
  readonly frames: readonly ErrorFrame[];
  /**
   * For a tool call the host's policy denied for want of a grant (`SCRIPT_TOOL_DENIED`): the grant that allows it
   * and the host's code of the denial, as data, so that a host tells its operator what to add without reading the
   * message. Absent otherwise.
   */
  readonly grant?: NeededGrant;
}

/** The throwable carrier of a script error inside the evaluator. */
export class ScriptError {
  readonly code: ScriptErrorCode;
  readonly numericCode: number | undefined;
  readonly message: string;
  /** See {@link ScriptErrorData.grant}. */
  readonly grant: NeededGrant | undefined;
  line: number;
  column: number;
  frames: ErrorFrame[] = [];
  /** Quota, timeout, cancellation and interpreter errors skip `on error` handlers. */
  readonly fatal: boolean;
  /** The function activation whose handler already saw this error (so enclosing blocks do not re-run it). */
  handledBy: unknown = null;
  constructor(code: ScriptErrorCode, message: string, where?: Position | null, numericCode?: number, grant?: NeededGrant) {
    this.code = code;
    this.message = message;
    this.grant = grant;
    this.line = where?.line ?? 0;
    this.column = where?.column ?? 0;
    this.numericCode = numericCode ?? numericCodeOf(code);
    this.fatal = skipsHandlers(errorKind(code));
  }

  /** The error as plain data. */
  toData(): ScriptErrorData {
    return {
      code: this.code,
      kind: errorKind(this.code),
      ...(this.numericCode === undefined ? {} : { numericCode: this.numericCode }),
      message: this.message,
      line: this.line,
      column: this.column,
      frames: this.frames,
      ...(this.grant === undefined ? {} : { grant: this.grant }),
    };
  }
}

/** Throws a `ScriptError` (a helper so call sites stay expressions). */
export function fail(code: ScriptErrorCode, message: string, where?: Position | null): never {
  throw new ScriptError(code, message, where);
}
