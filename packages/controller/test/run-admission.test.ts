/**
 * `maxConcurrentRuns`: at most that many turns prepare and run at once, the
 * others wait with their reply; a child loop of `ask` never waits for a slot
 * its parent's turn holds.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createDefaultInterpreter } from '../src/interpreter/default-interpreter.ts';
import type { LoopInterpreter } from '../src/interpreter/loop-interpreter.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 2 });
afterAll(() => pool.close());
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));

/** The real interpreter, counting how many prepares and runs are in flight at once. */
function countingInterpreter(): { interpreter: LoopInterpreter; peak: () => number } {
  const inner = createDefaultInterpreter(pool);
  let inFlight = 0;
  let peak = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    peak = Math.max(peak, (inFlight += 1));
    try {
      return await work();
    } finally {
      inFlight -= 1;
    }
  };
  return {
    interpreter: { prepare: (source, options) => counted(() => inner.prepare(source, options)), execute: (prepared, options) => counted(() => inner.execute(prepared, options)) },
    peak: () => peak,
  };
}

describe('maxConcurrentRuns', () => {
  it('admits one turn at a time to prepare and run when set to 1; every session finishes', async () => {
    const { interpreter, peak } = countingInterpreter();
    const replies = Array.from({ length: 6 }, (_, index) => program(`emit "<<<LOOP:DONE>>> session ${index}"`));
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store: createMemoryTranscriptStore(), pool, interpreter, maxConcurrentRuns: 1 });
    const agent = { name: 'worker', model: 'scripted:m' };
    const results = await Promise.all(Array.from({ length: 6 }, () => loop.run({ agent, task: 'x' })));
    expect(results.map((result) => result.status)).toEqual(Array(6).fill('DONE'));
    expect(peak()).toBe(1);
    await loop.close();
  });

  it('lets the child loop of an `ask` run while its parent holds the only slot', async () => {
    const models = {
      parent: [program('ask "child", "what is two plus two" into answer', 'emit "<<<LOOP:DONE>>> child said " + answer')],
      child: [program('emit "<<<LOOP:DONE>>> four"')],
    };
    const agents = { parent: { name: 'parent', model: 'scripted:parent', asks: ['child'] }, child: { name: 'child', model: 'scripted:child' } };
    const loop = createAskLoop({ plugins: [testPlugin(models, new Map(), agents)], store: createMemoryTranscriptStore(), pool, maxConcurrentRuns: 1 });
    expect(await loop.run({ agent: 'parent', task: 'delegate' })).toMatchObject({ status: 'DONE', result: 'child said four' });
    await loop.close();
  });

  it('a turn cancelled while it waits for a slot stops waiting: it halts ERR_CANCELLED before the turn holding the slot ends, and resumes', async () => {
    const store = createMemoryTranscriptStore();
    const models = { holder: [program('call tool.test.Sleep(3000)', 'emit "<<<LOOP:DONE>>> slept"')], waiter: [program('emit "<<<LOOP:DONE>>> ran"')] };
    const agents = {
      holder: { name: 'holder', model: 'scripted:holder', policy: { allow: ['tool.test.*'] }, quotas: { wallMs: 10_000 } },
      waiter: { name: 'waiter', model: 'scripted:waiter' },
    };
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const loop = createAskLoop({
      plugins: [testPlugin(models, new Map(), agents)],
      store,
      pool,
      maxConcurrentRuns: 1,
      onEvent: (event) => {
        if (event.type === 'phase' && event.phase === 'executing' && event.sid === 'holder') holding();
      },
    });
    const order: string[] = [];
    const holder = loop.run({ agent: 'holder', task: 'sleep', sid: 'holder' }).then((result) => (order.push('holder'), result));
    await held;
    const cancel = new AbortController();
    const waiter = loop
      .run({ agent: 'waiter', task: 'wait', sid: 'waiter', signal: cancel.signal, onEvent: (event) => event.type === 'reply' && cancel.abort() })
      .then((result) => (order.push('waiter'), result));
    expect(await waiter).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    expect(await holder).toMatchObject({ status: 'DONE', result: 'slept' });
    // The waiter did not sit out the holder's run: it gave up its place as soon as it was cancelled.
    expect(order).toEqual(['waiter', 'holder']);
    // Its reply was kept; the resumed turn runs it (the slot is free again: nothing leaked).
    expect(await loop.resume('waiter')).toMatchObject({ status: 'DONE', result: 'ran', turns: 1 });
    await loop.close();
  });

  it('gives the slot back when a turn fails while it holds it (a throwing hook, a store that fails)', async () => {
    let failures = 2;
    const memory = createMemoryTranscriptStore();
    const store = {
      ...memory,
      async saveTurn(...args: Parameters<typeof memory.saveTurn>) {
        if (args[0].phase === 'executing' && failures > 0) {
          failures -= 1;
          throw new Error('disk full');
        }
        return memory.saveTurn(...args);
      },
    };
    const replies = Array.from({ length: 4 }, (_, index) => program(`emit "<<<LOOP:DONE>>> ${index}"`));
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool, maxConcurrentRuns: 1 });
    const agent = { name: 'worker', model: 'scripted:m' };
    await expect(loop.run({ agent, task: 'a', sid: 'a' })).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
    await expect(loop.run({ agent, task: 'b', sid: 'b' })).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
    // With a slot leaked by either failure, these would wait forever.
    const results = await Promise.all([loop.resume('a'), loop.resume('b'), loop.run({ agent, task: 'c', sid: 'c' })]);
    expect(results.map((result) => result.status)).toEqual(['DONE', 'DONE', 'DONE']);
    await loop.close();
  });

  it('refuses a value that is not a whole number above 0 (LOOP_CONFIG_INVALID)', () => {
    for (const maxConcurrentRuns of [0, -1, 1.5]) {
      expect(() => createAskLoop({ plugins: [], store: createMemoryTranscriptStore(), maxConcurrentRuns })).toThrow(expect.objectContaining({ code: 'LOOP_CONFIG_INVALID' }));
    }
    // The same check for the grace a model call has after END.
    for (const endGraceMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createAskLoop({ plugins: [], store: createMemoryTranscriptStore(), endGraceMs })).toThrow(expect.objectContaining({ code: 'LOOP_CONFIG_INVALID', message: expect.stringContaining('endGraceMs') }));
    }
  });
});
