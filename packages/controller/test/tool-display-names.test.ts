/**
 * A recorded tool call keeps the canonical name replay matches, and the name
 * as the catalogue writes it for people: `show`, the live progress and the
 * viewer printed `tool.str.splitwords` where the program said
 * `tool.str.SplitWords`.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

describe('a recorded tool call', () => {
  it('has the canonical name and the catalogue spelling, and replays by the canonical name', async () => {
    const store = createMemoryTranscriptStore();
    const program = envelope(['command', '  set w = tool.str.SplitWords("a b")', '  emit "<<<LOOP:DONE>>> " + len(w)', 'endcommand'].join('\n'));
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program] })], store, pool });
    const result = await loop.run({ agent: { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.str.*'] } }, task: 'split' });
    expect(result).toMatchObject({ status: 'DONE', result: '2' });
    const [turn] = await store.listTurns(result.sid);
    expect(turn?.toolCalls.map(({ name, displayName }) => ({ name, displayName }))).toEqual([{ name: 'tool.str.splitwords', displayName: 'tool.str.SplitWords' }]);
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true });
    await loop.close();
  });
});
