/**
 * The streams a command reads and writes. Commands never touch `process`
 * directly, so tests run them in-process with captured output.
 */
export interface CommandIo {
  /** Standard input as a byte stream; read it through `readInput`, which caps its size. */
  stdin(): AsyncIterable<Uint8Array>;
  /** True when standard input is a terminal: a command then refuses to wait on it. */
  stdinIsTerminal: boolean;
  /** Writes text to standard output. */
  stdout(text: string): void;
  /** Writes text to standard error. */
  stderr(text: string): void;
  /** The directory relative file names resolve against. */
  cwd: string;
  /** Environment variables the command may read. */
  env: Record<string, string | undefined>;
  /**
   * Environment variables that hold secrets whatever their names, as the files the command read name them (`${NAME}`
   * in an MCP server's `env` or `headers`, `tokenEnv:`): added to by `noteSecretNames`, read by `knownSecretNames` for every redactor.
   */
  secretNames?: Set<string>;
  /** True when standard output is a terminal (colour in tables); absent or false in pipes and tests. */
  stdoutIsTerminal?: boolean;
  /** Standard error when it is a terminal, for live progress redrawn in place (a spinner); absent in pipes and tests. */
  stderrTerminal?: NodeJS.WriteStream;
  /**
   * Runs `handler` on the first Ctrl-C (SIGINT) or SIGTERM (what `docker
   * stop`, `timeout` and service managers send) instead of exiting, until the
   * returned function is called; a second one exits at once (130 or 143).
   * Absent in tests that do not need it.
   */
  onInterrupt?(handler: (signal: InterruptSignal) => void): () => void;
}

/** A command's outcome: the process exit code (0 ok, 1 failure, 2 usage; the loop commands add 3 HALT and 4 PAUSED). */
export type ExitCode = 0 | 1 | 2 | 3 | 4 | 130 | 143;

/** One `askloop …` command, loaded from its module only when it runs. */
export interface Command {
  /** The usage text printed by `--help`. */
  usage: string;
  /**
   * Whether errors go to standard output as the JSON envelope
   * `{"ok":false,"error":{…}}` (commands whose output is JSON, or given
   * `--json`) rather than as one line on standard error. Default: never.
   */
  jsonErrors?: (args: readonly string[]) => boolean;
  run(args: string[], io: CommandIo): Promise<ExitCode>;
}

/** An entry of the command table: enough for `--help` without loading the command. */
export interface CommandEntry {
  /** The words that select the command: `demo`, `envelope parse`. */
  name: string;
  /** One line for `askloop --help`. */
  summary: string;
  /** Loads the command's module (a dynamic import, so start-up loads only the one that runs). */
  load: () => Promise<Command>;
}

/** The signals that ask a command to stop cleanly. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** How the signal that stops a command is named to its user: `Ctrl-C` or `SIGTERM`. */
export const signalName = (signal: InterruptSignal): string => (signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM');
