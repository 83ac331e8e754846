/**
 * Workers exit when their host is gone. Unit tests drive the watcher with
 * injected probes; the process tests SIGKILL / SIGTERM a real parent that
 * holds a pool whose worker is busy (an endless loop, or a tool call that
 * never returns) and wait for the worker's pid to disappear (regression:
 * orphaned workers lived on for minutes).
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { watchParent } from './parent-watch.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitUntilGone(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('watchParent', () => {
  it('exits on disconnect, once', () => {
    const channel = new EventEmitter();
    let exits = 0;
    watchParent({ channel, parentPid: 1, currentParentPid: () => 1, isAlive: () => true, exit: () => (exits += 1) });
    channel.emit('disconnect');
    channel.emit('disconnect');
    expect(exits).toBe(1);
  });

  it('exits when re-parented or when the parent no longer exists (the backstop)', async () => {
    for (const probe of [{ currentParentPid: () => 1, isAlive: () => true }, { currentParentPid: () => 42, isAlive: () => false }]) {
      const exited = new Promise<void>((resolve) => watchParent({ channel: new EventEmitter(), parentPid: 42, intervalMs: 5, ...probe, exit: resolve }));
      await expect(exited).resolves.toBeUndefined();
    }
  });

  it('does nothing while the parent lives, and stops cleanly', async () => {
    const channel = new EventEmitter();
    let exits = 0;
    const stop = watchParent({ channel, parentPid: 42, currentParentPid: () => 42, isAlive: () => true, intervalMs: 1, exit: () => (exits += 1) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    channel.emit('disconnect');
    expect(exits).toBe(0);
  });
});

const here = path.dirname(fileURLToPath(import.meta.url));
const PARENT = `
import { execFileSync } from 'node:child_process';
const { createSandboxPool } = await import(${JSON.stringify(path.join(here, 'sandbox-pool.ts'))});
const { runtimeOf } = await import(${JSON.stringify(path.join(here, 'sandbox-test-runtimes.ts'))});
const pool = createSandboxPool({ workers: 1, limits: { wallMs: 600000 } });
await pool.warmup();
const body = process.argv[2] === 'loop' ? 'for (;;) {}' : 'return __host.callTool("tool.wait", []);';
let started;
const running = new Promise((resolve) => (started = resolve));
void pool.run({ runtime: runtimeOf(body), entry: 'main', input: null, limits: { wallMs: 600000 }, onToolCall: () => { started(); return new Promise(() => {}); }, onEvent: () => {} });
if (process.argv[2] === 'loop') setTimeout(started, 300);
await running;
const workers = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
  .split('\\n').filter((line) => line.includes('worker-main')).map((line) => Number(line.trim().split(/\\s+/)[0]));
console.log(JSON.stringify(workers));
setInterval(() => {}, 1000);
`;

describe.runIf(process.platform === 'linux')('a worker whose host is killed exits', () => {
  it.each([
    ['SIGKILL', 'loop'],
    ['SIGKILL', 'tool'],
    ['SIGTERM', 'tool'],
  ] as const)('%s of the host while the worker runs %s', async (signal, mode) => {
    const directory = mkdtempSync(path.join(tmpdir(), 'askloop-orphan-'));
    const script = path.join(directory, 'parent.mjs');
    writeFileSync(script, PARENT);
    try {
      const parent = spawn(process.execPath, ['--no-node-snapshot', '--conditions=@askloop/source', script, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
      const workers = await new Promise<number[]>((resolve, reject) => {
        let output = '';
        parent.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('\n')) resolve(JSON.parse(output.trim()) as number[]);
        });
        parent.on('exit', () => reject(new Error(`the parent exited early: ${output}`)));
      });
      expect(workers).toHaveLength(1);
      expect(alive(workers[0] as number)).toBe(true);
      parent.kill(signal);
      // No timing assertion: were the worker orphaned, this would outlive the test's timeout.
      await waitUntilGone(workers[0] as number);
      expect(alive(workers[0] as number)).toBe(false);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 30_000);
});
