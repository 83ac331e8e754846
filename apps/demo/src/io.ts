/**
 * The streams a command reads and writes. Commands never touch `process`
 * directly, so tests run them in-process with captured output.
 */
export interface CommandIo {
  /** Reads all of standard input as bytes. */
  readStdin(): Promise<Uint8Array>;
  /** Writes text to standard output. */
  stdout(text: string): void;
  /** Writes text to standard error. */
  stderr(text: string): void;
  /** The directory relative file names resolve against. */
  cwd: string;
  /** Environment variables the command may read. */
  env: Record<string, string | undefined>;
}

/** A command's outcome: the process exit code (0 ok, 1 failure, 2 usage). */
export type ExitCode = 0 | 1 | 2;

/** One `askloop <group> <name>` command. */
export interface Command {
  /** The sub-command word, e.g. `parse`. */
  name: string;
  /** One line for `--help`. */
  summary: string;
  /** The usage text printed by `--help` and on usage errors. */
  usage: string;
  run(args: string[], io: CommandIo): Promise<ExitCode>;
}

/** A group of commands, e.g. `askloop envelope …`. */
export interface CommandGroup {
  name: string;
  summary: string;
  commands: Command[];
}

/** Thrown by argument parsing; the dispatcher prints it with the usage and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
