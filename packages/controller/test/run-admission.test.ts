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
    const agents = { parent: { name: 'parent', model: 'scripted:parent' }, child: { name: 'child', model: 'scripted:child' } };
    const loop = createAskLoop({ plugins: [testPlugin(models, new Map(), agents)], store: createMemoryTranscriptStore(), pool, maxConcurrentRuns: 1 });
    expect(await loop.run({ agent: 'parent', task: 'delegate' })).toMatchObject({ status: 'DONE', result: 'child said four' });
    await loop.close();
  });

  it('refuses a value that is not a whole number above 0 (LOOP_CONFIG_INVALID)', () => {
    for (const maxConcurrentRuns of [0, -1, 1.5]) {
      expect(() => createAskLoop({ plugins: [], store: createMemoryTranscriptStore(), maxConcurrentRuns })).toThrow(expect.objectContaining({ code: 'LOOP_CONFIG_INVALID' }));
    }
  });
});
