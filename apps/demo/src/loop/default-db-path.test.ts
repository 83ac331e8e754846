import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandIo } from '../io.ts';
import { defaultDbPath, resolveDbPath } from './default-db-path.ts';

describe('defaultDbPath', () => {
  it('uses XDG_DATA_HOME when it is an absolute path, else ~/.local/share', () => {
    expect(defaultDbPath({ XDG_DATA_HOME: '/data', HOME: '/home/ada' })).toBe('/data/askloop/sessions.db');
    expect(defaultDbPath({ HOME: '/home/ada' })).toBe('/home/ada/.local/share/askloop/sessions.db');
    // The XDG base directory spec: a relative value is invalid and ignored.
    expect(defaultDbPath({ XDG_DATA_HOME: 'relative/dir', HOME: '/home/ada' })).toBe('/home/ada/.local/share/askloop/sessions.db');
    expect(defaultDbPath({ XDG_DATA_HOME: '', HOME: '/home/ada' })).toBe('/home/ada/.local/share/askloop/sessions.db');
  });
});

describe('resolveDbPath', () => {
  it("says the default file's folder could not be made, and how to put it elsewhere, without blaming an option not given", () => {
    const dir = mkdtempSync(join(tmpdir(), 'askloop-default-db-'));
    try {
      // A file where the data folder should be: its folder cannot be created (as an unwritable one cannot).
      writeFileSync(join(dir, 'data'), '');
      const io = { cwd: dir, env: { XDG_DATA_HOME: join(dir, 'data'), HOME: dir } } as unknown as CommandIo;
      expect(() => resolveDbPath(undefined, io)).toThrow(expect.objectContaining({ code: 'CLI_FILE_UNREADABLE', message: expect.stringMatching(/^the default sessions file .*\/data\/askloop\/sessions\.db: cannot create its folder: .*; give --db FILE, or set XDG_DATA_HOME to a folder you can write$/) }));
      expect(() => resolveDbPath('data/x.db', io)).toThrow(expect.objectContaining({ code: 'CLI_OPTION_INVALID', message: expect.stringMatching(/^--db data\/x\.db: cannot create its folder: /) }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an empty --db and one ending with a slash (a folder), creating nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'askloop-db-slash-'));
    try {
      const io = { cwd: dir, env: { HOME: dir } } as unknown as CommandIo;
      expect(() => resolveDbPath('', io)).toThrow(expect.objectContaining({ code: 'CLI_OPTION_INVALID', message: '--db needs a value: a sessions file (--db sessions.db) or a postgres:// URL' }));
      expect(() => resolveDbPath('newdir/', io)).toThrow(expect.objectContaining({ code: 'CLI_OPTION_INVALID', message: '--db newdir/: names a folder, not a sessions file; give a file in it (--db newdir/sessions.db)' }));
      expect(() => resolveDbPath('newdir/.', io)).toThrow(expect.objectContaining({ code: 'CLI_OPTION_INVALID', message: '--db newdir/.: names a folder, not a sessions file; give a file in it (--db newdir/./sessions.db)' }));
      expect(() => resolveDbPath('..', io)).toThrow(expect.objectContaining({ code: 'CLI_OPTION_INVALID', message: '--db ..: names a folder, not a sessions file; give a file in it (--db ../sessions.db)' }));
      // A URL is refused for its scheme first, its password not echoed.
      expect(() => resolveDbPath('mysql://alice:hunter2@db.example.com/', io)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
      // A PostgreSQL URL reaching a command that only keeps a SQLite file (demo) is refused, not taken for a file name.
      expect(() => resolveDbPath('postgres://alice:hunter2@127.0.0.1:1/db', io)).toThrow(expect.objectContaining({ code: 'CLI_OPTION_INVALID', message: '--db postgres://alice:***@127.0.0.1:1/db: this command keeps its sessions in a SQLite file; give --db FILE' }));
      // A backslash is a file name's character on POSIX, not a folder separator.
      expect(() => resolveDbPath('odd\\', io)).not.toThrow();
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
