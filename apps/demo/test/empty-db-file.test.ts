/**
 * An empty file as `--db`: `run` takes it (SQLite reads a file of no bytes as
 * an empty database), so the commands that read sessions take it too, as
 * holding none. Regression (walkthrough): `sessions`, `show` and `view`
 * refused it as holding "no AskLoop transcript" (LOOP_STORE_ERROR).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-empty-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an empty file as the sessions database', () => {
  it('holds no sessions for the commands that read, and takes a run', async () => {
    const db = join(dir, 'empty.db');
    writeFileSync(db, '');
    const run = async (...args: string[]) => {
      const io = captureIo({ cwd: dir });
      const code = await main(args, io);
      return { code, out: io.out, err: io.err };
    };
    expect(await run('sessions', '--db', db)).toMatchObject({ code: 0, out: expect.stringContaining(`No sessions in ${db}.`) });
    expect(await run('show', 'abcd', '--db', db)).toMatchObject({ code: 1, err: expect.stringContaining('(LOOP_SESSION_NOT_FOUND)') });
    expect(await run('view', '--db', db, '--no-open')).toMatchObject({ code: 2, err: expect.stringContaining('is empty: no session has run on it yet') });
    expect(await run('resume', 'abcd', '--db', db)).toMatchObject({ code: 2, err: expect.stringContaining('the sessions file is empty: no session has run on it yet (CLI_FILE_UNREADABLE)') });
    // It still takes a run, and then holds its session.
    writeFileSync(join(dir, 'replies.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> ok"')]));
    expect(await run('run', 'x', '--script', 'replies.json', '--db', db)).toMatchObject({ code: 0 });
    expect((await run('sessions', '--db', db)).out).toMatch(/done/);
  });
});
