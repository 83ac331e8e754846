/**
 * A sessions file damaged after a run (a table emptied, a record cut short):
 * `resume`, `approve` and `deny` report the store's failure with its code,
 * as `show` does, never as an unexpected error; and a sessions file removed
 * while a run goes on is not made again by the CLI's own bookkeeping.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { saveContinueWith } from '../src/loop/continue-record.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'askloop-damaged-'));
  await writeFile(join(dir, 'done.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> fine"')]));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A finished session in `db`, then `damage` run on the file. */
async function damagedSession(db: string, damage: string): Promise<string> {
  const io = captureIo({ cwd: dir });
  expect(await main(['run', 't', '--script', 'done.json', '--db', db, '--json'], io)).toBe(0);
  const { sid } = JSON.parse(io.out) as { sid: string };
  const database = new DatabaseSync(join(dir, db));
  database.exec(damage);
  database.close();
  return sid;
}

describe('a damaged sessions file', () => {
  it.each([
    ['its texts deleted', 'DELETE FROM controller_texts'],
    ['a turn record cut short', 'UPDATE controller_turns SET record = substr(record, 1, 100)'],
  ])('%s: resume, approve and deny fail with LOOP_STORE_ERROR, in words and as JSON', async (_what, damage) => {
    const db = `damaged-${damage.length}.db`;
    const sid = await damagedSession(db, damage);
    for (const command of ['resume', 'approve', 'deny']) {
      const io = captureIo({ cwd: dir });
      expect(await main([command, sid, '--db', db, '--script', 'done.json'], io), command).toBe(1);
      // It used to be "askloop: unexpected error: …" with no code, and an empty standard output with --json.
      expect(io.err, command).toMatch(/^askloop: .*\(LOOP_STORE_ERROR\)\n/);
      expect(io.err).not.toContain('unexpected error');
      const json = captureIo({ cwd: dir });
      expect(await main([command, sid, '--db', db, '--script', 'done.json', '--json'], json)).toBe(1);
      expect(JSON.parse(json.out)).toMatchObject({ ok: false, error: { code: 'LOOP_STORE_ERROR' } });
    }
  });
});

describe('the record of what a continuation needs', () => {
  it('is not written to a sessions file that is not there (removed while the run went on)', () => {
    const gone = join(dir, 'removed.db');
    saveContinueWith(gone, 'sid-1', { db: gone, script: 'done.json' }, dir);
    // It used to make the file, holding only the CLI's table: every command then refused it as another program's.
    expect(existsSync(gone)).toBe(false);
  });
});
