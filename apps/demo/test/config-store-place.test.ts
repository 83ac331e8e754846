/**
 * Every error the config's `store` can give is reported at its line in
 * askloop.config.yaml, as `models.default` and `agents.NAME.model` are
 * (config-model-place.test.ts): those the file's check finds, and those of
 * opening the store it names — a folder as the file, a folder that cannot be
 * made, a missing file, another program's database, a URL that does not parse
 * or a server that refuses it, a store the command cannot use. Before, the
 * opening errors named the sessions file (or a `--db` never given), not the
 * line that chose it; a misspelt `paht:` was two problems; an empty path was
 * zod's words; `path: dir/` was taken as a file named `dir`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureIo } from './capture-io.ts';
import { main } from '../src/main.ts';

const temp = mkdtempSync(join(tmpdir(), 'askloop-store-place-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Lines 1 and 2; the store is written from line 3. */
const HEAD = 'models:\n  default: scripted:script\n';

let folders = 0;

/** A fresh folder with `config` as its askloop.config.yaml, a folder `adir`, a plain file, an empty file, another program's SQLite file and a file that is no database. */
function project(config: string): string {
  const dir = join(temp, `p${folders++}`);
  mkdirSync(join(dir, 'adir'), { recursive: true });
  writeFileSync(join(dir, 'askloop.config.yaml'), HEAD + config);
  writeFileSync(join(dir, 'afile'), 'x');
  writeFileSync(join(dir, 'empty.db'), '');
  writeFileSync(join(dir, 'notdb.db'), 'not a database, only text that SQLite cannot read as one'.repeat(4));
  const foreign = new DatabaseSync(join(dir, 'foreign.db'));
  foreign.exec('CREATE TABLE invoices (id INTEGER)');
  foreign.close();
  return dir;
}

/** The first line of the error `askloop ARGS` printed in `dir`: its place, message and code. */
async function located(dir: string, args: string[]): Promise<{ exit: number; file: string; line: number; column: number; message: string; code: string }> {
  const io = captureIo({ cwd: dir });
  const exit = await main(args, io);
  const first = io.err.split('\n')[0] ?? '';
  const parts = /^askloop: (.+?):(\d+):(\d+): (.*) \(([A-Z_]+)\)$/.exec(first);
  if (parts === null) throw new Error(`not a located error: ${io.err}`);
  return { exit, file: parts[1]!, line: Number(parts[2]), column: Number(parts[3]), message: parts[4]!, code: parts[5]! };
}

describe('a store the config file cannot have', () => {
  it.each([
    ['a URL of another kind', 'store: mysql://u@h/db\n', 3, 8, 'store: expected a postgres:// URL, or path: FILE under store:'],
    ['a value of the wrong type', 'store: 42\n', 3, 8, 'store: expected a postgres:// URL, or a map with path: FILE, got number 42'],
    ['a misspelt key, once (not also "path missing")', 'store:\n  paht: x.db\n', 4, 3, "store.paht: unknown key 'paht'; did you mean 'path'? (the keys are path)"],
    // It said "store.path: expected text, got nothing (the key is missing)": not what a store setting looks like.
    ['a map without path', 'store: {}\n', 3, 8, 'store: expected a SQLite sessions file as path: FILE (store: { path: .askloop/sessions.db }) or a PostgreSQL server as a postgres:// URL (store: postgres://USER@HOST:PORT/DB), got a map without path'],
    ['nothing', 'store:\n', 3, 7, 'store: expected a SQLite sessions file as path: FILE (store: { path: .askloop/sessions.db }) or a PostgreSQL server as a postgres:// URL (store: postgres://USER@HOST:PORT/DB), got nothing'],
    ['a path of the wrong type', 'store:\n  path: 5\n', 4, 9, 'store.path: expected text, got number 5'],
    ['an empty path, in the words of the file', 'store:\n  path: ""\n', 4, 9, 'store.path: expected a sessions file path, e.g. .askloop/sessions.db, got empty text'],
    ['a path naming a folder (it would become a file named so)', 'store:\n  path: newdir/\n', 4, 9, 'store.path: names a folder (it ends in /, . or ..), not a sessions file; give a file in it, e.g. DIR/sessions.db'],
    ['a URL under path', 'store:\n  path: mysql://h/db\n', 4, 9, 'store.path: a file path, not a URL (a PostgreSQL server is store: postgres://USER@HOST:PORT/DB)'],
  ])('%s: at its line', async (_name, config, line, column, message) => {
    const dir = project(config);
    const error = await located(dir, ['sessions']);
    expect(error).toEqual({ exit: 1, file: join(dir, 'askloop.config.yaml'), line, column, message, code: 'CONFIG_INVALID' });
  });
});

