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
globalThis.clockAroundCall = () => { const run = __host.now(); const real = Date.now(); const answer = __host.callTool('probe', []); return { answer, run: __host.now() - run, real: Date.now() - real }; };
`;

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

/** How the test host answers tool calls: after `delayMs`, reporting `toolMs` as its own time on the call (or nothing). */
interface Answering {
  readonly delayMs?: number;
  readonly toolMs?: number;
  readonly wallMs?: number;
}

/** Forks the worker, sends one run of `entry`, answers tool calls with `answer`, and collects every message to `done`. */
async function runOnWorker(entry: string, answer = '{"ok":true,"value":"pong"}', answering: Answering = {}): Promise<WorkerMessage[]> {
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
        const limits = { ...DEFAULT_SANDBOX_LIMITS, ...(answering.wallMs === undefined ? {} : { wallMs: answering.wallMs }) };
        worker.send({ type: 'run', runId: 7, runtimeId: 'test@1', runtimeSource: RUNTIME, entry, inputJson: '{"text":"first"}', limits } satisfies ParentMessage);
      } else if (message.type === 'tool-call') {
        const result: ParentMessage = { type: 'tool-result', runId: 7, callId: message.callId, outcomeJson: answer, ...(answering.toolMs === undefined ? {} : { toolMs: answering.toolMs }) };
        setTimeout(() => worker.send(result), answering.delayMs ?? 0);
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
    // What was left of the run's wall clock when it called: the host times the tool against it.
    expect(call.remainingMs).toBeGreaterThan(0);
    expect(call.remainingMs).toBeLessThanOrEqual(DEFAULT_SANDBOX_LIMITS.wallMs);
    expect(done.events).toEqual(['emit', '{"text":"after"}']);
  });
});

describe('worker messages: the run clock', () => {
  it("does not charge the run for a call's round trip beyond the host's own time on it, in the worker or in the isolate", async () => {
    // wallMs 300, the answer 600 ms late but the host's own time on it 0: a wait on a busy host, not the run's.
    const messages = await runOnWorker('clockAroundCall', '{"ok":true,"value":"pong"}', { wallMs: 300, delayMs: 600, toolMs: 0 });
    const done = messages.at(-1) as Extract<WorkerMessage, { type: 'done' }>;
    expect(done.outcome.ok).toBe(true);
    const value = JSON.parse((done.outcome as { valueJson: string }).valueJson) as { answer: unknown; run: number; real: number };
    expect(value.answer).toEqual({ ok: true, value: 'pong' });
    expect(value.real).toBeGreaterThanOrEqual(590);
    // The isolate's clock (what the evaluator's wallMs reads) skipped the wait.
    expect(value.run).toBeLessThan(value.real - 400);
  });

  it("charges the host's reported time on a call, and the whole round trip when the host reports none", async () => {
    for (const answering of [{ wallMs: 300, delayMs: 600, toolMs: 450 }, { wallMs: 300, delayMs: 600 }]) {
      const messages = await runOnWorker('clockAroundCall', '{"ok":true,"value":"pong"}', answering);
      const done = messages.at(-1) as Extract<WorkerMessage, { type: 'done' }>;
      expect(done.outcome).toMatchObject({ ok: false, code: 'SANDBOX_TIMEOUT', limit: { name: 'wallMs', value: 300 } });
      child?.kill('SIGKILL');
    }
  });
});
