/**
 * A program with several syntax errors comes back to the model with all of
 * them at once under `repair` (the interpreter reports each line that is
 * wrong on its own, not only the first), so one repair can mend them all.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));

describe('a program with several syntax errors', () => {
  it('gets every one back in OUTPUT in one repair turn, the first as the turn failure', async () => {
    const store = createMemoryTranscriptStore();
    const replies = [program('sett a = 1', 'emit "start"', 'b = 2', 'emit "middle"', 'emit m.a'), program('emit "<<<LOOP:DONE>>> fixed"')];
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m', repair: 1 }, task: 'x' });
    expect(result).toMatchObject({ status: 'DONE', result: 'fixed', turns: 2 });
    const [first] = await store.listTurns(result.sid);
    expect(first?.failure).toMatchObject({ code: 'SCRIPT_SYNTAX', kind: 'syntax', line: 2, column: 3 });
    expect(first?.output).toBe(
      [
        "SYSTEM_ERROR SCRIPT_SYNTAX at line 2, column 3: 'sett' is not a keyword (a statement starts with one of set, call, emit, whisper, must, fail, if, while, for each, return, ask, promptuser, break, continue, on error, clear_error): did you mean 'set'?",
        '> sett a = 1',
        "SYSTEM_ERROR SCRIPT_SYNTAX at line 4, column 3: An assignment needs 'set': write 'set b = 2'.",
        '> b = 2',
        'SYSTEM_ERROR SCRIPT_SYNTAX at line 6, column 9: Map fields are read with brackets: write ["a"] instead of .a (m["a"], not m.a). Dot access only works on the left of \'set\'.',
        '> emit m.a',
        '',
      ].join('\n'),
    );
    await loop.close();
  });
});
