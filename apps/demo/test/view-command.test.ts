/**
 * `askloop view` as a person runs it: the real CLI in a child process finds
 * the default database under XDG_DATA_HOME, prints a loopback URL that
 * serves the session, and stops cleanly on SIGINT; bad options and a missing
 * database fail before anything listens.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { CLI_SOURCE } from './spawn-cli.ts';
import { createViewerFixture } from './view-fixture.ts';

let dir = '';
let sid = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'askloop-view-cmd-'));
  mkdirSync(join(dir, 'askloop'));
  const fixture = await createViewerFixture(join(dir, 'askloop', 'sessions.db'));
  sid = fixture.done;
  await fixture.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('askloop view', () => {
  it('serves the default database on a printed loopback URL until SIGINT, opening the session a prefix names', async () => {
    const child = spawn(process.execPath, ['--conditions=@askloop/source', '--no-warnings', '--no-node-snapshot', CLI_SOURCE, 'view', sid.slice(0, 8), '--no-open'], {
      env: { ...process.env, XDG_DATA_HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        const match = /askloop view: (http:\/\/127\.0\.0\.1:\d+\/#\/sessions\/\S+)\n/.exec(stdout);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.on('close', () => reject(new Error(`exited before printing the URL: ${stderr}`)));
    });
    expect(url).toBe(`${new URL(url).origin}/#/sessions/${sid}`);
    expect(stdout).toContain(join(dir, 'askloop', 'sessions.db'));
    const body = (await (await fetch(new URL(`/api/sessions/${sid}`, url))).json()) as { session: { status: string }; turns: unknown[] };
    expect(body.session.status).toBe('done');
    expect(body.turns).toHaveLength(3);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  });

  it('refuses a missing database, a file that is not one, an unknown session, a port in use and a bad port', async () => {
    const missing = captureIo({ cwd: dir });
    expect(await main(['view', '--db', 'nothing.db', '--no-open'], missing)).toBe(2);
    expect(missing.err).toContain(`no sessions database at ${join(dir, 'nothing.db')}`);
    writeFileSync(join(dir, 'notes.txt'), 'not a database\n');
    const wrong = captureIo({ cwd: dir });
    expect(await main(['view', '--db', 'notes.txt', '--no-open'], wrong)).toBe(1);
    expect(wrong.err).toContain(': not a sessions file (SQLite: file is not a database): give --db an AskLoop sessions file');
    expect(wrong.err).toMatch(/\(LOOP_STORE_ERROR\)\n$/);
    const unknown = captureIo({ cwd: dir });
    expect(await main(['view', 'no-such-session', '--db', join(dir, 'askloop', 'sessions.db'), '--no-open'], unknown)).toBe(1);
    expect(unknown.err).toContain("no session 'no-such-session'");
    expect(unknown.err).toContain('LOOP_SESSION_NOT_FOUND');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const taken = captureIo({ cwd: dir });
    expect(await main(['view', '--db', join(dir, 'askloop', 'sessions.db'), '--port', String((busy.address() as AddressInfo).port), '--no-open'], taken)).toBe(2);
    expect(taken.err).toContain('already in use on 127.0.0.1');
    await new Promise<void>((resolve) => busy.close(() => resolve()));
    const port = captureIo({ cwd: dir });
    expect(await main(['view', '--port', '70000', '--no-open'], port)).toBe(2);
    expect(port.err).toContain("--port must be a whole number from 0 to 65535 (a TCP port; 0 picks a free one), not '70000'");
  });
});
