import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { storeOpenHint } from './store-open-hint.ts';

const temp = mkdtempSync(join(tmpdir(), 'askloop-open-hint-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const OPEN_FAILED = 'the SQLite transcript store failed in open: store open failed: unable to open database file';

describe('storeOpenHint', () => {
  it('names a folder this user may not write', () => {
    const file = join(temp, 'locked', 's.db');
    expect(storeOpenHint(OPEN_FAILED, file, (path) => (path === join(temp, 'locked') ? 'EACCES' : undefined))).toBe(
      `; this user may not write the folder ${join(temp, 'locked')} (SQLite makes the file and its -wal and -shm files there): give --db a file in a folder you can write`,
    );
  });

  it('says how to read a file whose folder this user may not write: a copy (SQLite makes -wal and -shm there even to read)', () => {
    const file = join(temp, 'locked', 's.db');
    expect(storeOpenHint('the SQLite transcript store failed in open: attempt to write a readonly database', file, () => 'EACCES', 'store.path', true)).toBe(
      `; this user may not write the folder ${join(temp, 'locked')}, where SQLite makes the -wal and -shm files that reading a sessions file needs too: copy the file to a folder you can write and give store.path the copy, or ask for write access to the folder`,
    );
  });

  it('names an existing file this user may not write', () => {
    const file = join(temp, 'mine.db');
    writeFileSync(file, '');
    expect(storeOpenHint(OPEN_FAILED, file, (path) => (path === file ? 'EACCES' : undefined))).toBe('; this user may not write the file: give --db a file you can write');
  });

  it('says a read-only file system is read-only, not that this user lacks permission', () => {
    expect(storeOpenHint(OPEN_FAILED, '/mnt/ro/s.db', () => 'EROFS')).toBe(
      '; the file system is read-only for the folder /mnt/ro (SQLite makes the file and its -wal and -shm files there): give --db a file in a folder you can write',
    );
  });

  it('adds nothing when both may be written, or for another failure', () => {
    expect(storeOpenHint(OPEN_FAILED, join(temp, 'free.db'))).toBe('');
    expect(storeOpenHint('disk I/O error', join(temp, 'x', 'y.db'), () => 'EACCES')).toBe('');
  });

  // Root may write anywhere, so only another user sees the real check refuse.
  it.runIf(process.getuid?.() !== 0)('reads the real permissions of a folder made read-only', async () => {
    const { chmodSync, mkdirSync } = await import('node:fs');
    const locked = join(temp, 'really-locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    expect(storeOpenHint(OPEN_FAILED, join(locked, 's.db'))).toContain(`may not write the folder ${locked}`);
    chmodSync(locked, 0o700);
  });
});
