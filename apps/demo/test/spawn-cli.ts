/**
 * Runs the real `askloop` from its TypeScript sources in a child Node process
 * (the same Node as the tests), for what in-process tests cannot show: real
 * files like /dev/zero, real pipes, the process exit code.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI entry in the sources. */
export const CLI_SOURCE = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/** What a finished child process printed and how it ended. */
export interface SpawnResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Bytes of `stdin` the child accepted before it exited (all of them unless it stopped reading). */
  stdinAccepted: number;
  /** The error writing standard input ended with (EPIPE when the child stopped reading and exited). */
  stdinError: string | undefined;
}

/**
 * Spawns `node [nodeArgs] script args`; `stdin`, when given, is written in
 * 64 KiB chunks up to `stdinBytes` bytes of zeros, stopping at the first write error.
 * Node's own warnings are off unless `nodeWarnings` (for a test that a command prints none, as the built `askloop` would).
 * `wrapper` runs Node under another command (`setpriv … --`).
 */
export function spawnCli(args: string[], options: { node?: string; script?: string; stdinBytes?: number; cwd?: string; env?: Record<string, string>; nodeWarnings?: boolean; wrapper?: readonly string[] } = {}): Promise<SpawnResult> {
  const node = options.node ?? process.execPath;
  const nodeArgs = options.node === undefined ? ['--conditions=@askloop/source', ...(options.nodeWarnings === true ? [] : ['--no-warnings'])] : [];
  // `wrapper`: a command that runs Node (`setpriv … --`), for a test of what a process with fewer rights meets.
  const [command, ...commandArgs] = [...(options.wrapper ?? []), node, ...nodeArgs, options.script ?? CLI_SOURCE, ...args];
  const child = spawn(command!, commandArgs, { stdio: ['pipe', 'pipe', 'pipe'], ...(options.cwd === undefined ? {} : { cwd: options.cwd }), ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } }) });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const result = { stdinAccepted: 0, stdinError: undefined as string | undefined };
  const chunk = new Uint8Array(65_536);
  const feed = async (): Promise<void> => {
    let left = options.stdinBytes ?? 0;
    while (left > 0) {
      const piece = chunk.subarray(0, Math.min(chunk.length, left));
      const ok = await new Promise<boolean>((resolve) => {
        child.stdin.write(piece, (error) => {
          if (error) result.stdinError = (error as NodeJS.ErrnoException).code ?? error.message;
          resolve(!error);
        });
      });
      if (!ok) return;
      result.stdinAccepted += piece.length;
      left -= piece.length;
    }
    child.stdin.end();
  };
  child.stdin.on('error', (error: NodeJS.ErrnoException) => {
    result.stdinError ??= error.code ?? error.message;
  });
  const fed = options.stdinBytes === undefined ? (child.stdin.end(), Promise.resolve()) : feed();
  return new Promise((resolve) => {
    child.on('close', async (code) => {
      await fed;
      resolve({ code, stdout, stderr, ...result });
    });
  });
}
