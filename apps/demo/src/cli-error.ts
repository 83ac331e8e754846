/**
 * The one error class of the `askloop` command. Every failure the CLI itself
 * detects (usage, an unreadable or oversized input, invalid UTF-8, an option
 * out of range) is a `CliError` with a stable `code` listed in the README, and
 * the dispatcher prints it in one line (or as the `--json` error envelope).
 */

/** Stable codes of {@link CliError}; each is listed in apps/demo/README.md with its fix. */
export type CliErrorCode =
  | 'CLI_USAGE'
  | 'CLI_OPTION_INVALID'
  | 'CLI_FILE_UNREADABLE'
  | 'CLI_INPUT_TOO_LARGE'
  | 'CLI_INPUT_ENCODING'
  | 'CLI_STDIN_IS_TERMINAL'
  | 'CLI_INPUT_INVALID'
  | 'CLI_SESSION_ENDED'
  | 'CLI_SCRIPT_INVALID';

/** Where in an input a {@link CliError} happened. */
export interface CliErrorLocation {
  /** The file as given on the command line, or `<stdin>`. */
  file?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
}

/** The JSON form of an error, as every `--json` output prints it under `error`. */
export interface CliErrorJson {
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

/** The exit code of each code: 1 when the input was read and is wrong, 2 when the command could not start. */
const EXIT_CODES: Record<CliErrorCode, 1 | 2> = {
  CLI_USAGE: 2,
  CLI_OPTION_INVALID: 2,
  CLI_FILE_UNREADABLE: 2,
  CLI_INPUT_TOO_LARGE: 2,
  CLI_STDIN_IS_TERMINAL: 2,
  CLI_INPUT_ENCODING: 1,
  CLI_INPUT_INVALID: 1,
  CLI_SESSION_ENDED: 1,
  CLI_SCRIPT_INVALID: 1,
};

/**
 * A failure the CLI detected, with its exit code and, when known, the place
 * in the input. The message does not repeat the file name: the text output
 * prefixes `FILE:LINE:COLUMN: ` and the JSON has `file`.
 */
export class CliError extends Error {
  override name = 'CliError';
  /** A {@link CliErrorCode}, or the code of a library error reported through {@link CliError.fromLibrary}. */
  readonly code: string;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** 1 when the input was read and is wrong, 2 when the command could not start (usage, unreadable, too large); 130 or 143 when it was interrupted before it began. */
  readonly exitCode: 1 | 2 | 130 | 143;

  constructor(code: CliErrorCode, message: string, location: CliErrorLocation = {}) {
    super(message);
    this.code = code;
    this.file = location.file;
    this.line = location.line;
    this.column = location.column;
    this.exitCode = EXIT_CODES[code];
  }

  /**
   * Reports a library's typed error (an envelope codec `ERR_ENV_…`) in the
   * CLI's shape, keeping its code and line and naming the input: exit 1.
   */
  static fromLibrary(error: { code: string; message: string; line?: number | undefined }, file: string): CliError {
    const copy = new CliError('CLI_INPUT_ENCODING', error.message, { file, line: error.line });
    (copy as { code: string }).code = error.code;
    return copy;
  }

  /**
   * Reports a controller's `LoopError` (`LOOP_…`: an invalid agent file, an
   * unknown session, a store failure) with its own code: the loop could not
   * start or continue, exit 1. `file` names the input it came from, if any;
   * an error at a place in it (`line`, `column`: an agent file's unknown tag)
   * keeps the place, which the message then does not repeat.
   */
  static fromLoopError(error: { code: string; message: string; line?: number | undefined; column?: number | undefined }, file?: string): CliError {
    const placed = file !== undefined && error.line !== undefined && error.column !== undefined;
    const place = placed ? { line: error.line, column: error.column } : {};
    const message = file === undefined ? error.message : withoutPath(placed ? withoutPlace(error.message, `${file}:${error.line}:${error.column}: `) : error.message, file);
    const copy = new CliError('CLI_SCRIPT_INVALID', message, { file, ...place });
    (copy as { code: string }).code = error.code;
    return copy;
  }

  /**
   * Reports a service the command needed that failed — an MCP server that
   * did not start or list its tools (`MCP_…`) — with its own code: the
   * command line was right, the command could not do its work, exit 1.
   * `context` (`--mcp-config FILE: `) says which option brought it in.
   */
  static fromService(error: { code: string; message: string }, context: string): CliError {
    const copy = new CliError('CLI_SCRIPT_INVALID', `${context}${error.message}`);
    (copy as { code: string }).code = error.code;
    return copy;
  }

  /**
   * A command interrupted (Ctrl-C, SIGTERM) before it began its work, which
   * is therefore not done at all: the library's code (`LOOP_CANCELLED`) and
   * the shell's exit code for the signal, 130 or 143.
   */
  static interrupted(error: { code: string; message: string }, signal: 'SIGINT' | 'SIGTERM'): CliError {
    const copy = new CliError('CLI_SCRIPT_INVALID', error.message);
    Object.assign(copy, { code: error.code, exitCode: signal === 'SIGINT' ? 130 : 143 });
    return copy;
  }

  /** The `error` object of the JSON envelope. */
  toJSON(): CliErrorJson {
    return {
      code: this.code,
      message: this.message,
      ...(this.file === undefined ? {} : { file: this.file }),
      ...(this.line === undefined ? {} : { line: this.line }),
      ...(this.column === undefined ? {} : { column: this.column }),
    };
  }
}

/** Shorthand for the most common error: one wrong thing on the command line. */
export function usageError(message: string): CliError {
  return new CliError('CLI_USAGE', message);
}

/**
 * `message` without the mentions of `file` that the text output's `FILE: `
 * prefix makes redundant: a store's "failed in open: store open of FILE
 * failed: …" would read the path twice.
 */
function withoutPath(message: string, file: string): string {
  const text = message.split(` of ${file}`).join('');
  return text.startsWith(`${file}: `) ? text.slice(file.length + 2) : text.startsWith(`${file} `) ? text.slice(file.length + 1) : text;
}

/** `message` without its leading `place` (`FILE:LINE:COLUMN: `), which the text output's prefix and the JSON's fields give. */
function withoutPlace(message: string, place: string): string {
  return message.startsWith(place) ? message.slice(place.length) : message;
}
