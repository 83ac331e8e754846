/**
 * A sessions file in a folder this user may not write: SQLite needs its
 * `-wal` and `-shm` files beside a file in WAL mode even to read it, so
 * `sessions`, `show`, `view` and `replay` fail there. Walkthrough: they said
 * only SQLite's "attempt to write a readonly database" (`LOOP_STORE_ERROR`),
 * where `run` names the folder and the fix; now the readers do too, with the
 * reader's way out (a copy), and `resume` the writer's.
 *
 * Root may write anything: as root the CLI runs under `setpriv` without the
 * capabilities that override file permissions, so the folder's mode counts.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';
import { spawnCli } from './spawn-cli.ts';
import { tempFolder } from './temp-folder.ts';

const SETPRIV = '/usr/bin/setpriv';
const root = process.getuid?.() === 0;
/** How to run the CLI so that the folder's permissions hold for it, or undefined when this machine cannot. */
const wrapper = !root ? [] : existsSync(SETPRIV) && canDropCapabilities() ? [SETPRIV, '--bounding-set', '-dac_override,-dac_read_search', '--'] : undefined;

function canDropCapabilities(): boolean {
  try {
    execFileSync(SETPRIV, ['--bounding-set', '-dac_override,-dac_read_search', '--', 'true']);
    return true;
  } catch {
    return false;
  }
}

const dir = tempFolder('read-only-folder');
const locked = join(dir, 'locked');
const db = join(locked, 'sessions.db');
let sid = '';

beforeAll(async () => {
  mkdirSync(locked);
  const script = join(dir, 'replies.json');
  writeFileSync(script, JSON.stringify([envelope('emit "<<<LOOP:DONE>>> ok"')]));
  const io = captureIo({ cwd: dir });
  expect(await main(['run', 'say ok', '--script', script, '--db', db, '--json'], io), io.err).toBe(0);
  sid = JSON.parse(io.out).sid;
  chmodSync(locked, 0o555);
});
afterAll(() => chmodSync(locked, 0o755));

describe.skipIf(wrapper === undefined)('a sessions file in a folder this user may not write', () => {
  const reading = `this user may not write the folder ${locked}, where SQLite makes the -wal and -shm files that reading a sessions file needs too: copy the file to a folder you can write and give --db the copy, or ask for write access to the folder (LOOP_STORE_ERROR)`;

  it.each([['sessions'], ['show', 'SID'], ['replay', 'SID'], ['view', 'SID', '--no-open']])('askloop %s names the folder and how to read it anyway', async (...args) => {
    const result = await spawnCli([...args.map((arg) => (arg === 'SID' ? sid : arg)), '--db', db], { cwd: dir, wrapper: wrapper! });
    expect(result.stderr).toBe(`askloop: ${db}: the SQLite transcript store failed in open: attempt to write a readonly database; ${reading}\n`);
    expect(result.code).toBe(1);
  });

  it('askloop resume, which writes, names the folder and the writer\'s fix', async () => {
    const result = await spawnCli(['resume', sid, '--db', db], { cwd: dir, wrapper: wrapper! });
    expect(result.stderr).toContain(`; this user may not write the folder ${locked} (SQLite makes the file and its -wal and -shm files there): give --db a file in a folder you can write (LOOP_STORE_ERROR)\n`);
    expect(result.code).toBe(1);
  });
});
