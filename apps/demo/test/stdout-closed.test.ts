/**
 * `askloop … | head -1`: when the reader of standard output goes away, the
 * CLI stops quietly with 141 (128 + SIGPIPE, as a shell reports for other
 * tools) instead of Node's unhandled EPIPE stack trace.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_SOURCE } from './spawn-cli.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'askloop-epipe-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs the CLI and closes its standard output after the first chunk, as `head -1` does. */
function runAndCloseStdout(args: string[]): Promise<{ code: number | null; stderr: string; firstChunk: string }> {
  const child = spawn(process.execPath, ['--conditions=@askloop/source', '--no-warnings', '--no-node-snapshot', CLI_SOURCE, ...args], { env: { ...process.env, XDG_DATA_HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let firstChunk = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  child.stdout.setEncoding('utf8').once('data', (text: string) => {
    firstChunk = text;
    child.stdout.destroy();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr, firstChunk })));
}

describe('standard output closed early', () => {
  it('askloop demo | head -1 ends with 141 and no stack trace', async () => {
    const { code, stderr, firstChunk } = await runAndCloseStdout(['demo']);
    expect(firstChunk).toContain('askloop demo');
    expect({ code, stderr }).toEqual({ code: 141, stderr: '' });
  });
});
