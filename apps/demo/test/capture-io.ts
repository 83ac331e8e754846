/**
 * An in-memory `CommandIo` for running `main` in tests: standard input from a
 * string, standard output and error captured.
 */
import type { CommandIo } from '../src/io.ts';

/** A CommandIo that records what the command printed. */
export interface CapturedIo extends CommandIo {
  out: string;
  err: string;
}

/** Builds a captured io; `stdin` is what the command reads as standard input. */
export function captureIo(options: { stdin?: string | Uint8Array; cwd?: string } = {}): CapturedIo {
  const io: CapturedIo = {
    out: '',
    err: '',
    cwd: options.cwd ?? process.cwd(),
    env: {},
    readStdin: async () => (typeof options.stdin === 'string' ? new TextEncoder().encode(options.stdin) : (options.stdin ?? new Uint8Array())),
    stdout: (text) => {
      io.out += text;
    },
    stderr: (text) => {
      io.err += text;
    },
  };
  return io;
}
