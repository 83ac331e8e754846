/**
 * A sandbox worker ends by SIGKILL on an error nothing caught (a message to a
 * host that is gone fails as an 'error' event), saying so on stderr: Node's
 * ordinary exit waits for a busy isolate thread, and a worker was seen hung
 * there after its host died, re-parented, every thread waiting.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { defaultWorkerEntry } from './worker-entry.ts';

describe('a sandbox worker with an uncaught error', () => {
  it('kills itself at once and says why on stderr', async () => {
    const entry = defaultWorkerEntry(new URL('./sandbox-pool.ts', import.meta.url).href);
    const child = fork(entry.path, [], { execArgv: ['--no-node-snapshot', ...entry.execArgv], serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await once(child, 'message'); // ready
    // A message the worker cannot read throws in its handler, outside any run: nothing catches it.
    child.send(null as never);
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });
    expect(stderr).toMatch(/askloop sandbox worker: uncaught TypeError/);
  });
});
