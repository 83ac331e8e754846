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

/**
 * Builds a captured io; `stdin` is what the command reads as standard input
 * (in 64 KiB chunks, like a pipe), and `stdinIsTerminal` pretends it is a terminal.
 */
export function captureIo(options: { stdin?: string | Uint8Array; cwd?: string; stdinIsTerminal?: boolean } = {}): CapturedIo {
  const bytes = typeof options.stdin === 'string' ? new TextEncoder().encode(options.stdin) : (options.stdin ?? new Uint8Array());
  const io: CapturedIo = {
    out: '',
    err: '',
    cwd: options.cwd ?? process.cwd(),
    env: {},
    stdinIsTerminal: options.stdinIsTerminal ?? false,
    async *stdin() {
      for (let offset = 0; offset < bytes.length; offset += 65_536) yield bytes.subarray(offset, offset + 65_536);
    },
    stdout: (text) => {
      io.out += text;
    },
    stderr: (text) => {
      io.err += text;
    },
  };
  return io;
}
