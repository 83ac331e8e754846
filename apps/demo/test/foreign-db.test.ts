/**
 * `--db` naming something that is not an AskLoop sessions file: a SQLite file
 * of someone else's is refused by `replay`, `resume`, `approve` and `deny` as
 * `sessions` refuses it, and by `run` and `demo`, and nothing is written into it; a directory is
 * CLI_FILE_UNREADABLE (exit 2) for every command, as the README says; `replay`
 * writes nothing, even to a sessions file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';

const temp = mkdtempSync(join(tmpdir(), 'askloop-foreign-db-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ cwd: temp });
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

function tablesOf(file: string): string[] {
  const database = new DatabaseSync(file, { readOnly: true });
  try {
    return (database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
  } finally {
    database.close();
  }
}

describe('a SQLite file that holds no AskLoop transcript', () => {
  const file = join(temp, 'p2.sqlite');
  const database = new DatabaseSync(file);
  database.exec('CREATE TABLE mydata (x INTEGER)');
  database.close();

  for (const command of ['replay', 'resume', 'approve', 'deny'] as const) {
    it(`${command} refuses it as sessions does, and adds no table to it`, async () => {
      const refused = await cli(['sessions', '--db', file]);
      const result = await cli([command, 'abcd', '--db', file]);
      expect(result.code).toBe(refused.code);
      expect(result.err).toBe(refused.err);
      expect(result.err).toContain('holds no AskLoop transcript');
      expect(tablesOf(file)).toEqual(['mydata']);
    });
  }

  it('sessions, show and view name it once, with the fix (the store\'s words named it twice)', async () => {
    for (const args of [['sessions'], ['show', 'abcd'], ['view', '--no-open']]) {
      const result = await cli([...args, '--db', file]);
      expect(result.code, args[0]).toBe(1);
      expect(result.err, args[0]).toBe(`askloop: ${file}: another program's SQLite database (tables mydata): it holds no AskLoop transcript, so no sessions to read; give --db an AskLoop sessions file (LOOP_STORE_ERROR)\n`);
    }
  });

  for (const args of [['run', 'x', '--script', 'one.json'], ['demo']] as const) {
    it(`${args[0]} refuses it too (LOOP_STORE_ERROR, exit 1), and adds no table to it; a new or empty file is a new sessions file`, async () => {
      writeFileSync(join(temp, 'one.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> hi"')]));
      const result = await cli([...args, '--db', file]);
      expect(result.code).toBe(1);
      expect(result.err).toBe(`askloop: ${file}: another program's SQLite database (tables mydata), with no AskLoop transcript: nothing was written to it; give --db a new file or an AskLoop sessions file (LOOP_STORE_ERROR)\n`);
      expect(tablesOf(file)).toEqual(['mydata']);
      const empty = join(temp, `empty-${args[0]}.db`);
      writeFileSync(empty, '');
      expect((await cli([...args, '--db', empty])).code).toBe(0);
      expect(tablesOf(empty)).toContain('controller_sessions');
    });
  }
});

describe('a directory as --db', () => {
  const dir = join(temp, 'a-folder');
  mkdirSync(dir);
  writeFileSync(join(temp, 'one.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> hi"')]));
  for (const args of [['run', 'x', '--script', 'one.json'], ['sessions'], ['show', 'abcd'], ['replay', 'abcd'], ['resume', 'abcd'], ['approve', 'abcd'], ['view', '--no-open']]) {
    it(`${args[0]}: CLI_FILE_UNREADABLE, exit 2`, async () => {
      const result = await cli([...args, '--db', dir]);
      // (view says "is not a file": it refuses any special file.)
      expect(result.err).toMatch(args[0] === 'view' ? /is not a file/ : /is a directory, not a sessions file/);
      expect(result.code).toBe(2);
    });
  }
});

describe('replay', () => {
  it('writes nothing to the sessions file', async () => {
    const db = join(temp, 'replayed.db');
    writeFileSync(join(temp, 'replies.json'), JSON.stringify([envelope('emit "<<<LOOP:DONE>>> hi"')]));
    const run = await cli(['run', 'x', '--script', 'replies.json', '--db', db, '--json']);
    expect(run.code, run.err).toBe(0);
    const { sid } = JSON.parse(run.out) as { sid: string };
    const hash = (): string => createHash('sha256').update(readFileSync(db)).digest('hex');
    const before = hash();
    const replayed = await cli(['replay', sid, '--db', db]);
    expect(replayed.out).toContain('matched');
    expect(hash()).toBe(before);
  });
});
