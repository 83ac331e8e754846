/**
 * A DONE marker a model writes under its envelope, after the END line: the
 * model call never reads that text, so the turn goes on (its decision and
 * OUTPUT are the program's alone) — and the next turn's system text says
 * where the marker was and how to finish instead. End to end through
 * `createAskLoop` with the scripted provider streaming the reply in pieces,
 * the marker split across two of them; the replay matches and tells the same.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const NOTE = 'Your reply has <<<LOOP:DONE>>> after <<<NSENV:V4:END>>>, outside ACTIONS, where it is never read: to finish, your program must emit "<<<LOOP:DONE>>> <result>".';
const first = envelope('command\n  emit "the answer is 4"\nendcommand');

it('tells the next turn that a DONE marker after END was never read, and changes neither decision nor OUTPUT', async () => {
  const store = createMemoryTranscriptStore();
  // Whether each turn's system text carries the note, as the turn starts: in the run, then in its replay.
  const told: boolean[] = [];
  const watch = definePlugin({ name: 'watch', specificationVersion: 'v1', hooks: { turnStart: (turn) => void told.push(turn.record.system.includes(NOTE)) } });
  const replies = [
    // The END line and the start of the chatter in one piece, the marker split across the next two.
    { chunks: [first.slice(0, 60), first.slice(60), '\nAll done! <<<LOOP:', 'DONE>>> 4'] },
    envelope('command\n  emit "<<<LOOP:DONE>>> 4"\nendcommand'),
  ];
  const loop = createAskLoop({ plugins: [testPlugin({ m: replies }), watch], store, pool });
  try {
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m' }, task: 'what is 2 + 2?' });
    expect(result).toMatchObject({ status: 'DONE', result: '4', turns: 2 });
    const [one, two] = await store.listTurns(result.sid);
    expect(one?.decision?.kind).toBe('CONTINUE');
    expect(one?.output).toBe('the answer is 4\n');
    expect(one?.reply).toMatchObject({ text: first, doneMarkerAfterEnd: true });
    expect(one?.lints).toContainEqual({ code: 'LINT_MARKER_NOT_COUNTED', message: NOTE });
    expect(two?.system).toContain(NOTE);
    expect(told).toEqual([false, true]);

    const replay = await loop.replay(result.sid);
    expect(replay).toMatchObject({ matched: true, divergence: null, turns: 2 });
    // The replayed turn saw the marker after END again and told the next turn the same.
    expect(told).toEqual([false, true, false, true]);
  } finally {
    await loop.close();
  }
});
