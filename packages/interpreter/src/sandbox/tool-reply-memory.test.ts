/**
 * A tool call's answer reaches the waiting isolate through its context's
 * reply memory (`tool-reply-memory.ts`), or, when it is longer than that
 * memory holds, by a synchronous call: every answer arrives whole and exact,
 * in order, and a run stopped while it waits is woken. Real isolates in a
 * real worker process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_SOURCE, toolReply } from './isolate-sources.ts';
import { createSandboxPool } from './sandbox-pool.ts';
import type { SandboxPool } from './sandbox-pool-types.ts';
import { runtimeOf } from './sandbox-test-runtimes.ts';
import { createReplyMemory, deliverReply, REPLY_READY, REPLY_TAKE, REPLY_TEXT_UNITS } from './tool-reply-memory.ts';

let pool: SandboxPool;
beforeAll(async () => {
  pool = createSandboxPool({ workers: 1, limits: { wallMs: 20_000 } });
  await pool.warmup();
});
afterAll(async () => {
  await pool.close();
});

/** Text of `units` UTF-16 units holding ASCII, a two-unit emoji, an accented letter and a lone surrogate. */
function mixedText(units: number): string {
  const piece = 'ab😀é\uD800c';
  let text = '';
  while (text.length + piece.length <= units) text += piece;
  return text + 'x'.repeat(units - text.length);
}

/** A runtime that calls `echo` with each length of `input` and returns what came back, with its length. */
const ECHO_LENGTHS = runtimeOf(
  `return input.map((units) => { const outcome = __host.callTool('echo', [units]); return outcome.ok ? outcome.value : outcome; });`,
  'echo-lengths',
);

describe('sandbox: a tool call is answered through the context reply memory', () => {
  it('hands over answers that fit and answers that do not, whole and exact (emoji, accents, lone surrogates)', async () => {
    // The outcome JSON and the "0 " in front of it take some units: lengths around the memory's size on both sides.
    const lengths = [0, 1, 100, REPLY_TEXT_UNITS - 40, REPLY_TEXT_UNITS - 1, REPLY_TEXT_UNITS, REPLY_TEXT_UNITS + 1, 3 * REPLY_TEXT_UNITS + 7, 200_000];
    const result = await pool.run({ runtime: ECHO_LENGTHS, entry: 'main', input: lengths, onToolCall: (_name, args) => mixedText((args as number[])[0] as number) });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const values = result.value as string[];
    expect(values.map((value) => value.length)).toEqual(lengths);
    values.forEach((value, index) => expect(value).toBe(mixedText(lengths[index] as number)));
  });

  it('answers a long run of calls in order, the long answers among the short ones too', async () => {
    const lengths = Array.from({ length: 2_000 }, (_, index) => (index % 97 === 0 ? REPLY_TEXT_UNITS + index : index % 13));
    const result = await pool.run({ runtime: ECHO_LENGTHS, entry: 'main', input: lengths, limits: { maxToolCalls: lengths.length }, onToolCall: (_name, args) => mixedText((args as number[])[0] as number) });
    expect(result).toMatchObject({ ok: true, usage: { toolCalls: lengths.length } });
    if (result.ok) expect((result.value as string[]).map((value) => value.length)).toEqual(lengths);
  });

  it('wakes a run the host stops while the isolate waits for an answer, long or short', async () => {
    for (const units of [5, 2 * REPLY_TEXT_UNITS]) {
      const cancel = new AbortController();
      const started = performance.now();
      const result = await pool.run({
        runtime: runtimeOf(`__host.callTool('first', []); __host.callTool('hang', []); return 'not reached';`, `stop-${units}`),
        entry: 'main',
        input: null,
        signal: cancel.signal,
        onToolCall: (name) => {
          if (name === 'first') return 'y'.repeat(units);
          setTimeout(() => cancel.abort(), 20);
          return new Promise(() => {});
        },
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_ABORTED' } });
      // Far less than the run's 20 s wall clock: the wait ended with the cancel.
      expect(performance.now() - started).toBeLessThan(10_000);
      // The worker is still good for the next run.
      expect(await pool.run({ runtime: ECHO_LENGTHS, entry: 'main', input: [3], onToolCall: () => 'abc' })).toMatchObject({ ok: true, value: ['abc'] });
    }
  });

  it('never waits on an isolated-vm promise call (applySyncPromise), whose wake-up can hang the worker', () => {
    expect(BOOTSTRAP_SOURCE).not.toContain('applySyncPromise');
    expect(BOOTSTRAP_SOURCE).toContain('applySync(');
  });
});

describe('deliverReply', () => {
  it('writes an answer that fits and marks it ready, with its length', () => {
    const { memory } = createReplyMemory();
    const reply = toolReply(0, JSON.stringify({ ok: true, value: 'é😀' }));
    expect(deliverReply(memory, reply)).toBe(true);
    expect(memory.state[0]).toBe(REPLY_READY);
    expect(memory.state[1]).toBe(reply.length);
    expect(String.fromCharCode(...memory.text.subarray(0, reply.length))).toBe(reply);
  });

  it('marks an answer that does not fit to be taken by a call, writing none of it', () => {
    const { memory } = createReplyMemory();
    expect(deliverReply(memory, 'z'.repeat(REPLY_TEXT_UNITS + 1))).toBe(false);
    expect(memory.state[0]).toBe(REPLY_READY);
    expect(memory.state[1]).toBe(REPLY_TAKE);
    expect(memory.text[0]).toBe(0);
  });
});
