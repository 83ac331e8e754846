/**
 * An approval or denial is recorded only when the session can go on: a
 * controller without the session's provider refuses `approve`/`deny` with
 * LOOP_PROVIDER_NOT_FOUND and leaves the paused turn waiting, so a second
 * try with the provider can still approve or deny it.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import type { TranscriptStore } from '../src/store/transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m' };
const gate = definePlugin({ name: 'gate', specificationVersion: 'v1', hooks: { programChecked: () => ({ kind: 'require-approval', message: 'check with ops' }) } });

/** A session paused on a held program (`tool`) or a v1 `await`, by a controller that has the provider. */
async function paused(kind: 'tool' | 'await', store: TranscriptStore): Promise<string> {
  const plugins = kind === 'tool' ? [testPlugin({ m: [program('emit "<<<LOOP:DONE>>> ok"')] }), gate] : [testPlugin({ m: [program('emit "[[loop:await]]"'), program('emit "<<<LOOP:DONE>>> ok"')] })];
  const result = await createAskLoop({ plugins, store, pool }).run({ agent: kind === 'tool' ? agent : { ...agent, dialect: 'v1' }, task: 'x' });
  expect(result.status).toBe('PAUSED');
  return result.sid;
}

describe('approve and deny without the session provider', () => {
  for (const kind of ['tool', 'await'] as const) {
    for (const action of ['approve', 'deny'] as const) {
      it(`${action} of a paused ${kind === 'tool' ? 'program' : 'v1 await'}: LOOP_PROVIDER_NOT_FOUND, nothing recorded, and the session can still be answered`, async () => {
        const store = createMemoryTranscriptStore();
        const sid = await paused(kind, store);
        const before = { turn: await store.lastTurn(sid), session: await store.getSession(sid) };
        // No plugin supplies `scripted:`.
        const without = createAskLoop({ plugins: kind === 'tool' ? [gate] : [], store, pool });
        await expect(without[action](sid)).rejects.toMatchObject({ code: 'LOOP_PROVIDER_NOT_FOUND', sid });
        expect(await store.lastTurn(sid)).toEqual(before.turn);
        expect(await store.getSession(sid)).toEqual(before.session);
        const done = kind === 'tool' ? 'emit "<<<LOOP:DONE>>> ok"' : 'emit "[[loop:done]]"';
        const again = await createAskLoop({ plugins: [testPlugin({ m: [program(done)] }), ...(kind === 'tool' ? [gate] : [])], store, pool })[action](sid);
        expect(again.status).toBe(action === 'approve' ? 'DONE' : 'HALT');
      });
    }
  }
});
