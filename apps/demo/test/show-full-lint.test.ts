/**
 * `askloop show --full` prints an envelope recovery note whole. Regression
 * (walkthrough): it was cut to the terminal's width even with --full, which
 * promises everything (`… (START at line 4); send …`).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { seedSession, seedTurn, sessionsFileIn } from './view-seed.ts';
import { tempFolder } from './temp-folder.ts';

const dir = tempFolder('show-full-lint');

describe('askloop show of a turn whose envelope was recovered', () => {
  it('cuts the note to the width without --full, and prints it whole with it', async () => {
    const { db, store } = sessionsFileIn(dir);
    const sid = await seedSession(store, 'fenced-reply');
    const message = `the reply wrapped the envelope in a code fence ${'and said more about it '.repeat(8)}(START at line 4); send the envelope bare`;
    const session = await store.getSession(sid);
    await store.saveTurn({ ...seedTurn(sid, 1), lints: [{ code: 'LINT_RECOVERED_FENCE', message }] }, { ...session!, turns: 1 });
    await store.close();
    const show = async (...args: string[]) => {
      const io = captureIo({ cwd: dir });
      expect(await main(['show', sid, '--db', db, ...args], io)).toBe(0);
      return io.out;
    };
    expect(await show()).not.toContain('send the envelope bare');
    expect(await show('--full')).toContain(`LINT_RECOVERED_FENCE: ${message}`);
  });
});
