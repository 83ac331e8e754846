/**
 * A sessions file damaged after a run (a table emptied, a record cut short):
 * `resume`, `approve` and `deny` report the store's failure with its code,
 * as `show` does, never as an unexpected error; a file whose pages SQLite
 * cannot read (written over, cut short — before or after it was opened) is
 * said to be damaged, with the fix, by every command that reads it; and a
 * sessions file removed while a run goes on is not made again by the CLI's
 * own bookkeeping.
 */
import { existsSync, openSync, closeSync, truncateSync, writeSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { openSessionsReader } from '../src/commands/open-sessions-reader.ts';
import { startViewer } from '../src/view/start-viewer.ts';
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

/** Writes bytes that are no SQLite page over `file` from the first page of `table` to the end: the pages before (the schema, the migrations) still open. */
function writeOverFrom(file: string, table: string): void {
  const database = new DatabaseSync(file, { readOnly: true });
  const { rootpage } = database.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(table) as { rootpage: number };
  const { page_size: pageSize, page_count: pageCount } = { ...database.prepare('PRAGMA page_size').get(), ...database.prepare('PRAGMA page_count').get() } as { page_size: number; page_count: number };
  database.close();
  const fd = openSync(file, 'r+');
  const garbage = Buffer.alloc((pageCount - rootpage + 1) * pageSize, 0x5a);
  writeSync(fd, garbage, 0, garbage.length, (rootpage - 1) * pageSize);
  closeSync(fd);
}

const DAMAGED = "the sessions file is damaged and cannot be read (SQLite: database disk image is malformed); restore it from a backup, or give --db another sessions file (sqlite3 FILE .recover may save what it still holds)";

describe('a sessions file SQLite cannot read', () => {
  // sessions and show said "the SQLite transcript store failed in listSessions: database disk image is malformed" (no
  // fix), resume and view SID "askloop: unexpected error: …" with no code and no file.
  it.each([
    ['written over after the run', (file: string) => writeOverFrom(file, 'controller_sessions')],
    ['cut short', (file: string) => truncateSync(file, 3 * 4096)],
  ])('%s: every command that reads it says it is damaged, names the file once and says what to do', async (name, damage) => {
    const db = `unreadable-${name.length}.db`;
    const sid = await damagedSession(db, 'SELECT 1');
    damage(join(dir, db));
    for (const args of [['sessions'], ['show', sid], ['resume', sid, '--script', 'done.json'], ['replay', sid], ['view', sid, '--no-open'], ['view', '--no-open']]) {
      const io = captureIo({ cwd: dir });
      expect(await main([...args, '--db', db], io), args[0]).toBe(1);
      expect(io.err, args[0]).toBe(`askloop: ${join(dir, db)}: ${DAMAGED} (LOOP_STORE_ERROR)\n`);
    }
    const json = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', db, '--json'], json)).toBe(1);
    expect(JSON.parse(json.out)).toEqual({ ok: false, error: { code: 'LOOP_STORE_ERROR', message: DAMAGED, file: join(dir, db) } });
  });

  // run said "the SQLite transcript store failed in open: … malformed" or "… failed in createSession: … malformed",
  // with no file and no fix.
  it.each([
    ['cut short (found at open)', (file: string) => truncateSync(file, 3 * 4096), ''],
    ['its sessions written over (found when the session is made)', (file: string) => writeOverFrom(file, 'controller_sessions'), ''],
    ['its turns written over (found mid-run)', (file: string) => writeOverFrom(file, 'controller_turns'), 'left unfinished'],
  ])('%s: run says the file is damaged, names it and says what to do', async (name, damage, unfinished) => {
    const db = `run-on-damaged-${name.length}.db`;
    await damagedSession(db, 'SELECT 1');
    damage(join(dir, db));
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 't', '--script', 'done.json', '--db', db], io)).toBe(1);
    expect(io.err).toContain(`askloop: ${join(dir, db)}: ${DAMAGED}`);
    expect(io.err).toMatch(/\(LOOP_STORE_ERROR\)\n$/);
    if (unfinished !== '') expect(io.err).toMatch(/; session [0-9a-f-]{36} is left unfinished \(LOOP_STORE_ERROR\)\n$/);
  });

  it('written over after sessions opened it: the listing fails in the same words', async () => {
    const db = join(dir, 'opened-then-damaged.db');
    await damagedSession('opened-then-damaged.db', 'SELECT 1');
    const reader = await openSessionsReader({ kind: 'sqlite', path: db });
    try {
      writeOverFrom(db, 'controller_sessions');
      await expect(reader.store!.listSessions({ limit: 10 })).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR', file: db, message: DAMAGED });
    } finally {
      await reader.store?.close();
    }
  });

  it('written over while the viewer serves it: its API says the file is damaged, with the fix', async () => {
    const db = join(dir, 'served-then-damaged.db');
    await damagedSession('served-then-damaged.db', 'SELECT 1');
    const reader = await openSessionsReader({ kind: 'sqlite', path: db });
    const viewer = await startViewer({ store: reader.store!, storeName: 'store.path' });
    try {
      writeOverFrom(db, 'controller_sessions');
      const response = await fetch(`${viewer.url}api/sessions`);
      expect(response.status).toBe(500);
      // It used to be SQLite's words after "the SQLite transcript store failed in listSessions", with no fix.
      expect(await response.json()).toMatchObject({ error: { code: 'VIEW_STORE_ERROR', message: DAMAGED.replace('--db', 'store.path') } });
    } finally {
      await viewer.close();
      await reader.store?.close();
    }
  });

  it("named by the config's store.path: the fix names store.path", async () => {
    const sid = await damagedSession('config-named.db', 'SELECT 1');
    writeOverFrom(join(dir, 'config-named.db'), 'controller_sessions');
    await writeFile(join(dir, 'named.yaml'), 'store:\n  path: config-named.db\n');
    const io = captureIo({ cwd: dir });
    expect(await main(['show', sid, '--config', 'named.yaml'], io)).toBe(1);
    expect(io.err).toBe(`askloop: ${join(dir, 'config-named.db')}: ${DAMAGED.replace('--db', 'store.path')} (LOOP_STORE_ERROR)\n`);
  });

  it('no database at all: says it is not a sessions file', async () => {
    await writeFile(join(dir, 'text.db'), 'only text, which SQLite cannot read as a database '.repeat(4));
    const io = captureIo({ cwd: dir });
    expect(await main(['sessions', '--db', 'text.db'], io)).toBe(1);
    expect(io.err).toBe(`askloop: ${join(dir, 'text.db')}: not a sessions file (SQLite: file is not a database): give --db an AskLoop sessions file, or restore this one from a backup if it was one (LOOP_STORE_ERROR)\n`);
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
