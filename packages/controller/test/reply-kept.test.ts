/**
 * A reply is paid for: once it arrived, no later failure of its turn may
 * make a resume ask the model again. A turn admitted to run at once saves its
 * reply with its next record; when something throws before that record (a
 * plugin's gate hook, the interpreter's prepare), the reply must be saved
 * all the same.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createDefaultInterpreter } from '../src/interpreter/default-interpreter.ts';
import type { LoopInterpreter } from '../src/interpreter/loop-interpreter.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m' };
const replies = [program('emit "<<<LOOP:DONE>>> first"'), program('emit "<<<LOOP:DONE>>> second"')];

describe('a reply whose turn throws before its next record', () => {
  it('is saved when the gate hook throws, and the resumed turn uses it', async () => {
    const store = createMemoryTranscriptStore();
    let failing = true;
    // An approval service that is down once, after the reply arrived and the turn was admitted.
    const gate = definePlugin({
      name: 'gate',
      specificationVersion: 'v1',
      hooks: {
        programChecked: () => {
          if (!failing) return undefined;
          failing = false;
          throw new Error('approval service down');
        },
      },
    });
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies }), gate], store, pool });
    await expect(loop.run({ agent, task: 'x', sid: 's' })).rejects.toMatchObject({ code: 'LOOP_PLUGIN_ERROR' });
    expect((await store.lastTurn('s'))?.reply?.text).toBe(replies[0]);
    expect(await loop.resume('s')).toMatchObject({ status: 'DONE', result: 'first', turns: 1 });
    await loop.close();
  });

  it("is saved when the interpreter's prepare throws, and the resumed turn uses it", async () => {
    const store = createMemoryTranscriptStore();
    const inner = createDefaultInterpreter(pool);
    let failing = true;
    const interpreter: LoopInterpreter = {
      prepare: (source, options) => {
        if (!failing) return inner.prepare(source, options);
        failing = false;
        return Promise.reject(new Error('the checker is unavailable'));
      },
      execute: (prepared, options) => inner.execute(prepared, options),
    };
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool, interpreter });
    await expect(loop.run({ agent, task: 'x', sid: 's' })).rejects.toThrow('the checker is unavailable');
    expect((await store.lastTurn('s'))?.reply?.text).toBe(replies[0]);
    expect(await loop.resume('s')).toMatchObject({ status: 'DONE', result: 'first', turns: 1 });
    await loop.close();
  });
});
