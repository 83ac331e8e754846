/**
 * A controller's edges: close() with runs in flight cancels them (each ends
 * HALT ERR_CANCELLED, resumable by another controller) and waits for them
 * before the pool and store close; a call after close() is LOOP_CLOSED and
 * stores nothing; a signal that is not an AbortSignal, or no options at all,
 * is LOOP_ARGUMENT_INVALID before anything is stored; a hand-made model whose
 * generate() resolves no text halts ERR_PROVIDER (PROVIDER_BAD_RESPONSE)
 * instead of crashing the call; createAskLoop's options are checked, each
 * bad one named (LOOP_CONFIG_INVALID).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxPool } from '@askloop/interpreter';
import { defineProvider, type LanguageModel } from '@askloop/providers';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-close-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m' };

describe('close()', () => {
  it('cancels the runs in flight, waits for them, and leaves each resumable', async () => {
    const file = join(dir, 'close.db');
    const slow = { text: program('emit "<<<LOOP:DONE>>> late"'), delayMs: 5_000 };
    const loop = createAskLoop({ plugins: [testPlugin({ m: [slow, slow, slow] })], store: createSqliteTranscriptStore(file) });
    const runs = ['a', 'b', 'c'].map((sid) => loop.run({ agent, task: 'x', sid }));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const started = Date.now();
    await loop.close();
    expect(Date.now() - started).toBeLessThan(4_000);
    for (const result of await Promise.all(runs)) expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    // Another controller on the same file finishes them.
    const again = createAskLoop({ plugins: [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> resumed"')] })], store: createSqliteTranscriptStore(file), pool });
    expect(await again.resume('a')).toMatchObject({ status: 'DONE', result: 'resumed' });
    await again.close();
  });

  it('refuses every call made after it (LOOP_CLOSED), storing nothing; a second close() is the first', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "x"')] })], store, pool });
    const closing = loop.close();
    expect(loop.close()).toBe(closing);
    await closing;
    await expect(loop.run({ agent, task: 'x', sid: 'late' })).rejects.toMatchObject({ code: 'LOOP_CLOSED' });
    await expect(loop.resume('late')).rejects.toMatchObject({ code: 'LOOP_CLOSED' });
    await expect(loop.replay('late')).rejects.toMatchObject({ code: 'LOOP_CLOSED' });
    await expect(loop.create({ agent, task: 'x', sid: 'late' })).rejects.toMatchObject({ code: 'LOOP_CLOSED' });
    // Whatever else is wrong with a call after close(), it is LOOP_CLOSED: a host rebuilds its controller on that code.
    await expect(loop.run({ agent, task: 'x', signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'LOOP_CLOSED' });
    await expect(loop.run({ agent, task: 'x', agnt: 1 } as never)).rejects.toMatchObject({ code: 'LOOP_CLOSED' });
  });
});

describe('createAskLoop options', () => {
  const store = () => createMemoryTranscriptStore();
  it.each([
    ['a misspelt option', () => ({ plugins: [], store: store(), maxConcurentRuns: 2 }), "createAskLoop has no option 'maxConcurentRuns'; did you mean 'maxConcurrentRuns'?"],
    ['busy that is neither wait nor reject', () => ({ plugins: [], store: store(), busy: 'nope' }), `busy must be 'wait' or 'reject', got "nope"`],
    ['onEvent that is not a function', () => ({ plugins: [], store: store(), onEvent: 'x' }), 'onEvent must be a function, got "x"'],
    ['a store without its methods', () => ({ plugins: [], store: {} }), 'store must be a transcript store (createSqliteTranscriptStore(file), createMemoryTranscriptStore(), …): it has no createSession() method'],
    ['a clock without now()', () => ({ plugins: [], store: store(), clock: 5 }), 'clock must be { now(): number } (milliseconds), got 5'],
    ['plugins that are not a list', () => ({ plugins: 'x', store: store() }), 'plugins must be a list of plugins ([builtinPlugin(), …]), got "x"'],
    ['no options at all', () => undefined, 'createAskLoop needs its options: { plugins, store, … }, got undefined'],
    ['a pool that is a number', () => ({ plugins: [], store: store(), pool: 42 }), 'pool must be a sandbox pool ({ run }: createSandboxPool() of @askloop/interpreter), got 42'],
    ['an interpreter without execute', () => ({ plugins: [], store: store(), interpreter: { prepare: () => {} } }), "interpreter must be an interpreter ({ prepare, execute }: createDefaultInterpreter(pool), which gives each run the loop's ask hook), it has no execute() method"],
    ['tool stores that are a number', () => ({ plugins: [], store: store(), toolStores: 5 }), "toolStores must be the tools' stores { memory, scratch, idempotence } (openSqliteStore(file) of @askloop/tools, or a database package's own), got 5"],
    ['tool stores without scratch', () => ({ plugins: [], store: store(), toolStores: { memory: {}, idempotence: {} } }), 'it has no scratch store'],
    ['a negative idempotence retention', () => ({ plugins: [], store: store(), idempotenceRetentionMs: -1 }), 'idempotenceRetentionMs must be a whole number of milliseconds >= 0 (Infinity keeps every record), got -1'],
    ['a fractional idempotence retention', () => ({ plugins: [], store: store(), idempotenceRetentionMs: 1500.5 }), 'idempotenceRetentionMs must be a whole number of milliseconds >= 0 (Infinity keeps every record), got 1500.5'],
    ['an idempotence retention that is not a number', () => ({ plugins: [], store: store(), idempotenceRetentionMs: '1h' }), 'idempotenceRetentionMs must be a whole number of milliseconds >= 0 (Infinity keeps every record), got 1h'],
  ])('refuses %s, naming it (LOOP_CONFIG_INVALID)', (_, options, message) => {
    expect(() => createAskLoop(options() as never)).toThrow(expect.objectContaining({ code: 'LOOP_CONFIG_INVALID', message: expect.stringContaining(message) }));
  });
});

describe('misuse', () => {
  it('refuses a signal that is not an AbortSignal, and a run without options, before anything is stored', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "x"')] })], store, pool });
    await expect(loop.run({ agent, task: 'x', sid: 's', signal: 'abc' as unknown as AbortSignal })).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID', message: 'run: signal must be an AbortSignal, got string; nothing was stored' });
    await expect((loop.run as (options?: unknown) => Promise<unknown>)()).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID' });
    await expect(loop.resume('s', 'x' as never)).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID' });
    expect(await store.getSession('s')).toBeUndefined();
    await loop.close();
  });

  it.each([
    ['a misspelt option', { agnt: 'worker', task: 'x' }, "run: there is no option 'agnt'; did you mean 'agent'? (the options: agent, task, sid, signal, onEvent); nothing was stored"],
    ["an agent's ceiling given to the call", { agent, task: 'x', maxTurns: 3 }, "run: 'maxTurns' is not an option of the call: it belongs in an agent's ceilings.maxTurns (the options: agent, task, sid, signal, onEvent); nothing was stored"],
    ['an onEvent that is not a function', { agent, task: 'x', onEvent: 5 }, 'run: onEvent must be a function, got 5; nothing was stored'],
  ])('refuses %s with LOOP_ARGUMENT_INVALID naming it, storing nothing', async (_, options, message) => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "x"')] })], store, pool });
    await expect(loop.run(options as never)).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID', message });
    expect(await store.listSessions()).toEqual([]);
    await loop.close();
  });

  it('refuses a note that is not text, and a signal already aborted (LOOP_CANCELLED), changing nothing', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "x"')] })], store, pool });
    await expect(loop.run({ agent, task: 'x', signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'LOOP_CANCELLED', message: 'run: the signal was aborted before the call began; nothing was stored or changed' });
    expect(await store.listSessions()).toEqual([]);
    await expect(loop.approve('s', { note: 5 } as never)).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID', message: 'approve: note must be text, got 5; nothing was stored' });
    // A note is in the options every continuation takes (only approve and deny record it): step and resume accept it.
    const sid = await loop.create({ agent, task: 'x' });
    await expect(loop.step(sid, { note: 'from the operator' })).resolves.toMatchObject({ sid });
    // A session id that is no id is named by the call it was given to.
    await expect(loop.step(5 as never)).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID', message: expect.stringMatching(/^step: the session id 5 /) });
    await loop.close();
  });

  it("halts ERR_PROVIDER (PROVIDER_BAD_RESPONSE) when a hand-made model's generate() resolves no text", async () => {
    const broken = defineProvider({ name: 'broken', settings: {}, attempt: () => async () => ({ text: 'unused', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop', raw: null }) });
    // A LanguageModel written by hand, not through defineProvider: nothing checks what it resolves.
    const handMade = { ...broken, languageModel: (id: string) => ({ ...broken.languageModel(id), generate: async () => ({ text: null }) }) as unknown as LanguageModel };
    const loop = createAskLoop({ plugins: [definePlugin({ name: 'broken', specificationVersion: 'v1', providers: { broken: handMade } })], store: createMemoryTranscriptStore(), pool });
    const result = await loop.run({ agent: { name: 'a', model: 'broken:m' }, task: 'x' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', failure: { code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining('resolved a reply whose text is null, not a string') } });
    await loop.close();
  });
});
