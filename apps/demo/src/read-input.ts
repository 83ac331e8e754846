import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from './cli-error.ts';
import { readCapped } from './input/read-capped.ts';
import type { CommandIo } from './io.ts';

/**
 * The most any one input may be: 4 MiB, four times the envelope codec's
 * 1 MiB limit, so the codec still reports its own size errors with a line
 * number, while a runaway input is refused after 4 MiB instead of filling
 * memory.
 */
export const MAX_INPUT_BYTES = 4 * 1024 * 1024;

/** The name diagnostics show for standard input. */
export const STDIN_NAME = '<stdin>';

/** The name an input is shown under: the path as given, or `<stdin>` for `-` or none. */
export function inputName(file: string | undefined): string {
  return file === undefined || file === '-' ? STDIN_NAME : file;
}

/**
 * Reads FILE as bytes, or standard input when FILE is `-` or absent, streaming
 * with a byte counter and stopping at `maxBytes` (`CLI_INPUT_TOO_LARGE`; a
 * `stat` would not see `/dev/zero` or a pipe). A missing or unreadable file is
 * `CLI_FILE_UNREADABLE`; standard input that is a terminal is
 * `CLI_STDIN_IS_TERMINAL` rather than a silent wait.
 */
export async function readInput(file: string | undefined, io: CommandIo, maxBytes: number = MAX_INPUT_BYTES): Promise<Uint8Array> {
  const name = inputName(file);
  let source: AsyncIterable<Uint8Array>;
  if (name === STDIN_NAME) {
    if (io.stdinIsTerminal) {
      throw new CliError('CLI_STDIN_IS_TERMINAL', 'no FILE given and standard input is a terminal; pass a FILE, or pipe the input in', { file: name });
    }
    source = io.stdin();
  } else {
    source = createReadStream(resolve(io.cwd, name), { highWaterMark: 64 * 1024 });
  }
  let read: Awaited<ReturnType<typeof readCapped>>;
  try {
    read = await readCapped(source, maxBytes);
  } catch (error) {
    throw new CliError('CLI_FILE_UNREADABLE', `cannot read: ${describeFsError(error)}`, { file: name });
  }
  if (!read.ok) {
    throw new CliError('CLI_INPUT_TOO_LARGE', `larger than the ${formatBytes(maxBytes)} input limit (stopped reading after ${formatBytes(read.bytesRead)})`, { file: name });
  }
  return read.bytes;
}

function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return error instanceof Error ? error.message : String(error);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