describe('a store the config names that cannot be opened', () => {
  const directory = (dir: string) => `store.path: ${join(dir, 'adir')}: is a directory, not a sessions file; give the path of a file in it (store.path: DIR/sessions.db)`;
  // The file once (it was named again by the store's "FILE holds no AskLoop transcript"), and the fix.
  const foreignRead = (dir: string) => `store.path: ${join(dir, 'foreign.db')}: another program's SQLite database (tables invoices): it holds no AskLoop transcript, so no sessions to read; give store.path an AskLoop sessions file`;
  it.each([
    ['a folder as the file: run', 'store:\n  path: adir\n', ['run', 'hi'], 2, 'CLI_FILE_UNREADABLE', directory],
    ['a folder as the file: sessions', 'store:\n  path: adir\n', ['sessions'], 2, 'CLI_FILE_UNREADABLE', directory],
    ['a folder as the file: resume', 'store:\n  path: adir\n', ['resume', 'abcd'], 2, 'CLI_FILE_UNREADABLE', directory],
    ['a folder as the file: view', 'store:\n  path: adir\n', ['view', '--no-open'], 2, 'CLI_FILE_UNREADABLE', (dir: string) => `store.path: ${join(dir, 'adir')} is not a file`],
    [
      'a folder that cannot be made (not --db, which was not given)',
      'store:\n  path: afile/s.db\n',
      ['run', 'hi'],
      2,
      'CLI_FILE_UNREADABLE',
      (dir: string) => `store.path: ${join(dir, 'afile', 's.db')}: cannot create its folder: EEXIST: file already exists, mkdir '${join(dir, 'afile')}'; give store.path a file in a folder you can write`,
    ],
    ['no such file: resume', 'store:\n  path: none.db\n', ['resume', 'abcd'], 2, 'CLI_FILE_UNREADABLE', (dir: string) => `store.path: ${join(dir, 'none.db')}: no sessions file here; run a session with askloop run first`],
    // The fix names store.path, which chose the file (it said "or pass --db FILE", as if no config had chosen it).
    ['no such file: view', 'store:\n  path: none.db\n', ['view', '--no-open'], 2, 'CLI_FILE_UNREADABLE', (dir: string) => `store.path: no sessions database at ${join(dir, 'none.db')}: run a session with askloop run first, or give store.path another sessions file (--db FILE overrides it)`],
    ['an empty file: view', 'store:\n  path: empty.db\n', ['view', '--no-open'], 2, 'CLI_FILE_UNREADABLE', (dir: string) => `store.path: ${join(dir, 'empty.db')} is empty: no session has run on it yet; run one with askloop run (which writes to store.path), or give store.path another sessions file (--db FILE overrides it)`],
    [
      "another program's database: run",
      'store:\n  path: foreign.db\n',
      ['run', 'hi'],
      1,
      'LOOP_STORE_ERROR',
      (dir: string) => `store.path: ${join(dir, 'foreign.db')}: another program's SQLite database (tables invoices), with no AskLoop transcript: nothing was written to it; give store.path a new file or an AskLoop sessions file`,
    ],
    ["another program's database: sessions", 'store:\n  path: foreign.db\n', ['sessions'], 1, 'LOOP_STORE_ERROR', foreignRead],
    ["another program's database: replay", 'store:\n  path: foreign.db\n', ['replay', 'abcd'], 1, 'LOOP_STORE_ERROR', foreignRead],
    ["another program's database: show", 'store:\n  path: foreign.db\n', ['show', 'abcd'], 1, 'LOOP_STORE_ERROR', foreignRead],
    ["another program's database: resume", 'store:\n  path: foreign.db\n', ['resume', 'abcd'], 1, 'LOOP_STORE_ERROR', foreignRead],
    ["another program's database: view", 'store:\n  path: foreign.db\n', ['view', '--no-open'], 1, 'LOOP_STORE_ERROR', foreignRead],
    [
      'a file that is no database: run',
      'store:\n  path: notdb.db\n',
      ['run', 'hi'],
      1,
      'LOOP_STORE_ERROR',
      (dir: string) => `store.path: ${join(dir, 'notdb.db')}: not a sessions file (SQLite: file is not a database): give store.path an AskLoop sessions file, or restore this one from a backup if it was one`,
    ],
    ['a file for a command that needs PostgreSQL: run --detach', 'store:\n  path: s.db\n', ['run', 'hi', '--detach'], 2, 'CLI_USAGE', () => 'store.path: --detach queues the session for `askloop worker`, which needs a PostgreSQL store: --db postgres://USER@HOST:PORT/DB'],
    ['a file for a command that needs PostgreSQL: worker', 'store:\n  path: s.db\n', ['worker'], 2, 'CLI_USAGE', () => 'store.path: askloop worker needs a PostgreSQL store: --db postgres://USER@HOST:PORT/DB, or store: postgres://… in askloop.config.yaml'],
    ['a URL that does not parse', 'store: postgres://askloop@127.0.0.1:99999/db\n', ['sessions'], 1, 'PG_URL_INVALID', () => 'store: not a PostgreSQL URL: postgres://askloop@127.0.0.1:99999/db (Invalid URL); the port 99999 is over 65535'],
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    ['a server that refuses the connection', 'store: postgres://askloop@127.0.0.1:1/db\n', ['resume', 'abcd'], 1, 'PG_QUERY_FAILED', () => 'store: postgres://askloop@127.0.0.1:1/db: connect ECONNREFUSED 127.0.0.1:1; no server listens at 127.0.0.1:1: start PostgreSQL there, or fix the host and port in the URL (PostgreSQL listens on 5432 unless told otherwise)'],
    ['a PostgreSQL store for view, which reads files only', 'store: postgres://askloop@127.0.0.1:1/db\n', ['view', '--no-open'], 2, 'CLI_USAGE', () => 'store: askloop view reads a SQLite sessions file only; read a PostgreSQL store with askloop sessions --db postgres://… and askloop show SID --db postgres://…'],
  ] as const)('%s: at its line', async (_name, config, args, exit, code, message) => {
    const dir = project(config);
    const error = await located(dir, [...args]);
    const [line, column] = config.startsWith('store:\n') ? [4, 9] : [3, 8];
    expect(error).toEqual({ exit, file: join(dir, 'askloop.config.yaml'), line, column, message: message(dir), code });
  });

  it('is not located in the config when --db gave the store', async () => {
    const dir = project('store:\n  path: foreign.db\n');
    const io = captureIo({ cwd: dir });
    expect(await main(['run', 'hi', '--db', 'adir'], io)).toBe(2);
    expect(io.err).toBe(`askloop: adir: is a directory, not a sessions file; give the path of a file in it (--db DIR/sessions.db) (CLI_FILE_UNREADABLE)\n`);
  });
});
