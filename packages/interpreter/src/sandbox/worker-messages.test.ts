/**
 * What the real worker process sends, message by message: a run's events
 * ride in its next message (a tool call, the end of the run) instead of a
 * message of their own, and still arrive before it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS } from './sandbox-limits.ts';
import { defaultWorkerEntry } from './worker-entry.ts';
import type { ParentMessage, WorkerMessage } from './worker-protocol.ts';

const RUNTIME = `
globalThis.emitThenEnd = (input) => { __host.event('emit', { text: input.text }); __host.event('emit', { text: 'second' }); return 1; };
globalThis.emitThenCall = (input) => { __host.event('emit', { text: input.text }); const answer = __host.callTool('probe', []); __host.event('emit', { text: 'after' }); return answer; };
`;

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

/** Forks the worker, sends one run of `entry`, answers tool calls with `answer`, and collects every message to `done`. */
async function runOnWorker(entry: string, answer = '{"ok":true,"value":"pong"}'): Promise<WorkerMessage[]> {
  const { path, execArgv } = defaultWorkerEntry();
  // A flush timer far longer than any run: under load a 2 ms timer could fire between an event and the next message.
  const env = { ...process.env, ASKLOOP_SANDBOX_EVENT_FLUSH_MS: '60000' };
  const worker = fork(path, [], { execArgv: ['--no-node-snapshot', ...execArgv], serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env });
  child = worker;
  const messages: WorkerMessage[] = [];
  return new Promise((resolve, reject) => {
    worker.once('exit', (code) => reject(new Error(`the worker exited (${code})`)));
    worker.on('message', (message: WorkerMessage) => {
      messages.push(message);
      if (message.type === 'ready') {
        worker.send({ type: 'run', runId: 7, runtimeId: 'test@1', runtimeSource: RUNTIME, entry, inputJson: '{"text":"first"}', limits: DEFAULT_SANDBOX_LIMITS } satisfies ParentMessage);
      } else if (message.type === 'tool-call') {
        worker.send({ type: 'tool-result', runId: 7, callId: message.callId, outcomeJson: answer } satisfies ParentMessage);
      } else if (message.type === 'done') {
        resolve(messages);
      }
    });
  });
}

describe('worker messages', () => {
  it('sends a run that only emits as started and done, the events inside done', async () => {
    const messages = await runOnWorker('emitThenEnd');
    expect(messages.map((message) => message.type)).toEqual(['ready', 'started', 'done']);
    const done = messages.at(-1) as Extract<WorkerMessage, { type: 'done' }>;
    expect(done.events).toEqual(['emit', '{"text":"first"}', 'emit', '{"text":"second"}']);
    expect(done.outcome).toEqual({ ok: true, valueJson: '1' });
  });

  it('puts events made before a tool call in the tool-call message, and later ones in done', async () => {
    const messages = await runOnWorker('emitThenCall');
    expect(messages.map((message) => message.type)).toEqual(['ready', 'started', 'tool-call', 'done']);
    const [, , call, done] = messages as [WorkerMessage, WorkerMessage, Extract<WorkerMessage, { type: 'tool-call' }>, Extract<WorkerMessage, { type: 'done' }>];
    expect(call).toMatchObject({ name: 'probe', events: ['emit', '{"text":"first"}'] });
    expect(done.events).toEqual(['emit', '{"text":"after"}']);
  });
});
